import type { ChildProcess } from "node:child_process";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import { mkdtemp, readFile, readdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInTerminal, spawnInkpress } from "../helpers/cli.js";
import { freePort } from "../helpers/port.js";
import { API_KEY, HAS_STORIES_MODEL, ROOT, STORIES_MODEL, runCli, startServer, type TestServer } from "../helpers/server.js";

const TOPICS = path.join(ROOT, "test/fixtures/batch/topics.csv");

const batchArgs = (input: string, out: string, ...extra: string[]) => [
  "batch",
  input,
  "--out",
  out,
  "--model",
  STORIES_MODEL,
  "--threads",
  "1",
  ...extra,
];

/** A running `inkpress batch`: its stderr so far, the Markdown files it said it wrote, and its exit code once its output is all read. */
function startBatch(args: string[]): {
  child: ChildProcess;
  stderr: () => string;
  written: () => string[];
  closed: Promise<number | null>;
} {
  const child = spawnInkpress(args);
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  const closed = new Promise<number | null>((resolve) => child.once("close", resolve));
  return { child, stderr: () => stderr, written: () => [...stderr.matchAll(/^line \d+: wrote (\S+\.md)$/gm)].map((m) => m[1]!), closed };
}

/** Resolves once the batch has said it wrote `count` rows (or has exited). */
async function untilWritten(batch: ReturnType<typeof startBatch>, count: number): Promise<void> {
  while (batch.written().length < count && batch.child.exitCode === null) await new Promise((resolve) => setTimeout(resolve, 100));
}

async function files(dir: string, extension: string): Promise<string[]> {
  return (await readdir(dir)).filter((name) => name.endsWith(extension) && !name.startsWith(".")).sort();
}

/** The YAML front matter of a Markdown file, read as YAML 1.1 (as Jekyll and Hugo read it), and the body after it. */
function frontMatter(text: string): { data: Record<string, unknown>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(text);
  expect(match, text.slice(0, 200)).not.toBeNull();
  return { data: parse(match![1]!, { version: "1.1" }), body: match![2]! };
}

