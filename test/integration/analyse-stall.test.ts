import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { humanArticles } from "../../scripts/fixtures/articles.js";
import { API_KEY, startServer, testModel, type TestServer } from "../helpers/server.js";

// One request must not stall the server: a real `inkpress serve` is sent the worst inputs
// for analyse, refresh and sources. Nesting past the limit is a 422 naming the field (no
// stack trace logged); an article whose reading runs past the time limit is analysed on a
// worker thread, so /healthz answers meanwhile, the article's field gets a 422 at the limit,
// and SIGTERM during such an analysis ends the process within its grace. A long article (240 k
// characters) is measured by meaning, word vectors loaded on the worker, within the default limit.

const DEEP_QUOTES = "> ".repeat(8000);
const DEEP_HTML = "<blockquote>".repeat(8000);
/** An article within every budget that takes seconds to analyse (a list of 20,000 items: 4 s of CPU). */
const SLOW = `# Bees\n\n${Array.from({ length: 20_000 }, (_, i) => `- bee ${i}`).join("\n")}`;
/** Seconds an analysis may take on this server. */
const LIMIT_S = 2;

const post = (server: TestServer, route: string, body: unknown) =>
  fetch(`${server.url}/api/v1/${route}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": API_KEY },
    body: JSON.stringify(body),
  });

/** /healthz, polled until `until` settles: the slowest answer's milliseconds. */
async function slowestHealth(server: TestServer, until: Promise<unknown>): Promise<number> {
  let done = false;
  void until.finally(() => (done = true));
  let slowest = 0;
  while (!done) {
    const started = performance.now();
    const response = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    slowest = Math.max(slowest, performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return slowest;
}

describe("a request that cannot stall the server", () => {
  let server: TestServer;
  let model: string;

  beforeAll(async () => {
    model = await testModel("plain");
    server = await startServer(model, { INKPRESS_ANALYSE_TIMEOUT_S: String(LIMIT_S) });
    // The workers start with the first texts (seconds from the TypeScript sources on a loaded machine): start both before timing.
    await Promise.all(["Bees make honey.", "Wasps do not."].map((text) => post(server, "analyse", { markdown: `# Bees\n\n${text}` })));
  });
  afterAll(() => server?.stop());

  it("refuses 8,000 levels in analyse, refresh and sources with a 422 naming the field, and logs no stack", async () => {
    const cases: Array<[string, unknown, RegExp]> = [
      ["analyse", { markdown: DEEP_QUOTES }, /^markdown$/],
      ["analyse", { html: DEEP_HTML }, /^html$/],
      ["refresh", { markdown: DEEP_QUOTES }, /^markdown$/],
      ["generate", { topic: "Bees", length: 100, sources: [{ title: "Deep", text: DEEP_QUOTES }] }, /^sources\[0\]\.text$/],
    ];
    for (const [route, body, path] of cases) {
      const response = await post(server, route, body);
      expect(response.status, route).toBe(422);
      const problem = await response.json();
      expect(problem.errors).toEqual([
        { path: expect.stringMatching(path), message: expect.stringMatching(/nested deeper than 128 levels/) },
      ]);
    }
    expect(server.output()).not.toMatch(/\n\s+at /);
    expect(server.output()).not.toMatch(/Maximum call stack/);
  });

  it("keeps /healthz answering within 1 s while an article is read past the limit, then refuses the article", async () => {
    const analysed = post(server, "analyse", { markdown: SLOW });
    const slowest = await slowestHealth(server, analysed);
    const response = await analysed;
    expect(response.status).toBe(422);
    expect((await response.json()).errors).toEqual([{ path: "markdown", message: expect.stringMatching(`within ${LIMIT_S} s`) }]);
    expect(slowest).toBeLessThan(1000);
    // The worker that was stopped is replaced: the next analysis is answered.
    expect((await post(server, "analyse", { markdown: "# Bees\n\nBees make honey from nectar." })).status).toBe(200);
  });

  it("analyses a 240 k-character article by meaning within the default limit, /healthz answering within 1 s meanwhile", async () => {
    const roomy = await startServer(model);
    try {
      const { markdown, topic, keywords } = humanArticles().find((article) => article.name === "composting")!;
      const body = markdown.replace(/^# .*\n/u, "");
      const long = body.repeat(Math.ceil(240_000 / body.length)).slice(0, 240_000);
      const analysed = post(roomy, "analyse", { markdown: long, topic, seo: { keywords } });
      const slowest = await slowestHealth(roomy, analysed);
      const response = await analysed;
      expect(response.status).toBe(200);
      const onTopic = (await response.json()).seo.checks.find((check: { id: string }) => check.id === "on-topic");
      expect(onTopic.passed, onTopic.message).toBe(true);
      expect(onTopic.message).toMatch(/^Measured by meaning/u);
      expect(slowest).toBeLessThan(1000);
    } finally {
      await roomy.stop();
    }
  });

  it("ends within its grace on SIGTERM while an analysis runs", async () => {
    const grace = 5;
    const slowServer = await startServer(model, { INKPRESS_ANALYSE_TIMEOUT_S: "600", INKPRESS_SHUTDOWN_GRACE_S: String(grace) });
    const analysed = post(slowServer, "analyse", { markdown: SLOW }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const exited = new Promise<number | null>((resolve) => slowServer.process.once("exit", (code) => resolve(code)));
    const started = performance.now();
    slowServer.process.kill("SIGTERM");
    expect(await exited).toBe(0);
    // The grace, and a margin for a loaded machine: never the 600 s the analysis could take.
    expect(performance.now() - started).toBeLessThan((grace + 10) * 1000);
    await analysed;
  });
});
