import type { ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectArticleBasics, expectArticleShape } from "../helpers/article.js";
import { timeless } from "../helpers/jsonld.js";
import { API_KEY, HAS_STORIES_MODEL, STORIES_MODEL, startServer, testModel, type TestServer } from "../helpers/server.js";
import { collectSse, fetchSse, readSse, type SseEvent, type SseResponse } from "../helpers/sse.js";

// Streaming (SSE), the sequence pool under load, cancellation, deadlines, graceful shutdown
// and leaks, all over real HTTP against the real CLI. The random-weight test models never
// emit EOS, so a long `length` keeps a sequence busy for as long as a test needs.

if (!HAS_STORIES_MODEL) {
  console.warn(`SKIPPED: the stories260K streaming case needs ${STORIES_MODEL}, which is not there.`);
}

// ---------------------------------------------------------------------------------------
// Helpers

/** `startServer`, telling on stderr (with the server's output) when the server dies on its own. */
async function start(
  model: string,
  args: string[] = [],
  options: { env?: Record<string, string>; waitForModel?: boolean } = {},
): Promise<TestServer> {
  const server = await startServer(model, options.env ?? {}, { args, waitForModel: options.waitForModel });
  server.process.once("exit", (code, signal) => {
    if (code === 0 || signal === "SIGTERM") return;
    console.error(
      `inkpress server (pid ${server.process.pid}) exited with ${signal ?? code}; its last output:\n${server.output().slice(-4000)}`,
    );
  });
  return server;
}

interface Health {
  status: string;
  model?: string;
  prompting?: string;
  queue?: { running: number; waiting: number; capacity: number };
}

function requestInit(body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): RequestInit {
  return {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": API_KEY, ...headers },
    body: JSON.stringify(body),
    signal,
  };
}

/** Open a generate request and read it as an event stream. */
function openStream(
  server: TestServer,
  body: unknown,
  headers: Record<string, string> = { accept: "text/event-stream" },
): Promise<SseResponse> {
  return fetchSse(`${server.url}/api/v1/generate`, requestInit(body, headers));
}

async function health(server: TestServer): Promise<Health> {
  return (await fetch(`${server.url}/healthz`)).json() as Promise<Health>;
}

/** Poll /healthz every 50 ms until `predicate` holds; fails with the last answer seen. */
async function waitForHealth(server: TestServer, predicate: (h: Health) => boolean, what: string, timeoutMs = 10_000): Promise<Health> {
  const until = performance.now() + timeoutMs;
  let last: Health | undefined;
  while (performance.now() < until) {
    last = await health(server);
    if (predicate(last)) return last;
    await sleep(50);
  }
  throw new Error(`/healthz never showed ${what} within ${timeoutMs} ms; last: ${JSON.stringify(last)}`);
}

const queueIs = (running: number, waiting: number) => (h: Health) => h.queue?.running === running && h.queue?.waiting === waiting;

/** Resolves with the exit code (and signal) once the process has exited. */
function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}

/** Resident memory of a process in kB, from /proc. */
function rssKb(pid: number): number {
  const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+)\s+kB/m);
  if (!match) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]);
}

/** The parts of an event stream, checked to be meta → outline → delta* → done. */
interface ParsedStream {
  meta: any;
  outline: any;
  deltas: string[];
  done: any;
  events: SseEvent[];
}

function parseArticleStream(events: SseEvent[]): ParsedStream {
  expect(events.length).toBeGreaterThanOrEqual(4);
  expect(events[0]!.event).toBe("meta");
  expect(events[1]!.event).toBe("outline");
  expect(events.at(-1)!.event).toBe("done");
  const middle = events.slice(2, -1);
  expect(middle.map((e) => e.event)).toEqual(middle.map(() => "delta"));
  const deltas = middle.map((e) => {
    const data = JSON.parse(e.data);
    expect(Object.keys(data)).toEqual(["text"]);
    expect(typeof data.text).toBe("string");
    expect(data.text.length).toBeGreaterThan(0);
    return data.text as string;
  });
  return { meta: JSON.parse(events[0]!.data), outline: JSON.parse(events[1]!.data), deltas, done: JSON.parse(events.at(-1)!.data), events };
}