describe.skipIf(!HAS_STORIES_MODEL)("inkpress batch on stories260K", () => {
  it("writes a 50-row CSV; interrupted (Ctrl-C, then a kill) and run again, it finishes without redoing finished rows", async () => {
    const out = await mkdtemp(path.join(tmpdir(), "inkpress-batch-"));
    const started = performance.now();

    // Ctrl-C: the rows in flight are dropped, the finished ones kept, and it says how to go on.
    const first = startBatch(batchArgs(TOPICS, out));
    await untilWritten(first, 12);
    first.child.kill("SIGINT");
    expect(await first.closed).toBe(130);
    expect(first.stderr()).toMatch(/^50 rows: 50 to write, 0 already written$/m);
    expect(first.stderr()).toMatch(
      /^interrupted: \d+ written, 0 skipped \(already written\), 0 failed; run the same command again to write the rest$/m,
    );

    // A kill, two rows at a time: at most the rows in flight are lost.
    const second = startBatch(batchArgs(TOPICS, out, "--concurrency", "2"));
    await untilWritten(second, 13);
    second.child.kill("SIGKILL");
    await second.closed;
    const before = [...first.written(), ...second.written()];
    expect(before.length).toBeGreaterThanOrEqual(25);
    expect(second.stderr()).toMatch(
      new RegExp(`^50 rows: ${50 - first.written().length} to write, ${first.written().length} already written$`, "m"),
    );
    const mtimes = new Map<string, number>();
    for (const md of before)
      for (const file of [md, path.join(".inkpress", md.replace(/\.md$/, ".json"))])
        mtimes.set(file, (await stat(path.join(out, file))).mtimeMs);

    const third = await runCli(batchArgs(TOPICS, out));
    const seconds = (performance.now() - started) / 1000;
    console.log(`50 rows on stories260K, interrupted twice: ${seconds.toFixed(0)} s in all`);
    expect(third.code, third.stderr).toBe(0);
    // A row recorded just before the kill may not have been announced yet: at most the two in flight.
    const skipped = Number(/^50 rows: \d+ to write, (\d+) already written$/m.exec(third.stderr)?.[1]);
    expect(skipped).toBeGreaterThanOrEqual(before.length);
    expect(skipped).toBeLessThanOrEqual(before.length + 2);
    expect(third.stderr).toMatch(
      new RegExp(`^done: ${50 - skipped} written, ${skipped} skipped \\(already written\\), 0 failed in .+$`, "m"),
    );
    // Finished rows were not redone: their files are untouched.
    for (const [file, mtime] of mtimes) expect((await stat(path.join(out, file))).mtimeMs, file).toBe(mtime);

    const markdown = await files(out, ".md");
    expect(markdown).toHaveLength(50);
    // The answers are kept out of the published folder, in its .inkpress folder with the manifest.
    expect(await files(out, ".json")).toEqual([]);
    expect(await files(path.join(out, ".inkpress"), ".json")).toEqual(
      ["batch.json", ...markdown.map((md) => md.replace(/\.md$/, ".json"))].sort(),
    );
    const topics = (await readFile(TOPICS, "utf8"))
      .trim()
      .split("\n")
      .slice(1)
      .map((line) => line.split(",")[0]);
    const written: string[] = [];
    for (const md of markdown) {
      const text = await readFile(path.join(out, md), "utf8");
      const { data, body } = frontMatter(text);
      const answer = JSON.parse(await readFile(path.join(out, ".inkpress", md.replace(/\.md$/, ".json")), "utf8"));
      expect(data).toEqual({
        title: answer.article.title,
        description: answer.article.metaDescription,
        slug: md.replace(/\.md$/, ""),
        keywords: answer.article.keywords,
        language: answer.request.language,
        date: new Date(answer.created * 1000),
      });
      // The title is the front matter's alone (themes print it); the JSON answer's Markdown keeps its H1, as the API's does.
      expect(answer.article.markdown).toMatch(/^# \S/);
      expect(body).toBe(answer.article.markdown.replace(/^# [^\n]*\n\n/, ""));
      // The date with its time zone, so a site generator does not read it in its own.
      expect(text).toMatch(/^date: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/m);
      expect(answer.object).toBe("article");
      written.push(answer.request.topic);
      // YAML 1.1 reads a bare `no` as false: the Norwegian row's language is quoted.
      if (answer.request.language === "no") expect(text).toMatch(/^language: "no"$/m);
    }
    // One article per row: none lost, none written twice.
    expect(written.sort()).toEqual([...topics].sort());
  }, 900_000);

  it("reports a bad row with its line number, and the other rows are written", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-batch-"));
    const input = path.join(dir, "topics.csv");
    await writeFile(
      input,
      'topic,length,keywords,headingTags\nHome composting,100,"compost, garden",\nRain barrels,abc,,\n,100,,\n"Balcony\ntomatoes",100,,false\nBalcony tomatoes,100,,FALSE\n',
    );
    const result = await runCli(batchArgs(input, path.join(dir, "out")));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^5 rows: 2 to write, 0 already written, 1 repeating another line, 2 that cannot be written$/m);
    expect(result.stderr).toMatch(/^line 3: length: length must be a number$/m);
    // A missing topic is named (in the words of the API's 422).
    expect(result.stderr).toMatch(/^line 4: topic: .+$/m);
    // A quoted cell across two lines: the row starts on line 5, and the same request (after normalisation) follows on line 7.
    expect(result.stderr).toMatch(/^line 7: skipped: same request as line 5$/m);
    expect(result.stderr).toMatch(
      /^done: 2 written, 0 skipped \(already written\), 1 skipped \(same request as another line\), 2 failed \(lines 3, 4\) in .+$/m,
    );
    const markdown = await files(path.join(dir, "out"), ".md");
    expect(markdown).toHaveLength(2);
    const balcony = await readFile(path.join(dir, "out", markdown.find((md) => md.includes("balcony"))!), "utf8");
    // headingTags false: no heading in the body, the title only in the front matter.
    expect(frontMatter(balcony).body).not.toMatch(/^#/m);
  });

  it("skips a row that repeats another's request, and exits 0 when every distinct row was written", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-batch-"));
    const input = path.join(dir, "topics.csv");
    await writeFile(input, "topic,length\nPickling cucumbers,100\nPickling cucumbers,100\n");
    const result = await runCli(batchArgs(input, path.join(dir, "out")));
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/^line 3: skipped: same request as line 2$/m);
    expect(result.stderr).not.toMatch(/failed \(/);
    expect(await files(path.join(dir, "out"), ".md")).toHaveLength(1);
  });

  it("on a terminal, redraws a bar with the rows done, their rate and the time left", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-batch-"));
    const input = path.join(dir, "topics.csv");
    await writeFile(input, "topic,length\nWild swimming,100\nDrying herbs,100\nMending clothes,100\n");
    const result = await runInTerminal(batchArgs(input, path.join(dir, "out")));
    expect(result.code).toBe(0);
    expect(result.output).toMatch(/\r\x1b\[K\[#+-+\] [12]\/3 rows, [\d.]+ rows\/min, about \S+ left/);
    // The full bar stays, the summary below it.
    expect(result.output).toMatch(
      /\r\x1b\[K\[#{24}\] 3\/3 rows, [\d.]+ rows\/min\r?\ndone: 3 written, 0 skipped \(already written\), 0 failed in .+\r?\n/,
    );
  });

  it("on a terminal, counts the rows written of those to write: refused rows are never counted as written", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-batch-"));
    const input = path.join(dir, "topics.csv");
    await writeFile(input, "topic,length\nWild swimming,100\nRain barrels,abc\nDrying herbs,100\n,100\n");
    const result = await runInTerminal(batchArgs(input, path.join(dir, "out")));
    expect(result.code).toBe(1);
    const states = [...result.output.matchAll(/\[[#-]+\] (\d+\/\d+) rows/g)].map((m) => m[1]);
    for (const state of states) expect(["0/2", "1/2", "2/2"]).toContain(state);
    expect(states).toContain("2/2");
    expect(result.output).toMatch(/done: 2 written, 0 skipped \(already written\), 2 failed \(lines 3, 5\)/);
  });

  it("reads JSON Lines, flat or with the API's seo object, and names a line that is not JSON", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-batch-"));
    const input = path.join(dir, "topics.jsonl");
    const lines = [
      JSON.stringify({ topic: "Home composting", length: 100, keywords: "compost, garden", seed: 4 }),
      "",
      JSON.stringify({ topic: "Home composting", length: 100, seed: 5, seo: { keywords: "compost", title: "Composting at home" } }),
      "{not json",
    ];
    await writeFile(input, `${lines.join("\n")}\n`);
    const result = await runCli(batchArgs(input, path.join(dir, "out")));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^line 4: not valid JSON: .+$/m);
    const markdown = await files(path.join(dir, "out"), ".md");
    expect(markdown).toHaveLength(2);
    const titled = await Promise.all(markdown.map(async (md) => frontMatter(await readFile(path.join(dir, "out", md), "utf8")).data));
    expect(titled.map((data) => data.title)).toContain("Composting at home");
  });

  it("gives two rows with the same slug two file names", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-batch-"));
    const input = path.join(dir, "topics.csv");
    await writeFile(input, "topic,length,title,seed\nHome composting,100,Composting at home,1\nHome composting,100,Composting at home,2\n");
    const result = await runCli(batchArgs(input, path.join(dir, "out")));
    expect(result.code, result.stderr).toBe(0);
    const markdown = await files(path.join(dir, "out"), ".md");
    expect(markdown).toHaveLength(2);
    const slugs = await Promise.all(markdown.map(async (md) => frontMatter(await readFile(path.join(dir, "out", md), "utf8")).data.slug));
    expect(new Set(slugs).size).toBe(2);
    expect(slugs.map((slug) => `${slug}.md`).sort()).toEqual(markdown);
  });
});

describe.skipIf(!HAS_STORIES_MODEL)("inkpress batch --server (the jobs API)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(STORIES_MODEL);
  });
  afterAll(() => server?.stop());

  const serverArgs = (input: string, out: string, ...extra: string[]) => ["batch", input, "--out", out, "--server", server.url, ...extra];

  it("writes every row through jobs, and a run that lost its manifest gets the same jobs back instead of new ones", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-batch-"));
    const input = path.join(dir, "topics.csv");
    await writeFile(
      input,
      'topic,length,keywords,seed\nHome composting,100,"compost, garden",1\nRain barrels,100,,\nBalcony tomatoes,abc,,\n',
    );
    const out = path.join(dir, "out");
    const first = await runCli(serverArgs(input, out), { INKPRESS_API_KEY: API_KEY });
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/^line 4: length: length must be a number$/m);
    expect(first.stderr).toMatch(/^done: 2 written, 0 skipped \(already written\), 1 failed \(line 4\) in .+$/m);
    const markdown = await files(out, ".md");
    expect(markdown).toHaveLength(2);
    const answers = await Promise.all(
      markdown.map(async (md) => JSON.parse(await readFile(path.join(out, ".inkpress", md.replace(/\.md$/, ".json")), "utf8"))),
    );
    for (const [i, md] of markdown.entries()) {
      const { data, body } = frontMatter(await readFile(path.join(out, md), "utf8"));
      expect(data.slug).toBe(md.replace(/\.md$/, ""));
      expect(body).toBe(answers[i].article.markdown.replace(/^# [^\n]*\n\n/, ""));
      expect(answers[i].object).toBe("article");
    }

    // Run again: done rows are skipped without asking the server.
    const again = await runCli(serverArgs(input, out, "--key", API_KEY));
    expect(again.stderr).toMatch(/^3 rows: 0 to write, 2 already written, 1 that cannot be written$/m);

    // As after a crash between submitting and recording: the Idempotency-Key gives the same jobs, finished.
    const lost = path.join(dir, "lost");
    const replay = await runCli(serverArgs(input, lost, "--key", API_KEY));
    expect(replay.stderr).toMatch(/^done: 2 written, 0 skipped/m);
    const replayed = await Promise.all(
      (await files(path.join(lost, ".inkpress"), ".json"))
        .filter((file) => file !== "batch.json")
        .map(async (file) => JSON.parse(await readFile(path.join(lost, ".inkpress", file), "utf8")).id),
    );
    expect(replayed.sort()).toEqual(answers.map((answer) => answer.id).sort());
    const listed = await (await fetch(`${server.url}/api/v1/jobs?limit=20`, { headers: { "x-api-key": API_KEY } })).json();
    expect(listed.data).toHaveLength(2);
  });

  it("stops at once when the server refuses the key", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-batch-"));
    const result = await runCli(serverArgs(TOPICS, path.join(dir, "out"), "--key", "not-a-key"));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^inkpress: the server refused the key: 401 .+$/m);
    expect(result.stderr).not.toMatch(/wrote/);
  });
});

