import { spawn } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectArticleBasics, parseArticle } from "../helpers/article.js";
import { runInTerminal } from "../helpers/cli.js";
import { timeless } from "../helpers/jsonld.js";
import { CLEAN_ENV, ROOT, runCli, startServer, testModel, type TestServer } from "../helpers/server.js";

/** `npm run -s cli -- ARGS` started in `cwd`, as a person runs it from a folder of their own (npm finds the checkout by --prefix). */
function npmRunCli(args: string[], cwd: string): Promise<{ code: number | null; stderr: string }> {
  const env = Object.fromEntries(
    Object.entries<string | undefined>({ ...process.env, ...CLEAN_ENV, INIT_CWD: undefined }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
  const child = spawn("npm", ["--prefix", ROOT, "run", "-s", "cli", "--", ...args], { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr })));
}

describe("inkpress generate (no server)", () => {
  let model: string;
  let server: TestServer;
  beforeAll(async () => {
    model = await testModel("plain");
    server = await startServer(model);
  });
  afterAll(() => server?.stop());

  const base = (...extra: string[]) => [
    "generate",
    "--model",
    model,
    "--threads",
    "1",
    "--topic",
    "Urban beekeeping",
    "--length",
    "200",
    ...extra,
  ];

  it("writes Markdown to stdout and says what it is doing on stderr, phase by phase", async () => {
    const result = await runCli(base("--keywords", "beehive, honey", "--seed", "9"));
    expect(result.code).toBe(0);
    const article = parseArticle(result.stdout);
    expect(article.headings[0]?.depth).toBe(1);
    expect(result.stdout).not.toMatch(/done:|loading/);
    // Not a terminal: whole lines, nothing redrawn.
    expect(result.stderr).not.toMatch(/\r|\x1b/);
    const phases = result.stderr.split("\n").filter((line) => !/^(loading model|planning outline|writing): /.test(line));
    expect(phases).toEqual([
      expect.stringMatching(/^loading model tiny-plain\.gguf … [\d.]+ [kM]B$/),
      "planning outline",
      expect.stringMatching(/^writing ".+": \d+ headings?, about 200 words$/),
      expect.stringMatching(/^done: \d+ words in [\d.]+ s, SEO score \d+$/),
      "",
    ]);
  });

  it("on a terminal, redraws the words written with their rate and the time left", async () => {
    const result = await runInTerminal(base("--seed", "9", "-o", path.join(await mkdtemp(path.join(tmpdir(), "inkpress-cli-")), "a.md")));
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/\r\x1b\[Kwriting: \d+\/200 words, [\d.]+ words\/s, (about \S+ left|finishing)/);
    expect(result.output).toMatch(/\r\x1b\[Kdone: \d+ words in [\d.]+ s, SEO score \d+\r?\n/);
  });

  it("elsewhere, repeats the state every few seconds while it works", async () => {
    const result = await runCli(base("--length", "1500", "--seed", "3"));
    expect(result.code).toBe(0);
    const seconds = Number(/done: \d+ words in ([\d.]+) s/.exec(result.stderr)?.[1]);
    const states = result.stderr.split("\n").filter((line) => /^(loading model|planning outline|writing): /.test(line));
    for (const state of states)
      expect(state).toMatch(
        /^(loading model: \S+|planning outline: \S+|writing: \d+\/1500 words(, [\d.]+ words\/s, (about \S+ left|finishing))?)$/,
      );
    // The first repeat comes 5 s after the start: a run that took longer shows at least one.
    if (seconds >= 6) expect(states.length).toBeGreaterThan(0);
  });

  it("writes the same article as the API for the same seeded request", async () => {
    const cli = await runCli(base("--keywords", "beehive, honey", "--seed", "9", "--format", "json"));
    const fromCli = JSON.parse(cli.stdout);
    const fromApi = await (
      await server.generate({ topic: "Urban beekeeping", length: 200, seed: 9, seo: { keywords: "beehive, honey" } })
    ).json();
    // The same article; the JSON-LD dates are those of each run.
    expect(timeless(fromCli.article)).toEqual(timeless(fromApi.article));
    expect(fromCli.request).toEqual(fromApi.request);
    expectArticleBasics(fromCli, "beehive", true);
  });

  it("writes a full HTML document into a file with -o, and honours --no-heading-tags", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-cli-"));
    const file = path.join(dir, "article.html");
    const result = await runCli(base("--no-heading-tags", "--language", "fr", "--format", "html", "-o", file));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr.trimEnd().split("\n").slice(-2)).toEqual([expect.stringMatching(/^done: /), `wrote ${file}`]);
    const html = await readFile(file, "utf8");
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toMatch(/<html[^>]* lang="fr"/);
    expect(html).not.toMatch(/<h[1-6][\s>]/);
  });

  it("under `npm run -s cli`, reads and writes relative paths in the user's folder, not the checkout's", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-cli-"));
    await mkdir(path.join(dir, "notes"));
    await mkdir(path.join(dir, "m"));
    await copyFile(model, path.join(dir, "m", "tiny.gguf"));
    await writeFile(path.join(dir, "notes", "hives.md"), "# Hive notes\n\nA hive needs shade in the afternoon.\n");
    const generate = ["generate", "--model", "m/tiny.gguf", "--source", "notes/hives.md", "-o", "out.json", "--format", "json"];
    // npm runs the script in the checkout, and names the folder it was started in as INIT_CWD.
    const result = await npmRunCli([...generate, "--threads", "1", "--topic", "Urban beekeeping", "--length", "200", "--seed", "9"], dir);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^wrote out\.json$/m);
    const answer = JSON.parse(await readFile(path.join(dir, "out.json"), "utf8"));
    expect(answer.request.sources.map((source: { title: string }) => source.title)).toEqual(["Hive notes"]);
  });

  it("refuses a bad request with the same words as the API's 422, and exit code 1", async () => {
    const result = await runCli(["generate", "--model", model, "--topic", "x", "--length", "abc", "--language", "xx"]);
    expect(result.code).toBe(1);
    const api = await (await server.generate({ topic: "x", length: "abc", language: "xx" })).json();
    for (const error of api.errors) expect(result.stderr).toContain(`${error.path}: ${error.message}`);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("refuses an unknown format", async () => {
    const result = await runCli(base("--format", "pdf"));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/format must be one of md, html, json/);
  });
});