/** A response without what differs between two runs of the same seeded request. */
function comparable(answer: any) {
  const { id, created, usage, ...rest } = answer;
  expect(id).toMatch(/^art_[0-9a-f]{32}$/);
  expect(created).toEqual(expect.any(Number));
  const { durationMs, ...tokens } = usage;
  expect(durationMs).toEqual(expect.any(Number));
  // The JSON-LD dates come from `created`.
  expect(rest.article.jsonLd["@graph"][0].datePublished).toBe(new Date(created * 1000).toISOString());
  return { ...rest, article: timeless(rest.article), usage: tokens };
}

async function expectProblem(response: Response, status: number): Promise<any> {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  const body: any = await response.json();
  expect(body).toMatchObject({ status, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  return body;
}

// ---------------------------------------------------------------------------------------
// 0. The reader itself (no server): comments, multi-line data, line ends split across chunks.

describe("the SSE test reader", () => {
  function bodyOf(chunks: string[]): ReadableStream<Uint8Array> {
    const encoder = new TextEncoder();
    return new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
  }

  it("parses events, comments, multi-line data and every kind of line end", async () => {
    const comments: string[] = [];
    const events = await collectSse(
      readSse(
        bodyOf([
          ": keep-alive\n\n",
          'event: meta\ndata: {"a":',
          "1}\n\n",
          "data: line one\r\ndata: line two\r",
          "\n\r\n",
          "event: delta\rdata:no space\r\rid: 7\ndata\n\n",
          "event: empty\n\n", // no data: not dispatched
          "data:  two spaces\n\n",
          "data: \u00e9t\u00e9 ",
          "\u2713\n\n",
          "data: unterminated",
        ]),
        { onComment: (c) => comments.push(c) },
      ),
    );
    expect(comments).toEqual(["keep-alive"]);
    expect(events.map(({ event, data, id }) => ({ event, data, id }))).toEqual([
      { event: "meta", data: '{"a":1}', id: undefined },
      { event: "message", data: "line one\nline two", id: undefined },
      { event: "delta", data: "no space", id: undefined },
      { event: "message", data: "", id: "7" },
      { event: "message", data: " two spaces", id: "7" },
      { event: "message", data: "été ✓", id: "7" },
    ]);
  });

  it("splits a multi-byte character across chunks correctly", async () => {
    const bytes = new TextEncoder().encode("data: ✓\n\n");
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    expect((await collectSse(readSse(body))).map((e) => e.data)).toEqual(["✓"]);
  });

  it("ends quietly when its signal aborts, and cancels the body", async () => {
    const controller = new AbortController();
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode("data: first\n\n"));
      },
      cancel() {
        cancelled = true;
      },
    });
    const seen: string[] = [];
    for await (const event of readSse(body, { signal: controller.signal })) {
      seen.push(event.data);
      controller.abort();
    }
    expect(seen).toEqual(["first"]);
    expect(cancelled).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------
// 1. A stream is meta → delta* → done, and done is the JSON answer.

interface StreamCase {
  name: string;
  body: Record<string, unknown>;
  /** The normalised request the server echoes in `meta` and `done`. */
  request: Record<string, unknown>;
  check?: (markdown: string, answer: any) => void;
}

const KEYWORDS = "compost bin, garden waste";
const BASE = {
  topic: "  Home composting for beginners ",
  length: 400,
  tone: "friendly",
  language: "EN",
  seo: { keywords: ` ${KEYWORDS}, Compost Bin,` },
};
const NORMALISED = {
  topic: "Home composting for beginners",
  length: 400,
  tone: "friendly",
  language: "en",
  structure: "sections",
  structureRequested: "sections",
  seo: { keywords: ["compost bin", "garden waste"], headingTags: true },
};

const STREAM_CASES: StreamCase[] = [
  {
    name: "sections, headings on",
    body: { ...BASE, seed: 11 },
    request: { ...NORMALISED, seed: 11 },
    check: (_markdown, answer) => expectArticleBasics(answer, "compost bin", true),
  },
  {
    name: "sections, headings off",
    body: { ...BASE, seed: 12, seo: { keywords: KEYWORDS, headingTags: false } },
    request: { ...NORMALISED, seed: 12, seo: { ...NORMALISED.seo, headingTags: false } },
    check: (_markdown, answer) => expectArticleBasics(answer, "compost bin", false),
  },
  {
    name: "detailed (takeaways list, FAQ), headings on",
    body: { ...BASE, length: 600, seed: 13, structure: "detailed" },
    request: { ...NORMALISED, length: 600, seed: 13, structure: "detailed", structureRequested: "detailed" },
    check: (markdown) => {
      expect(markdown).toMatch(/^[-*] \S/m);
      expect(markdown).toMatch(/^## Frequently asked questions$/m);
      expect(markdown).toMatch(/^### .+\?$/m);
    },
  },
  {
    name: "detailed (takeaways list, FAQ), headings off",
    body: { ...BASE, length: 600, seed: 14, structure: "FAQ guide", seo: { keywords: KEYWORDS, headingTags: false } },
    request: {
      ...NORMALISED,
      length: 600,
      seed: 14,
      structure: "detailed",
      structureRequested: "FAQ guide",
      seo: { ...NORMALISED.seo, headingTags: false },
    },
    check: (markdown) => {
      expect(markdown).toMatch(/^[-*] \S/m);
      expect(markdown).not.toMatch(/^#/m);
      // FAQ questions stay as their own paragraphs.
      expect(markdown).toMatch(/^[^\n]*\?$/m);
    },
  },
];

/**
 * The same seeded request three ways: `Accept: text/event-stream`, `"stream": true`, and
 * plain JSON. Both streams are meta → outline → delta* → done, the deltas concatenate to the
 * Markdown byte for byte, and done is the JSON answer.
 */
async function expectStreamMatchesJson(server: TestServer, c: StreamCase): Promise<void> {
  const json = await server.generate(c.body);
  expect(json.status).toBe(200);
  const answer: any = await json.json();
  expectArticleShape(answer);

  const streams: ParsedStream[] = [];
  for (const [body, headers] of [
    [c.body, { accept: "text/event-stream" }],
    [{ ...c.body, stream: true }, {}],
  ] as const) {
    const { response, events } = await openStream(server, body, headers);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(response.headers.get("cache-control")).toMatch(/no-cache/);
    const parsed = parseArticleStream(await collectSse(events));
    streams.push(parsed);

    // meta is sent before any model call: the id and model the answer will carry, and the request.
    expect(parsed.meta).toEqual({ id: parsed.done.id, model: answer.model, request: answer.request });
    expect(parsed.outline).toEqual({ title: answer.article.title, outline: answer.article.outline });
    expect(parsed.deltas.join("")).toBe(parsed.done.article.markdown);
    expect(comparable(parsed.done)).toEqual(comparable(answer));
    expect(parsed.done.id).not.toBe(answer.id);
  }
  // The two ways of asking for a stream give the same events.
  expect(streams[1]!.deltas).toEqual(streams[0]!.deltas);
  // The request is echoed normalised, without the transport flag.
  expect(streams[0]!.meta.request).toEqual(c.request);
  c.check?.(answer.article.markdown, answer);
}

describe.each(["plain", "chat"] as const)("streaming on the %s test model", (variant) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await start(await testModel(variant));
  });
  afterAll(() => server?.stop());

  it.each(STREAM_CASES)("$name: deltas concatenate to the Markdown and done equals the JSON answer", async (c) => {
    await expectStreamMatchesJson(server, c);
  });

  it("sends events as they are written, not all at the end", async () => {
    const started = performance.now();
    const { events } = await openStream(server, { ...BASE, length: 1500, seed: 21 });
    const parsed = parseArticleStream(await collectSse(events));
    const total = parsed.events.at(-1)!.receivedAt - started;
    const firstDelta = parsed.events[1]!.receivedAt - started;
    // The first words arrive in the first half of the generation, in many events.
    expect(firstDelta).toBeLessThan(total / 2);
    expect(parsed.deltas.length).toBeGreaterThan(10);
    expect(parsed.events[0]!.receivedAt).toBeLessThanOrEqual(parsed.events[1]!.receivedAt);
  });
});

describe.skipIf(!HAS_STORIES_MODEL)("streaming on stories260K", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await start(STORIES_MODEL);
  });
  afterAll(() => server?.stop());

  it("deltas concatenate to the Markdown and done equals the JSON answer", async () => {
    await expectStreamMatchesJson(server, {
      name: "stories",
      body: { topic: "Keeping chickens", length: 800, seed: 3, seo: { keywords: "backyard chickens, egg laying" } },
      request: {
        ...NORMALISED,
        topic: "Keeping chickens",
        length: 800,
        tone: "professional",
        seed: 3,
        seo: { keywords: ["backyard chickens", "egg laying"], headingTags: true },
      },
      check: (_markdown, answer) => expectArticleBasics(answer, "backyard chickens", true),
    });
  });
});