describe("inkpress batch: arguments, and servers that refuse or are not inkpress", () => {
  it("--help lists the flags", async () => {
    const result = await runCli(["batch", "--help"]);
    expect(result.code).toBe(0);
    for (const flag of ["--out", "--concurrency", "--server", "--key", "--request-timeout", "--model", "--threads"])
      expect(result.stdout).toContain(flag);
  });

  it("refuses an unknown column before anything runs, naming the fields", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-batch-"));
    const input = path.join(dir, "topics.csv");
    await writeFile(input, "topic,lenght,colour\nHome composting,100,red\n");
    const result = await runCli(["batch", input, "--out", path.join(dir, "out"), "--model", "/nonexistent.gguf"]);
    expect(result.code).toBe(1);
    // A typo is named with the field meant, as a mistyped flag is; another name lists the fields.
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringMatching(
        /^inkpress: line 1: lenght: unknown field \(did you mean length\?\); colour: unknown field \(the fields are topic, length, .+\)$/,
      ),
    ]);
    await expect(readdir(path.join(dir, "out"))).rejects.toThrow();
  });

  it("a missing input file is one line, said before anything about the model", async () => {
    // No model configured, none in models/, and no hub to pull one from.
    const cwd = await mkdtemp(path.join(tmpdir(), "inkpress-batch-"));
    const result = await runCli(
      ["batch", "nope.csv", "--out", "out"],
      { HF_ENDPOINT: `http://127.0.0.1:${await freePort()}/`, MODEL_ENDPOINT: undefined },
      cwd,
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("inkpress: cannot read nope.csv: no such file\n");
  });

  it("waits as long as a 429's Retry-After says, and submits again with the same Idempotency-Key", async () => {
    const posts: Array<{ at: number; key: string | undefined; apiKey: string | undefined }> = [];
    const article = {
      created: 1_750_000_000,
      article: {
        title: "Fake",
        slug: "fake-article",
        metaDescription: "A fake.",
        keywords: ["fake"],
        language: "en",
        markdown: "# Fake\n",
      },
    };
    // A stand-in for the jobs API, to answer a rate limit on demand.
    const jobs = http.createServer((req, res) => {
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
      if (req.method === "POST") {
        posts.push({ at: performance.now(), key: req.headers["idempotency-key"] as string, apiKey: req.headers["x-api-key"] as string });
        if (posts.length === 1)
          return json(429, { type: "about:blank", title: "Too Many Requests", status: 429, detail: "slow down" }, { "retry-after": "2" });
        return json(202, { id: "job_1", status: "queued" }, { location: "/api/v1/jobs/job_1" });
      }
      json(200, { id: "job_1", status: "succeeded", result: article });
    });
    await new Promise<void>((resolve) => jobs.listen(0, "127.0.0.1", resolve));
    try {
      const dir = await mkdtemp(path.join(tmpdir(), "inkpress-batch-"));
      const input = path.join(dir, "topics.jsonl");
      await writeFile(input, `${JSON.stringify({ topic: "Wild swimming", length: 100 })}\n`);
      const url = `http://127.0.0.1:${(jobs.address() as AddressInfo).port}`;
      const result = await runCli(["batch", input, "--out", path.join(dir, "out"), "--server", url, "--key", "k-1"]);
      expect(result.code, result.stderr).toBe(0);
      expect(posts).toHaveLength(2);
      expect(posts[1]!.at - posts[0]!.at).toBeGreaterThan(1900);
      expect(posts[0]!.key).toMatch(/^inkpress-batch-[0-9a-f]{32}$/);
      expect(posts[1]!.key).toBe(posts[0]!.key);
      expect(posts.map((post) => post.apiKey)).toEqual(["k-1", "k-1"]);
      expect(JSON.parse(await readFile(path.join(dir, "out", ".inkpress", "fake-article.json"), "utf8"))).toEqual(article);
    } finally {
      jobs.close();
    }
  });

  it("stops at once when --server is not an inkpress server", async () => {
    const other = http.createServer((_req, res) => res.writeHead(404, { "content-type": "text/html" }).end("<h1>Not here</h1>"));
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const result = await runCli([
        "batch",
        TOPICS,
        "--out",
        path.join(await mkdtemp(path.join(tmpdir(), "inkpress-batch-")), "out"),
        "--server",
        url,
        "--key",
        "k",
        "--concurrency",
        "4",
      ]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^inkpress: .+: no jobs API there \(404 Not Found\); is it an inkpress server\?$/m);
      expect(result.stderr).not.toMatch(/^line \d+:/m);
    } finally {
      other.close();
    }
  });

  it("against a refused port or an invalid one, stops within 20 s with one line", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-batch-"));
    const port = await freePort();
    const started = performance.now();
    const refused = await runCli([
      "batch",
      TOPICS,
      "--out",
      path.join(dir, "out"),
      "--server",
      `http://127.0.0.1:${port}`,
      "--key",
      "k",
      "--concurrency",
      "4",
    ]);
    expect(performance.now() - started).toBeLessThan(20_000);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^inkpress: cannot reach the server at http://127\\.0\\.0\\.1:${port}: connection refused \\(is the server running, and is this its port\\?\\)$`,
        "m",
      ),
    );
    expect(refused.stderr).not.toMatch(/^line \d+:/m);

    const blocked = await runCli([
      "batch",
      TOPICS,
      "--out",
      path.join(dir, "out"),
      "--server",
      "http://127.0.0.1:9",
      "--key",
      "k",
      "--concurrency",
      "4",
    ]);
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toMatch(/^inkpress: cannot reach the server at http:\/\/127\.0\.0\.1:9: fetch refuses that port .+$/m);
    expect(blocked.stderr).not.toMatch(/^line \d+:/m);

    const invalid = await runCli(["batch", TOPICS, "--out", path.join(dir, "out"), "--server", "http://127.0.0.1:99999", "--key", "k"]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr.trim().split("\n")).toEqual([
      "inkpress: server http://127.0.0.1:99999: port 99999 is out of range (at most 65535)",
    ]);
  });

  it("against a server that accepts connections and never answers, says it is slow, then stops within 3 × --request-timeout + 10 s with one line naming it and the time waited", async () => {
    const sockets: net.Socket[] = [];
    let firstAsked = 0;
    const silent = net.createServer((socket) => {
      firstAsked ||= performance.now();
      sockets.push(socket.on("error", () => {}));
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const dir = await mkdtemp(path.join(tmpdir(), "inkpress-batch-"));
      const result = await runCli([
        "batch",
        TOPICS,
        "--out",
        path.join(dir, "out"),
        "--server",
        url,
        "--key",
        "k",
        "--concurrency",
        "2",
        "--request-timeout",
        "2",
      ]);
      // From the first request it made to its exit (the CLI's own start-up is not the server's fault).
      const tookS = (performance.now() - firstAsked) / 1000;
      expect(tookS, result.stderr).toBeLessThan(3 * 2 + 10);
      expect(result.code, result.stderr).toBe(1);
      const errors = result.stderr.split("\n").filter((line) => line.startsWith("inkpress:"));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(
        new RegExp(
          `^inkpress: the server at ${url.replaceAll(".", "\\.")} took the request and sent no answer: 3 tries of 2 s, (\\d+) s waited \\(--request-timeout\\); it is stuck or overloaded$`,
        ),
      );
      const waited = Number(/(\d+) s waited/.exec(errors[0]!)![1]);
      expect(waited).toBeGreaterThanOrEqual(6);
      expect(waited).toBeLessThanOrEqual(3 * 2 + 10);
      expect(result.stderr).toMatch(
        new RegExp(`^the server at ${url.replaceAll(".", "\\.")} is slow: no answer within 2 s; trying again \\(2 of 3\\)$`, "m"),
      );
      expect(result.stderr, "the rows are not failed one by one").not.toMatch(/^line \d+:/m);
      expect(sockets.length, "each silent try was a request of its own").toBeGreaterThanOrEqual(3);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it("refuses a --request-timeout that is not a number of seconds", async () => {
    const result = await runCli([
      "batch",
      TOPICS,
      "--out",
      "x",
      "--server",
      "http://127.0.0.1:9",
      "--key",
      "k",
      "--request-timeout",
      "soon",
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual(['inkpress: request-timeout must be a number of seconds above 0, got "soon"']);
  });

  it("refuses --server without a key, and --model with --server", async () => {
    const noKey = await runCli(["batch", TOPICS, "--out", "x", "--server", "http://127.0.0.1:9"], { INKPRESS_API_KEY: undefined });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/--server needs an API key/);
    const both = await runCli(["batch", TOPICS, "--out", "x", "--server", "http://127.0.0.1:9", "--key", "k", "--model", STORIES_MODEL]);
    expect(both.code).toBe(1);
    expect(both.stderr).toMatch(/--model and --server exclude each other/);
  });
});
