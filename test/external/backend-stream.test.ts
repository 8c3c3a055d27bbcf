import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitFor } from "../helpers/http.js";
import { timeless } from "../helpers/jsonld.js";
import { BUILD_TIMEOUT_MS, startLlamaServer, type RunningLlamaServer } from "../helpers/llama-server.js";
import { API_KEY, HAS_STORIES_MODEL, STORIES_MODEL, startServer, type TestServer } from "../helpers/server.js";
import { collectSse, fetchSse, type SseEvent } from "../helpers/sse.js";

// Streaming, cancellation, /healthz and /metrics through `inkpress serve --backend` → a real
// llama-server serving stories260K (both real processes, no mock).

if (!HAS_STORIES_MODEL) {
  console.warn(`SKIPPED: the inference-server streaming suite needs ${STORIES_MODEL}, which is not there.`);
}

const BODY = { topic: "Keeping chickens", length: 400, seed: 7, seo: { keywords: "backyard chickens, egg laying" } };

function open(server: TestServer, body: unknown) {
  return fetchSse(`${server.url}/api/v1/generate`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": API_KEY, accept: "text/event-stream" },
    body: JSON.stringify(body),
  });
}

/** The events of a stream, checked to be meta → outline → delta* → done. */
function parse(events: SseEvent[]) {
  const names = events.map((e) => e.event);
  expect(names.slice(0, 2)).toEqual(["meta", "outline"]);
  expect(names.at(-1)).toBe("done");
  expect(new Set(names.slice(2, -1))).toEqual(new Set(["delta"]));
  const data = events.map((e) => JSON.parse(e.data));
  return { meta: data[0], outline: data[1], deltas: data.slice(2, -1).map((d) => d.text as string), done: data.at(-1) };
}

describe.skipIf(!HAS_STORIES_MODEL)("inkpress → llama-server: streaming, cancellation, health, metrics", () => {
  let llama: RunningLlamaServer;
  let server: TestServer;

  beforeAll(async () => {
    llama = await startLlamaServer({ model: STORIES_MODEL, parallel: 2, args: ["--metrics"] });
    server = await startServer(undefined, {}, { args: ["--backend", llama.url] });
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await server?.stop();
    await llama?.stop();
  });

  it("says where it writes: the start-up line and /healthz name llama-server, its URL and state; sequences are its slots", async () => {
    expect(server.output()).toContain(`writing with the inference server at ${llama.url}`);
    expect(server.output()).toContain(`model stories260K.gguf loaded on llama-server at ${llama.url} (2 sequences)`);
    const health = await (await fetch(`${server.url}/healthz`)).json();
    expect(health).toEqual({
      status: "ok",
      model: "stories260K.gguf",
      prompting: "completion",
      backend: { kind: "llama-server", url: llama.url, state: "ok", prompts: "token-ids" },
      queue: { running: 0, waiting: 0, capacity: 2 + 16 },
    });
  });

  it("streams meta → outline → deltas → done; the deltas are the Markdown, done is the JSON answer", async () => {
    const json = await server.generate(BODY);
    expect(json.status).toBe(200);
    const answer: any = await json.json();

    const { response, events } = await open(server, BODY);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const { meta, outline, deltas, done } = parse(await collectSse(events));
    expect(meta).toEqual({ id: done.id, model: "stories260K.gguf", request: answer.request });
    expect(outline).toEqual({ title: answer.article.title, outline: answer.article.outline });
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join("")).toBe(done.article.markdown);
    // The same seed writes the same article, streamed or not (the JSON-LD dates are those of each request).
    expect(timeless(done.article)).toEqual(timeless(answer.article));
    expect(done.seo).toEqual(answer.seo);
  });

  it("a client that disconnects mid-article frees its llama-server slot within 1 s", async () => {
    const { response, events, abort } = await open(server, { ...BODY, length: 3000, seed: 8 });
    expect(response.status).toBe(200);
    // Read on without leaving the loop (leaving it would already close the connection).
    for (let deltas = 0; deltas < 5; ) if ((await events.next()).value?.event === "delta") deltas++;
    await waitFor(
      async () => ((await llama.processing()).includes(true) ? true : undefined),
      "a llama-server slot busy with the article",
      5_000,
      10,
    );
    abort();
    await waitFor(
      async () => ((await llama.processing()).includes(true) ? undefined : true),
      "every llama-server slot idle after the client left",
      1_000,
      25,
    );
    await waitFor(async () => {
      const health = await (await fetch(`${server.url}/healthz`)).json();
      return health.queue.running === 0 ? true : undefined;
    }, "inkpress's sequence given back");
    // The next article runs as usual.
    expect((await server.generate({ ...BODY, length: 150 })).status).toBe(200);
  });

  it("/metrics: Prometheus text without a key, counting requests, articles, tokens and timings", async () => {
    const response = await fetch(`${server.url}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const value = (series: string) => Number(new RegExp(`^${series.replace(/[{}()]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1]);
    expect(value('inkpress_requests_total{route="/api/v1/generate",status="200"}')).toBe(3);
    expect(value('inkpress_requests_total{route="/api/v1/generate",status="499"}')).toBe(1);
    expect(value("inkpress_articles_total")).toBe(3);
    expect(value('inkpress_tokens_total{kind="prompt"}')).toBeGreaterThan(0);
    expect(value('inkpress_tokens_total{kind="completion"}')).toBeGreaterThan(0);
    // Every article had a first token (the disconnected one too); each finished one a decode rate.
    expect(value("inkpress_time_to_first_token_seconds_count")).toBe(4);
    expect(value("inkpress_decode_tokens_per_second_count")).toBe(3);
    expect(value("inkpress_decode_tokens_per_second_sum")).toBeGreaterThan(0);
    expect(value("inkpress_queue_depth")).toBe(0);
    expect(value("inkpress_generations_running")).toBe(0);
    expect(text).not.toContain(API_KEY);
  });

  // Last: it writes one more article than the /metrics test counts.
  it("llama-server evaluates the prompt tokens inkpress counts for an article (within 10%): the answer goes as token ids, so its cache always matches", async () => {
    const evaluated = async () =>
      Number(/^llamacpp:prompt_tokens_total (\S+)$/m.exec(await (await fetch(`${llama.url}/metrics`)).text())?.[1]);
    const before = await evaluated();
    const response = await server.generate({ ...BODY, length: 300, seed: 11 });
    expect(response.status).toBe(200);
    const { usage } = (await response.json()) as { usage: { promptTokens: number; completionTokens: number } };
    const byServer = (await evaluated()) - before;
    console.log("prompt tokens", { byServer, usage });
    expect(Math.abs(byServer - usage.promptTokens)).toBeLessThanOrEqual(0.1 * usage.promptTokens);
  });
});
