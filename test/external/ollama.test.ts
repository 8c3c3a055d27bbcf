import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectBackend } from "../../src/model/remote/connect.js";
import { bannedIn, readerText } from "../helpers/bans.js";
import { expectProblem, waitFor } from "../helpers/http.js";
import { BUILD_TIMEOUT_MS, startLlamaServer, type RunningLlamaServer } from "../helpers/llama-server.js";
import { matrixRequest, matrixRules } from "../helpers/matrix.js";
import { startOllamaStandIn, type OllamaStandIn } from "../../scripts/ollama-stand-in.js";
import { checkArticleRules } from "../helpers/rules.js";
import { API_KEY, HAS_STORIES_MODEL, STORIES_MODEL, startServer, type TestServer } from "../helpers/server.js";
import { collectSse, fetchSse } from "../helpers/sse.js";

// `inkpress serve --backend` on Ollama's own API. No Ollama can be installed here, so an Ollama
// STAND-IN (scripts/ollama-stand-in.ts) serves its documented API over real HTTP, backed by a
// real llama-server on stories260K: real processes, real text, Ollama's field names, NDJSON
// streams, done_reason, error bodies and format schemas. One llama-server and one stand-in for the file.

if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the Ollama suite needs ${STORIES_MODEL}, which is not there.`);

/** Ten phrases stories260K writes often: three articles must hold none of them. */
const BANNED = ["little girl", "once upon", "very happy", "big tree", "the park", "her mom", "a time", "lily", "said", "wanted to"];

describe.skipIf(!HAS_STORIES_MODEL)("inkpress → Ollama (a stand-in on llama-server, stories260K)", () => {
  let llama: RunningLlamaServer;
  let ollama: OllamaStandIn;
  let inkpress: TestServer;

  beforeAll(async () => {
    llama = await startLlamaServer({ model: STORIES_MODEL });
    ollama = await startOllamaStandIn({ llama });
    // Retries give the restart test's stand-in time to come back; the stall limit a silent one.
    inkpress = await startServer(undefined, {}, { args: ["--backend", ollama.url] });
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await inkpress?.stop();
    await ollama?.stop();
    await llama?.stop();
  });

  async function write(body: object): Promise<any> {
    ollama.calls.length = 0;
    const response = await inkpress.generate(body, { "x-api-key": API_KEY });
    const text = await response.text();
    expect(response.status, text.slice(0, 400)).toBe(200);
    return JSON.parse(text);
  }

  it("says it writes with Ollama and the model; /healthz reports it", async () => {
    expect(inkpress.output()).toContain(`writing with the inference server at ${ollama.url}`);
    expect(inkpress.output()).toContain(`model stories260k:latest loaded on Ollama at ${ollama.url} (1 sequence)`);
    const health = await (await fetch(`${inkpress.url}/healthz`)).json();
    expect(health).toMatchObject({
      status: "ok",
      model: "stories260k:latest",
      prompting: "completion",
      backend: { kind: "ollama", url: ollama.url, state: "ok", prompts: "text" },
    });
  });

  it("the model: the only one installed, else the one --backend-model names, else one line listing them; LM Studio is refused saying why", async () => {
    const several = await startOllamaStandIn({ llama, others: ["llama3.2:latest"] });
    try {
      await expect(connectBackend(several.url)).rejects.toThrow(
        `Ollama at ${several.url} has several models (stories260k:latest, llama3.2:latest): name one with --backend-model`,
      );
      await expect(connectBackend(several.url, { model: "qwen3" })).rejects.toThrow(
        /has no model qwen3 \(installed: stories260k:latest, llama3.2:latest\)/,
      );
      const named = await connectBackend(several.url, { model: "stories260k" });
      expect(named.name).toBe("stories260k:latest");
      await named.dispose();
    } finally {
      await several.stop();
    }
    // LM Studio's own REST API beside its OpenAI-compatible one.
    const lmStudio = createServer((request, response) => {
      const models = { data: [{ id: "qwen2.5-7b-instruct", max_context_length: 32768 }] };
      response.writeHead(request.url === "/api/v0/models" || request.url === "/v1/models" ? 200 : 404).end(JSON.stringify(models));
    });
    await new Promise<void>((resolve) => lmStudio.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(lmStudio.address() as AddressInfo).port}`;
      await expect(connectBackend(url, { retries: 0 })).rejects.toThrow(
        /is LM Studio, which inkpress cannot write with: its JSON-schema constraint is on \/v1\/chat\/completions only/,
      );
    } finally {
      lmStudio.close();
    }
  });

  it("three articles of 300 to 800 words: each keeps the article rules and its report agrees with its Markdown; every outline call carries a format schema", async () => {
    const cases = [
      { structure: "sections", headingTags: true, length: 300, seed: 5101 },
      { structure: "detailed", headingTags: true, length: 500, seed: 5102 },
      { structure: "sections", headingTags: true, length: 800, seed: 5103 },
    ] as const;
    for (const c of cases) {
      const answer = await write(matrixRequest(c));
      const broken = checkArticleRules(answer, matrixRules({ ...c, name: "" }));
      expect(broken, `${c.structure} ${c.length} breaks:\n  ${broken.join("\n  ")}`).toEqual([]);
      expect(answer.usage.promptTokens).toBeGreaterThan(0);
      // The outline is written first, field by field: every call before the first free one is constrained.
      const firstFree = ollama.calls.findIndex((call) => call.body.format === undefined);
      const outline = ollama.calls.slice(0, firstFree < 0 ? undefined : firstFree);
      expect(outline.length).toBeGreaterThan(2);
      for (const call of outline) expect(call.body.format).toMatchObject({ type: "string", pattern: expect.stringMatching(/^\^.*\$$/su) });
      for (const call of ollama.calls) {
        expect(call.path).toBe("/api/generate");
        expect(call.body).toMatchObject({ raw: true });
        expect(call.body.options).toMatchObject({
          seed: expect.any(Number),
          num_predict: expect.any(Number),
          num_ctx: Math.min(4096, ollama.context),
        });
      }
    }
    // llama.cpp turned every pattern into a grammar whole, none into "any string".
    expect(llama.output()).not.toContain("JSON schema conversion was incomplete");
  });

  it("the same seed gives byte-identical Markdown; SSE deltas concatenate to the final Markdown", async () => {
    const body = matrixRequest({ structure: "sections", headingTags: true, length: 300, seed: 77 });
    const first = await write(body);
    const { response, events } = await fetchSse(`${inkpress.url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY, accept: "text/event-stream" },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    const all = await collectSse(events);
    const done = JSON.parse(all.at(-1)!.data);
    expect(all.at(-1)!.event).toBe("done");
    const deltas = all.filter((e) => e.event === "delta").map((e) => JSON.parse(e.data).text as string);
    expect(deltas.join("")).toBe(done.article.markdown);
    expect(done.article.markdown).toBe(first.article.markdown);
  });

  it("three articles with ten banned phrases hold none of them", async () => {
    for (const seed of [61, 62, 63]) {
      const answer = await write({ topic: "Playing with friends", length: 300, seed, style: { avoid: BANNED } });
      expect(bannedIn(readerText(answer), BANNED)).toEqual([]);
    }
  });

  it("a stream aborted after its first delta closes its upstream request within 2 s", async () => {
    const controller = new AbortController();
    const { response, events } = await fetchSse(`${inkpress.url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY, accept: "text/event-stream" },
      body: JSON.stringify({ topic: "Rainy days", length: 3000, seed: 9 }),
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    for (;;) if ((await events.next()).value?.event === "delta") break;
    await waitFor(async () => (ollama.open() > 0 ? true : undefined), "a generate request open upstream", 5_000, 10);
    controller.abort();
    const left = performance.now();
    await waitFor(async () => (ollama.open() === 0 ? true : undefined), "no generate request open upstream", 2_000, 10);
    expect(performance.now() - left).toBeLessThan(2_000);
  });

  it("the stand-in stopped mid-article: a problem naming it; the next request after its restart succeeds", async () => {
    const { port } = ollama;
    const pending = inkpress.generate({ topic: "Rainy days", length: 3000, seed: 10 }, { "x-api-key": API_KEY });
    await waitFor(async () => (ollama.open() > 0 ? true : undefined), "a generate request open upstream", 10_000, 10);
    await ollama.stop();
    const problem = await expectProblem(await pending, 502);
    expect(problem.detail).toMatch(new RegExp(`^Ollama at http://127\\.0\\.0\\.1:${port}(/api/generate)? (failed|ended)`));
    ollama = await startOllamaStandIn({ llama, port });
    expect((await inkpress.generate({ topic: "Rainy days", length: 150, seed: 10 }, { "x-api-key": API_KEY })).status).toBe(200);
  });
});