// The same seeded request must answer the same `usage`: every article starts on an emptied
// sequence, so nothing left over from an earlier request changes what is evaluated.
describe.each(["plain", "chat"] as const)("usage does not depend on earlier requests (%s test model)", (variant) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await start(await testModel(variant), ["--sequences", "1"]);
  });
  afterAll(() => server?.stop());

  it("the same seeded request on a fresh and on a used sequence reports the same usage", async () => {
    const body = { topic: "Home composting for beginners", length: 400, seed: 11 };
    const first: any = await (await server.generate(body)).json();
    const second: any = await (await server.generate(body)).json();
    expect(second.article.markdown).toBe(first.article.markdown);
    expect(second.usage.completionTokens).toBe(first.usage.completionTokens);
    expect(second.usage.promptTokens, "usage.promptTokens of the same seeded request, second run vs first").toBe(first.usage.promptTokens);
  });
});

// ---------------------------------------------------------------------------------------
// 2. Two sequences, a queue of two: the fifth simultaneous request is turned away.

describe("concurrency: --sequences 2 --queue-size 2", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await start(await testModel("plain"), ["--sequences", "2", "--queue-size", "2"]);
  });
  afterAll(() => server?.stop());

  it("runs 2, queues 2, answers the 5th 503 with a numeric Retry-After, and finishes the 4", async () => {
    expect(await health(server)).toMatchObject({ queue: { running: 0, waiting: 0, capacity: 4 } });
    const seen: Health["queue"][] = [];
    let polling = true;
    const poller = (async () => {
      while (polling) {
        seen.push((await health(server)).queue);
        await sleep(50);
      }
    })();
    poller.catch(() => {}); // awaited below; a failure there is reported by the test, not as an unhandled rejection

    const started = performance.now();
    let responses: Response[];
    let bodies: string[];
    try {
      // Each body is read as soon as it comes, as a client does: an unread answer left for
      // longer than the server's keep-alive timeout would be cut off by the client library.
      const answers = await Promise.all(
        Array.from({ length: 5 }, async (_, i) => {
          const response = await server.generate({ topic: `Request number ${i}`, length: 1500, seed: 100 + i });
          return { response, body: await response.text() };
        }),
      );
      responses = answers.map((a) => a.response);
      bodies = answers.map((a) => a.body);
    } finally {
      polling = false;
    }
    const elapsed = performance.now() - started;
    await poller;

    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 503]);
    const rejected = responses.findIndex((r) => r.status === 503);
    const turnedAway = responses[rejected]!;
    expect(turnedAway.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect(turnedAway.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(Number(turnedAway.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(bodies[rejected]!)).toMatchObject({ status: 503, type: "/docs#unavailable", title: "Service Unavailable" });

    for (const i of responses.keys()) {
      if (i === rejected) continue;
      const body = JSON.parse(bodies[i]!);
      expectArticleShape(body);
      expect(body.article.wordCount).toBeGreaterThan(1500 * 0.8);
    }
    // They overlapped: at some point two ran and two waited.
    expect(seen, `healthz samples over ${Math.round(elapsed)} ms: ${JSON.stringify(seen)}`).toContainEqual({
      running: 2,
      waiting: 2,
      capacity: 4,
    });
    await waitForHealth(server, queueIs(0, 0), "an idle pool");
  });
});

