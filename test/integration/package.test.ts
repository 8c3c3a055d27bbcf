import { execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY, CLEAN_ENV, ROOT, startServer, testModel, type TestServer } from "../helpers/server.js";

const run = promisify(execFile);

/** `npx inkpress …` in the install folder as a person runs it: piped, colour not switched off by us, no keys of the developer's. */
async function npx(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = { ...process.env, ...CLEAN_ENV, NO_COLOR: undefined, CI: undefined, TEST: undefined, ...env };
  const options = {
    cwd,
    env: Object.fromEntries(Object.entries<string | undefined>(clean).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  };
  const result = await run("npx", ["--no", "--", "inkpress", ...args], options).then(
    (done) => ({ code: 0, ...done }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  // npm's own warnings about the machine's npm configuration are not the CLI's output.
  return { ...result, stderr: result.stderr.replace(/^npm warn .*\n/gm, "") };
}

// What `npx inkpress` and `import "inkpress/client"` get: the packed tarball, installed into an empty folder.
let installDir: string;
let bin: string;

beforeAll(async () => {
  const packDir = await mkdtemp(path.join(tmpdir(), "inkpress-pack-"));
  await run("npm", ["pack", "--pack-destination", packDir], { cwd: ROOT });
  const tarball = path.join(packDir, (await readdir(packDir)).find((f) => f.endsWith(".tgz"))!);
  installDir = await mkdtemp(path.join(tmpdir(), "inkpress-install-"));
  await run("npm", ["init", "-y"], { cwd: installDir });
  await run("npm", ["install", "--no-audit", "--no-fund", tarball], { cwd: installDir });
  bin = path.join(installDir, "node_modules/.bin/inkpress");
}, 600_000);

describe("the npm package", () => {
  it("holds built JavaScript, not the TypeScript sources", async () => {
    const files = await readdir(path.join(installDir, "node_modules/inkpress/dist/cli"));
    expect(files).toContain("main.js");
    expect(files.some((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toBe(false);
  });

  it("carries the MIT licence", async () => {
    const licence = await readFile(path.join(installDir, "node_modules/inkpress/LICENSE"), "utf8");
    expect(licence).toMatch(/^MIT License\n/);
    const manifest = JSON.parse(await readFile(path.join(installDir, "node_modules/inkpress/package.json"), "utf8"));
    expect(manifest.license).toBe("MIT");
  });

  it("runs `npx inkpress --help`: the commands, one line each, in plain text when piped", async () => {
    const { stdout } = await npx(installDir, ["--help"]);
    expect(stdout).not.toContain("\x1b[");
    expect(stdout).toMatch(
      /USAGE npx inkpress\s+serve\|generate\|outline\|plan\|batch\|analyse\|voice\|audit\|links\|\s*refresh\|publish\|keys\|models/,
    );
    for (const command of ["serve", "generate", "batch", "keys", "models"])
      expect(stdout).toMatch(new RegExp(`^ +${command} {2,}\\S`, "m"));
    expect(stdout).not.toMatch(/--port/);
  });

  it("runs `npx inkpress generate`: progress on stderr, the article on stdout; a typo is named, with the flag meant", async () => {
    const model = await testModel("plain");
    const generate = ["generate", "--model", model, "--threads", "1", "--topic", "Urban beekeeping", "--length", "150"];
    const { stdout, stderr } = await npx(installDir, generate);
    expect(stdout).toMatch(/^# .+\n\n/);
    // A slow step repeats its state line with the time so far ("planning outline: 5s").
    expect(stderr).toMatch(
      /^loading model tiny-plain\.gguf … [\d.]+ [kM]B\nplanning outline\n(?:planning outline: \d+s\n)*writing ".+": \d+ headings?, about 150 words\n/,
    );
    expect(stderr).toMatch(/\ndone: \d+ words in [\d.]+ s, SEO score \d+\n$/);
    const typo = await npx(installDir, [...generate, "--lenght", "300"]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toBe("inkpress: unknown flag --lenght for generate; did you mean --length?\n");
  });

  it("names itself `npx inkpress` in hints when run through npx", async () => {
    const { stdout } = await npx(installDir, ["keys", "list"], { INKPRESS_KEYS_FILE: path.join(installDir, "none.json") });
    expect(stdout).toBe("no keys yet; create one with npx inkpress keys create --name NAME\n");
  });

  it("starts `inkpress serve`, answers /healthz, and stops cleanly on SIGTERM", async () => {
    const model = await testModel("plain");
    const child = spawn(bin, ["serve", "--model", model, "--port", "0", "--threads", "1"], {
      cwd: installDir,
      env: { ...process.env, INKPRESS_API_KEYS: "package-test-key", INKPRESS_KEYS_FILE: path.join(installDir, "keys.json") },
    });
    let output = "";
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output += d;
        const match = output.match(/listening on (http:\/\/\S+)/);
        if (match && /model .* loaded/.test(output)) resolve(match[1]!);
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      exited.then((code) => reject(new Error(`exited ${code}: ${output}`)));
    });
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", model: "inkpress-test-tiny" });
    // The playground's script is the bundle the build made (esbuild is not installed here), the API client inside.
    expect((await fetch(`${url}/`)).status).toBe(200);
    const script = await fetch(`${url}/assets/playground.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toContain("x-api-key");
    expect(await readdir(path.join(installDir, "node_modules/inkpress/dist/http/pages/client"))).toEqual(["playground.js"]);
    expect(existsSync(path.join(installDir, "node_modules/esbuild"))).toBe(false);
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});

/** What test/fixtures/package-client/drive.mjs prints. */
interface Drive {
  generate: { object: string; markdown: string; score: number };
  analyse: { words: number; written: number; checks: number };
  stream: { events: string[]; markdown: string };
  streamDone: string;
  aborted: string;
  jobs: { submitted: string; final: string; result?: string; progress: string[]; gapsMs: number[]; again: string; replayed: boolean };
  cancel: string;
  [error: string]: unknown;
}

// `import { createClient } from "inkpress/client"` in a project that installed the tarball,
// run by plain Node against a real server, then type-checked by tsc from the package's types.
describe("inkpress/client from the package", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(await testModel("plain"));
  });
  afterAll(() => server?.stop());

  it("drives generate, analyse, stream and jobs against a real server, errors as InkpressApiError with the problem", async () => {
    await copyFile(path.join(ROOT, "test/fixtures/package-client/drive.mjs"), path.join(installDir, "drive.mjs"));
    const { stdout } = await run(process.execPath, ["drive.mjs", server.url, API_KEY], { cwd: installDir });
    const out: Drive = JSON.parse(stdout);
    expect(out.generate).toMatchObject({ object: "article", markdown: expect.stringMatching(/^# .+\n\n/) });
    expect(out.analyse.words, "the article analysed as it is has the words the answer counted").toBe(out.analyse.written);
    expect(out.analyse.checks).toBeGreaterThan(20);
    expect(out.stream.events).toEqual(["meta", "outline", "delta", "done"]);
    expect(out.stream.markdown).toBe(out.streamDone);
    expect(out.aborted).toBe("AbortError");

    expect(out.jobs).toMatchObject({
      submitted: "queued",
      final: "succeeded",
      again: "succeeded",
      replayed: true,
      result: expect.stringMatching(/^# /),
    });
    // Read again only after the server's Retry-After (2 s), although the client was told 50 ms.
    expect(out.jobs.gapsMs.length).toBeGreaterThan(0);
    for (const gap of out.jobs.gapsMs) expect(gap).toBeGreaterThanOrEqual(1900);
    expect(out.jobs.progress.length).toBe(out.jobs.gapsMs.length);
    expect(out.cancel).toBe("cancelled");

    const unauthorized = { isApiError: true, status: 401, problem: expect.objectContaining({ status: 401, type: "/docs#unauthorized" }) };
    expect(out.wrongKey).toMatchObject(unauthorized);
    expect(out.streamWrongKey).toMatchObject(unauthorized);
    expect(out.invalid).toMatchObject({
      isApiError: true,
      status: 422,
      problem: { errors: [{ path: "length", message: "length must be at least 100 words" }] },
    });
    expect(out.missingJob).toMatchObject({ isApiError: true, status: 404 });
  });

  it("types requests and answers from the server's schemas", async () => {
    await writeFile(
      path.join(installDir, "typed.ts"),
      `import { createClient, InkpressApiError, type ArticleRequest, type ArticleResponse, type Job, type StreamEvent } from "inkpress/client";
const inkpress = createClient({ baseUrl: "http://127.0.0.1:3000", apiKey: "key" });
const request: ArticleRequest = { topic: "Home composting", length: 800, seo: { keywords: "compost bin", headingTags: true }, links: [{ url: "/bins", title: "Bins" }] };
export async function use(signal: AbortSignal): Promise<string> {
  const answer: ArticleResponse = await inkpress.generate({ topic: "Home composting" }, { signal });
  for await (const event of inkpress.stream(request)) {
    if (event.event === "delta") event.data.text.toUpperCase();
    if (event.event === "done") event.data.seo.score.toFixed();
  }
  const queued: Job = await inkpress.jobs.submit({ ...request, webhook: { url: "https://cms.example.com/hook" } }, { idempotencyKey: "a" });
  const job = await inkpress.jobs.wait(queued.id, { signal, onProgress: (j) => j.progress.words.toFixed() });
  if (job.status === "succeeded") return job.result!.article.markdown;
  await inkpress.jobs.cancel(job.id).catch((error: unknown) => (error instanceof InkpressApiError ? error.problem.detail : ""));
  return answer.article.title;
}
const event: StreamEvent = { event: "delta", data: { text: "x" } };
// @ts-expect-error topic is required
inkpress.generate({ length: 800 });
// @ts-expect-error length is a number of words
inkpress.generate({ topic: "x", length: "800" });
// @ts-expect-error there is no "error" event: it is thrown
const wrong: StreamEvent = { event: "error", data: { text: "x" } };
`,
    );
    const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
    const args = [
      "--noEmit",
      "--strict",
      "--target",
      "es2022",
      "--lib",
      "es2022,dom,dom.iterable",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "typed.ts",
    ];
    const result = await run(process.execPath, [tsc, ...args], { cwd: installDir }).then(
      () => "",
      (error: { stdout: string }) => error.stdout,
    );
    expect(result).toBe("");
  });
});