// ---------------------------------------------------------------------------------------
// 3. A client that goes away gives its sequence (or its place in line) back.

describe("cancellation: --sequences 1 --queue-size 1", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await start(await testModel("plain"), ["--sequences", "1", "--queue-size", "1"]);
  });
  afterAll(() => server?.stop());

  it("aborting a stream hands its sequence to the waiting request, which completes", async () => {
    const a = await openStream(server, { topic: "Stream A", length: 5000, seed: 1 });
    expect(a.response.status).toBe(200);
    for (let next = await a.events.next(); ; next = await a.events.next()) {
      expect(next.done, "stream A ended before its first delta").toBe(false);
      if (!next.done && next.value.event === "delta") break;
    }
    const b = server.generate({ topic: "Request B", length: 1500, seed: 2 });
    await waitForHealth(server, queueIs(1, 1), "A running and B waiting");

    a.abort();
    await waitForHealth(server, queueIs(1, 0), "B running once A was aborted", 5_000);
    const response = await b;
    expect(response.status).toBe(200);
    expectArticleShape(await response.json());
    await waitForHealth(server, queueIs(0, 0), "an idle pool");
  });

  it("a non-streamed client that disconnects frees its sequence", async () => {
    const controller = new AbortController();
    const pending = fetch(`${server.url}/api/v1/generate`, requestInit({ topic: "Going away", length: 5000 }, {}, controller.signal));
    pending.catch(() => {});
    await waitForHealth(server, queueIs(1, 0), "the request running");
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
    await waitForHealth(server, queueIs(0, 0), "the sequence free again", 5_000);
    // And it is usable.
    expect((await server.generate({ topic: "Afterwards", length: 150 })).status).toBe(200);
  });

  it("a stream aborted before its first event frees its sequence", async () => {
    const stream = await openStream(server, { topic: "Gone at once", length: 5000 });
    expect(stream.response.status).toBe(200);
    stream.abort();
    await waitForHealth(server, queueIs(0, 0), "the sequence free again", 5_000);
  });

  // A client that goes away is not a server failure: no stack trace, no "500" in the log.
  it("a client that disconnects is not logged as a server error", async () => {
    const mark = server.output().length;
    const controller = new AbortController();
    const pending = fetch(
      `${server.url}/api/v1/generate`,
      requestInit({ topic: "Going away quietly", length: 5000 }, {}, controller.signal),
    );
    pending.catch(() => {});
    await waitForHealth(server, queueIs(1, 0), "the request running");
    controller.abort();
    await waitForHealth(server, queueIs(0, 0), "the sequence free again", 5_000);
    const stream = await openStream(server, { topic: "Streaming away quietly", length: 5000 });
    await stream.events.next();
    stream.abort();
    await waitForHealth(server, queueIs(0, 0), "the sequence free again", 5_000);
    await sleep(200); // let the log lines arrive
    const log = server.output().slice(mark);
    expect(log, "server output after two client disconnects").not.toMatch(/^\s+at /m);
    expect(log, "server output after two client disconnects").not.toMatch(/\bERROR\b|"status":\s*500/);
    expect(log, "both are logged as 499, client closed request").toMatch(/"status":499[\s\S]*"status":499/);
  });

  it("a waiting client that disconnects gives up its place in line", async () => {
    const running = new AbortController();
    const waiting = new AbortController();
    const first = fetch(`${server.url}/api/v1/generate`, requestInit({ topic: "First", length: 5000 }, {}, running.signal));
    first.catch(() => {});
    await waitForHealth(server, queueIs(1, 0), "the first request running");
    const second = fetch(`${server.url}/api/v1/generate`, requestInit({ topic: "Second", length: 5000 }, {}, waiting.signal));
    second.catch(() => {});
    await waitForHealth(server, queueIs(1, 1), "the second request waiting");
    waiting.abort();
    await waitForHealth(server, queueIs(1, 0), "the queue empty again", 5_000);
    running.abort();
    await waitForHealth(server, queueIs(0, 0), "an idle pool", 5_000);
  });
});

// ---------------------------------------------------------------------------------------
// 4. SIGTERM: finish what runs within the grace period, abort the rest, exit 0.

describe("SIGTERM during a generation", () => {
  let model: string;
  const servers: TestServer[] = [];
  beforeAll(async () => {
    model = await testModel("plain");
  });
  afterAll(async () => {
    for (const server of servers) if (server.process.exitCode === null) server.process.kill("SIGKILL");
  });

  it("lets running generations (JSON and streamed) finish with full articles, then exits 0", async () => {
    const server = await start(model, ["--sequences", "2"]);
    servers.push(server);
    const pending = server.generate({ topic: "Finishing before shutdown", length: 1500, seed: 5, seo: { keywords: "shutdown" } });
    const stream = await openStream(server, { topic: "Streaming before shutdown", length: 1500, seed: 6 });
    expect(stream.response.status).toBe(200);
    const streamed = collectSse(stream.events);
    await waitForHealth(server, queueIs(2, 0), "both requests running");
    const exit = exited(server.process);
    const killedAt = performance.now();
    server.process.kill("SIGTERM");

    const response = await pending;
    const answeredAfter = performance.now() - killedAt;
    expect(response.status).toBe(200);
    const body: any = await response.json();
    expectArticleShape(body);
    expectArticleBasics(body, "shutdown", true);
    expect(body.article.wordCount).toBeGreaterThan(1500 * 0.9);
    const parsed = parseArticleStream(await streamed);
    expect(parsed.deltas.join("")).toBe(parsed.done.article.markdown);
    expect(parsed.done.article.wordCount).toBeGreaterThan(1500 * 0.9);

    // New work is turned away meanwhile: the listener is closed (connection refused) or it is a 503.
    const late = await server.generate({ topic: "Too late", length: 100 }).catch((error: Error) => error);
    if (late instanceof Response) await expectProblem(late, 503);

    expect(await exit).toEqual({ code: 0, signal: null });
    console.info(
      `SIGTERM, default grace: answered ${Math.round(answeredAfter)} ms and exited ${Math.round(performance.now() - killedAt)} ms after the signal`,
    );
  });

  it("--shutdown-grace 1: aborts what is still running after the grace period, answers 503 or closes, and exits 0", async () => {
    const server = await start(model, ["--shutdown-grace", "1", "--sequences", "2"]);
    servers.push(server);
    const plain = server.generate({ topic: "Far too long", length: 5000, seed: 6 }).catch((error: Error) => error);
    const stream = await openStream(server, { topic: "Far too long, streamed", length: 5000, seed: 7 });
    expect(stream.response.status).toBe(200);
    const streamed = collectSse(stream.events).catch((error: Error) => error);
    await waitForHealth(server, queueIs(2, 0), "both requests running");
    const exit = exited(server.process);
    const killedAt = performance.now();
    server.process.kill("SIGTERM");

    const { code, signal } = await exit;
    const exitedAfter = performance.now() - killedAt;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    // About the grace period: not before it, and not long after.
    expect(exitedAfter).toBeGreaterThan(900);
    expect(exitedAfter).toBeLessThan(1000 + 10_000);

    const outcome = await plain;
    let plainOutcome = "connection closed";
    if (outcome instanceof Response) {
      const text = await outcome.text().catch(() => undefined);
      plainOutcome = `${outcome.status}`;
      expect(outcome.status).toBe(503);
      expect(outcome.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(text!)).toMatchObject({ status: 503 });
    }
    const events = await streamed;
    let streamOutcome = "connection closed";
    if (!(events instanceof Error)) {
      const last = events.at(-1);
      expect(last?.event).not.toBe("done");
      if (last?.event === "error") {
        streamOutcome = "error event";
        expect(JSON.parse(last.data)).toMatchObject({ status: 503 });
      } else {
        streamOutcome = `stream ended after ${last?.event ?? "nothing"}`;
      }
    }
    console.info(
      `SIGTERM, --shutdown-grace 1: exited ${Math.round(exitedAfter)} ms after the signal; JSON client: ${plainOutcome}; stream client: ${streamOutcome}`,
    );
  });
});

// ---------------------------------------------------------------------------------------
// 5. Leak check: many streams opened and dropped leave no sequence and no memory behind.
//
// RSS is compared after a full garbage collection: without one, uncollected garbage alone
// grew RSS by 2–14 % over 450 cycles in our runs and fell back at the next major GC, which
// says nothing about leaks. The server's code is untouched; Node's own flags (through
// NODE_OPTIONS) expose gc() and preload a SIGUSR2 handler that runs it twice and says so.
// A cycle took 25–30 ms on 2 cores with nothing else running (45–60 ms beside the other
// suites), so the test takes 15–35 s.

const GC_ON_SIGUSR2 =
  "--expose-gc --import=data:text/javascript,process.on('SIGUSR2',()=>{globalThis.gc();setTimeout(()=>{globalThis.gc();process.stderr.write('inkpress-test-gc-done\\n')},100)})";

describe.skipIf(!existsSync("/proc/self/status"))("leak check: 500 streams opened and aborted", () => {
  let server: TestServer;
  let gcRuns = 0;
  beforeAll(async () => {
    server = await start(await testModel("plain"), [], {
      env: { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} ${GC_ON_SIGUSR2}`.trim() },
    });
  });
  afterAll(() => server?.stop());

  /** A full garbage collection in the server, so that RSS measures what is still referenced. */
  async function collectGarbage(): Promise<void> {
    const wanted = ++gcRuns;
    server.process.kill("SIGUSR2");
    const until = performance.now() + 10_000;
    while ((server.output().match(/inkpress-test-gc-done/g) ?? []).length < wanted) {
      if (performance.now() > until) throw new Error("the server did not report its garbage collection");
      await sleep(20);
    }
  }

  /** VmRSS once idle, before and after a full garbage collection. */
  async function settledRss(what: string): Promise<{ before: number; after: number }> {
    await waitForHealth(server, queueIs(0, 0), `an idle pool ${what}`);
    const before = rssKb(server.process.pid!);
    await collectGarbage();
    return { before, after: rssKb(server.process.pid!) };
  }

  it("frees every sequence and keeps RSS flat", { timeout: 600_000 }, async () => {
    const idle = await waitForHealth(server, queueIs(0, 0), "an idle pool");
    const cycleMs: number[] = [];
    const statuses = new Map<number, number>();
    let rssAfter50 = { before: 0, after: 0 };

    for (let i = 0; i < 500; i++) {
      const started = performance.now();
      const stream = await openStream(server, { topic: `Leak check ${i}`, length: 800, seed: i });
      statuses.set(stream.response.status, (statuses.get(stream.response.status) ?? 0) + 1);
      if (stream.response.status === 200) {
        for await (const event of stream.events) {
          if (event.event === "delta") break;
        }
      }
      stream.abort();
      await stream.response.body?.cancel().catch(() => {});
      cycleMs.push(performance.now() - started);
      if (i === 49) rssAfter50 = await settledRss("after 50 cycles");
    }

    const after = await waitForHealth(server, queueIs(0, 0), "an idle pool after 500 cycles");
    expect(after.queue).toEqual(idle.queue);
    const rssAfter500 = await settledRss("after 500 cycles");
    const growth = (rssAfter500.after - rssAfter50.after) / rssAfter50.after;
    const sorted = [...cycleMs].sort((x, y) => x - y);
    const mean = cycleMs.reduce((s, x) => s + x, 0) / cycleMs.length;
    console.info(
      `leak check: 500 cycles, mean ${mean.toFixed(1)} ms, median ${sorted[250]!.toFixed(1)} ms, p95 ${sorted[475]!.toFixed(1)} ms, ` +
        `max ${sorted[499]!.toFixed(1)} ms; statuses ${JSON.stringify(Object.fromEntries(statuses))}; ` +
        `VmRSS after 50: ${rssAfter50.before} kB (${rssAfter50.after} kB after GC), after 500: ${rssAfter500.before} kB ` +
        `(${rssAfter500.after} kB after GC): ${(growth * 100).toFixed(1)} % after GC`,
    );
    expect(Object.fromEntries(statuses)).toEqual({ 200: 500 });
    // A leak grows; a fall is the allocator handing back what the first cycles took (measured −9 % to −12 % on
    // a 2-core machine at commits that passed before), so only growth is bounded.
    expect(growth).toBeLessThanOrEqual(0.1);
    // Still serving.
    expect((await server.generate({ topic: "After the leak check", length: 150 })).status).toBe(200);
  });
});

// ---------------------------------------------------------------------------------------
// 6. The per-request deadline.

describe("deadline: --timeout 1", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await start(await testModel("plain"), ["--timeout", "1"]);
  });
  afterAll(() => server?.stop());

  it("a long JSON request is answered 504 problem+json", async () => {
    const started = performance.now();
    const response = await server.generate({ topic: "Never finished in time", length: 5000 });
    const body = await expectProblem(response, 504);
    expect(body).toMatchObject({ type: "/docs#timeout", title: "Gateway Timeout", instance: "/api/v1/generate" });
    expect(performance.now() - started).toBeLessThan(10_000);
    await waitForHealth(server, queueIs(0, 0), "an idle pool after the deadline", 5_000);
  });

  it("a long stream ends with an error event of status 504", async () => {
    const { response, events } = await openStream(server, { topic: "Never streamed in time", length: 5000 });
    expect(response.status).toBe(200);
    const all = await collectSse(events);
    expect(all[0]?.event).toBe("meta");
    expect(all.at(-1)?.event).toBe("error");
    expect(all.slice(1, -1).every((e) => e.event === "delta" || e.event === "outline")).toBe(true);
    expect(JSON.parse(all.at(-1)!.data)).toMatchObject({ status: 504, type: "/docs#timeout", title: "Gateway Timeout" });
    await waitForHealth(server, queueIs(0, 0), "an idle pool after the deadline", 5_000);
  });

  it("keeps serving afterwards", async () => {
    const response = await server.generate({ topic: "Short and quick", length: 100, seed: 1 });
    expect(response.status).toBe(200);
    expectArticleShape(await response.json());
  });
});

// ---------------------------------------------------------------------------------------
// 7. Requests that arrive while the model loads wait for it.

describe("while the model loads", () => {
  let server: TestServer;
  afterAll(() => server?.stop());

  it("healthz says loading (503) or ok, and a generate request sent at once succeeds", async () => {
    server = await start(await testModel("plain"), [], { waitForModel: false });
    const [healthResponse, generated] = await Promise.all([
      fetch(`${server.url}/healthz`),
      server.generate({ topic: "Sent before the model loaded", length: 150 }),
    ]);
    const body: any = await healthResponse.json();
    if (healthResponse.status === 503) expect(body).toEqual({ status: "loading" });
    else expect({ status: healthResponse.status, body }).toMatchObject({ status: 200, body: { status: "ok" } });
    console.info(`loading: the first /healthz answered ${healthResponse.status} ${JSON.stringify(body)}`);
    expect(generated.status).toBe(200);
    expectArticleShape(await generated.json());
    expect(await health(server)).toMatchObject({ status: "ok", queue: { running: 0, waiting: 0 } });
  });
});
