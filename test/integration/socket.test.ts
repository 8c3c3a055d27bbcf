import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { header, hostPort, parseResponse, problemViolations, rawHttp, rawRequest, requestLogLines, waitFor } from "../helpers/http.js";
import { API_KEY, startServer, testModel, type TestServer } from "../helpers/server.js";
import { fetchSse } from "../helpers/sse.js";

// The socket and the edges of HTTP: slow senders, CORS, request ids and the request log.
//
// Both slow senders start at once, in beforeAll, and the other tests run while they trickle.

// Short deadlines (--headers-timeout, --body-timeout) keep the suite fast; the defaults are 10 s and 30 s.
const HEADERS_TIMEOUT_S = 3;
const REQUEST_TIMEOUT_S = 5;
/** Slack on top of a deadline before a slow sender counts as not cut off. */
const SLACK_S = 3;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface SlowOutcome {
  /** Seconds after the first byte. */
  afterS: number;
  how: "answered" | "closed" | "still open";
  status: number;
  contentType?: string;
  body: string;
}

/**
 * Open a connection, send `head`, then one byte of `drip` a second; resolves when the
 * server answers or closes, or after `giveUpS` (then the socket is destroyed).
 */
function trickle(url: string, head: string, drip: string, giveUpS: number): { outcome: Promise<SlowOutcome>; isOpen(): boolean } {
  const { host, port } = hostPort(url);
  const started = performance.now();
  const chunks: Buffer[] = [];
  let open = true;
  const outcome = new Promise<SlowOutcome>((resolve) => {
    const socket = net.connect(port, host, () => socket.write(head));
    let i = 0;
    const timer = setInterval(() => {
      if (socket.writable) socket.write(drip[i++ % drip.length]!);
    }, 1000);
    const finish = (how: SlowOutcome["how"]) => {
      if (!open) return;
      open = false;
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      const response = parseResponse(Buffer.concat(chunks));
      resolve({
        afterS: (performance.now() - started) / 1000,
        how: response.status ? "answered" : how,
        status: response.status,
        contentType: header({ ...response, ending: "end" }, "content-type"),
        body: response.body,
      });
    };
    const giveUp = setTimeout(() => finish("still open"), giveUpS * 1000);
    socket.on("data", (d) => {
      chunks.push(d);
      // A complete answer is enough; some servers keep the socket half-open after it.
      if (parseResponse(Buffer.concat(chunks)).body.endsWith("}")) finish("answered");
    });
    socket.on("end", () => finish("closed"));
    socket.on("close", () => finish("closed"));
    socket.on("error", () => finish("closed"));
  });
  return { outcome, isOpen: () => open };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("sockets, CORS, request ids and logs", () => {
  let plain: TestServer;
  let cors: TestServer;
  let slowHeaders: ReturnType<typeof trickle>;
  let slowBody: ReturnType<typeof trickle>;

  beforeAll(async () => {
    const model = await testModel("plain");
    [plain, cors] = await Promise.all([
      startServer(model, {}, { args: ["--headers-timeout", String(HEADERS_TIMEOUT_S), "--body-timeout", String(REQUEST_TIMEOUT_S)] }),
      startServer(model, {}, { args: ["--cors-origins", "https://a.example"] }),
    ]);
    // Slowloris: the request line, then a header one byte a second, never finished.
    slowHeaders = trickle(
      plain.url,
      "POST /api/v1/generate HTTP/1.1\r\nHost: localhost\r\nX-Slow: ",
      "abcdefghij",
      HEADERS_TIMEOUT_S + SLACK_S,
    );
    // Whole headers, then the body one byte a second.
    const body = JSON.stringify({ topic: "Slow tea", length: 100, padding: " ".repeat(100) });
    slowBody = trickle(
      plain.url,
      `POST /api/v1/generate HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\nx-api-key: ${API_KEY}\r\nx-request-id: slow-body\r\ncontent-length: ${body.length}\r\n\r\n`,
      body,
      REQUEST_TIMEOUT_S + SLACK_S,
    );
  });
  afterAll(async () => {
    await Promise.all([plain?.stop(), cors?.stop()]);
  });

  it("serves other clients while slow ones hold their sockets", async () => {
    expect(slowHeaders.isOpen() && slowBody.isOpen(), "both slow senders still trickling").toBe(true);
    const started = performance.now();
    const [health, article] = await Promise.all([fetch(`${plain.url}/healthz`), plain.generate({ topic: "Tea gardens", length: 100 })]);
    expect(health.status).toBe(200);
    expect(article.status).toBe(200);
    await article.json();
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(slowHeaders.isOpen() && slowBody.isOpen(), "the slow senders were still open meanwhile").toBe(true);
  });

  describe("CORS", () => {
    const preflight = (server: TestServer, origin: string) =>
      fetch(`${server.url}/api/v1/generate`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, x-api-key" },
      });
    const corsHeaders = (response: Response) => [...response.headers.keys()].filter((name) => name.startsWith("access-control-"));

    it("is off by default: no CORS headers for any origin, preflight or not", async () => {
      const post = await plain.generate({ topic: "x", length: 50 }, { origin: "https://a.example" });
      expect(post.status).toBe(422);
      expect(corsHeaders(post)).toEqual([]);
      const options = await preflight(plain, "https://a.example");
      expect(options.headers.get("access-control-allow-origin")).toBeNull();
      expect(corsHeaders(options)).toEqual([]);
      expect(problemViolations(options.status, options.headers.get("content-type"), await options.text())).toEqual([]);
    });

    it("with --cors-origins, answers the allowed origin's preflight (no key needed) and its requests", async () => {
      const options = await preflight(cors, "https://a.example");
      expect(options.status).toBe(204);
      expect(options.headers.get("access-control-allow-origin")).toBe("https://a.example");
      expect(options.headers.get("access-control-allow-methods")?.split(/,\s*/)).toContain("POST");
      expect(options.headers.get("access-control-allow-headers")?.toLowerCase().split(/,\s*/)).toEqual(
        expect.arrayContaining(["content-type", "x-api-key"]),
      );
      expect(options.headers.get("access-control-allow-credentials")).toBeNull();
      expect(options.headers.get("vary")?.toLowerCase()).toContain("origin");

      const post = await cors.generate({ topic: "x", length: 50 }, { origin: "https://a.example" });
      expect(post.status).toBe(422);
      expect(post.headers.get("access-control-allow-origin")).toBe("https://a.example");
      expect(post.headers.get("access-control-expose-headers")?.toLowerCase().split(/,\s*/)).toEqual(
        expect.arrayContaining(["x-request-id", "ratelimit", "ratelimit-policy", "retry-after"]),
      );
      // An error before the key check still lets the page read why.
      const refused = await fetch(`${cors.url}/api/v1/generate`, {
        method: "POST",
        headers: { origin: "https://a.example", "content-type": "application/json" },
        body: "{}",
      });
      expect(refused.status).toBe(401);
      expect(refused.headers.get("access-control-allow-origin")).toBe("https://a.example");
    });

    it("with --cors-origins, gives no other origin an allow-origin", async () => {
      for (const origin of [
        "https://b.example",
        "null",
        "https://a.example.evil.example",
        "http://a.example",
        "https://a.examplex",
        "https://evil.example/https://a.example",
      ]) {
        const options = await preflight(cors, origin);
        expect(options.headers.get("access-control-allow-origin"), `preflight from ${origin}`).toBeNull();
        expect(options.headers.get("access-control-allow-credentials"), origin).toBeNull();
        const post = await cors.generate({ topic: "x", length: 50 }, { origin });
        expect(post.headers.get("access-control-allow-origin"), `POST from ${origin}`).toBeNull();
      }
    });
  });

  describe("x-request-id", () => {
    /** Requests that end in every kind of answer, each with a given x-request-id (or none). */
    async function answers(id: string | undefined): Promise<{ label: string; status: number; echoed: string | null | undefined }[]> {
      const withId = (headers: Record<string, string>) => (id === undefined ? headers : { ...headers, "x-request-id": id });
      const json = { "content-type": "application/json" };
      const key = { "x-api-key": API_KEY };
      const viaFetch: [string, string, RequestInit][] = [
        ["healthz 200", "/healthz", {}],
        ["401", "/api/v1/generate", { method: "POST", headers: json, body: "{}" }],
        ["404", "/api/v1/nothing", { headers: key }],
        ["404 public", "/nothing", {}],
        ["405", "/api/v1/generate", { headers: key }],
        ["415", "/api/v1/generate", { method: "POST", headers: { ...key, "content-type": "text/plain" }, body: "x" }],
        ["406", "/api/v1/generate", { method: "POST", headers: { ...key, ...json, accept: "image/png" }, body: "{}" }],
        ["400", "/api/v1/generate", { method: "POST", headers: { ...key, ...json }, body: "{" }],
        ["422", "/api/v1/generate", { method: "POST", headers: { ...key, ...json }, body: JSON.stringify({ topic: "x", length: 50 }) }],
      ];
      const out = [];
      for (const [label, path, init] of viaFetch) {
        const response = await fetch(`${plain.url}${path}`, { ...init, headers: withId((init.headers ?? {}) as Record<string, string>) });
        await response.text();
        out.push({ label, status: response.status, echoed: response.headers.get("x-request-id") });
      }
      const raw: [string, string, [string, string][], string][] = [
        [
          "413",
          "POST /api/v1/generate HTTP/1.1",
          [
            ["content-type", "application/json"],
            ["x-api-key", API_KEY],
          ],
          JSON.stringify({ topic: "x", p: "p".repeat(70_000) }),
        ],
        [
          "431",
          "POST /api/v1/generate HTTP/1.1",
          [
            ["x-api-key", API_KEY],
            ["x-pad", "p".repeat(9_000)],
          ],
          "",
        ],
        ["400 bad path", "GET /api/v1/%zz HTTP/1.1", [["x-api-key", API_KEY]], ""],
      ];
      for (const [label, line, headers, body] of raw) {
        const response = await rawRequest(
          plain.url,
          rawHttp(line, [["host", "localhost"], ...headers, ...(id === undefined ? [] : [["x-request-id", id] as [string, string]])], body),
        );
        out.push({ label, status: response.status, echoed: header(response, "x-request-id") });
      }
      return out;
    }

    it("is echoed when sane, on success and on every error", async () => {
      const wrong: string[] = [];
      for (const id of ["req-1_a.b:c", "a".repeat(128), "0", "ABC.def-123:456_789"]) {
        for (const answer of await answers(id))
          if (answer.echoed !== id) wrong.push(`${answer.label} (${answer.status}) sent ${id.slice(0, 20)}, got ${answer.echoed}`);
      }
      expect(wrong).toEqual([]);
    });

    it("is a fresh UUID when absent or not sane, on success and on every error", async () => {
      const seen = new Set<string>();
      const wrong: string[] = [];
      let count = 0;
      for (const id of [
        undefined,
        "",
        "has spaces",
        "tab\tinside",
        "a".repeat(129),
        "x".repeat(500),
        "a,b",
        "<script>",
        "../../etc/passwd",
        "é",
        "semi;colon",
      ]) {
        for (const answer of await answers(id)) {
          count++;
          if (!UUID.test(answer.echoed ?? ""))
            wrong.push(`${answer.label} (${answer.status}) sent ${JSON.stringify(id?.slice(0, 20))}, got ${answer.echoed}`);
          else seen.add(answer.echoed!);
        }
      }
      expect(wrong).toEqual([]);
      expect(seen.size, "every fresh id is new").toBe(count);
    });
  });

  describe("the request log", () => {
    const lines = (server: TestServer, id: string) => requestLogLines(server.output()).filter((l) => l.requestId === id);

    it("has exactly one line per request: id, key name (never the key), status, duration, words, tokens", async () => {
      const ok = await plain.generate({ topic: "Log lines", length: 100 }, { "x-request-id": "log-200" });
      const article = await ok.json();
      const requests: [string, Promise<Response>, number, string | null][] = [
        ["log-422", plain.generate({ topic: "x", length: 50 }, { "x-request-id": "log-422" }), 422, "env-1"],
        ["log-401", plain.generate({ topic: "x" }, { "x-request-id": "log-401", "x-api-key": "wrong" }), 401, null],
        ["log-404", fetch(`${plain.url}/api/v1/nothing`, { headers: { "x-api-key": API_KEY, "x-request-id": "log-404" } }), 404, "env-1"],
        ["log-health", fetch(`${plain.url}/healthz`, { headers: { "x-request-id": "log-health" } }), 200, null],
      ];
      for (const [, response] of requests) await (await response).text();
      const all = [["log-200", 200, "env-1"], ...requests.map(([id, , status, key]) => [id, status, key])] as [
        string,
        number,
        string | null,
      ][];
      await waitFor(() => (all.every(([id]) => lines(plain, id).length > 0) ? true : undefined), "every request logged");
      await sleep(300); // a second line would have come by now
      for (const [id, status, key] of all) {
        const logged = lines(plain, id);
        expect(logged, id).toHaveLength(1);
        expect(logged[0]).toEqual({
          requestId: id,
          method: expect.any(String),
          path: expect.stringMatching(/^\//),
          key,
          status,
          durationMs: expect.any(Number),
          words: id === "log-200" ? article.article.wordCount : 0,
          tokens: id === "log-200" ? article.usage.promptTokens + article.usage.completionTokens : 0,
        });
        expect(Number.isInteger(logged[0]!.durationMs) && Number(logged[0]!.durationMs) >= 0).toBe(true);
      }
      expect(plain.output()).not.toContain(API_KEY);
    });

    it("logs a stream once, when it ends, with what it wrote", async () => {
      const stream = await fetchSse(`${plain.url}/api/v1/generate`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": API_KEY, accept: "text/event-stream", "x-request-id": "log-stream" },
        body: JSON.stringify({ topic: "Streams and logs", length: 300 }),
      });
      expect(stream.response.headers.get("x-request-id")).toBe("log-stream");
      let done: any;
      let loggedBeforeTheEnd: number | undefined;
      for await (const event of stream.events) {
        if (event.event === "meta") loggedBeforeTheEnd = lines(plain, "log-stream").length;
        if (event.event === "done") done = JSON.parse(event.data);
      }
      expect(loggedBeforeTheEnd, "lines logged while the stream ran").toBe(0);
      expect(done).toBeDefined();
      await waitFor(() => (lines(plain, "log-stream").length ? true : undefined), "the stream's log line");
      await sleep(300);
      expect(lines(plain, "log-stream")).toEqual([
        expect.objectContaining({
          requestId: "log-stream",
          key: "env-1",
          status: 200,
          words: done.article.wordCount,
          tokens: done.usage.promptTokens + done.usage.completionTokens,
        }),
      ]);
    });

    it("logs an aborted stream with the words and tokens it really wrote", async () => {
      const stream = await fetchSse(`${plain.url}/api/v1/generate`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": API_KEY, accept: "text/event-stream", "x-request-id": "log-aborted" },
        body: JSON.stringify({ topic: "Streams cut short", length: 3000 }),
      });
      let text = "";
      for await (const event of stream.events) {
        if (event.event === "delta") text += JSON.parse(event.data).text;
        // Leave once a few paragraphs are out.
        if (text.split("\n\n").length > 4) break;
      }
      stream.abort();
      await stream.response.body?.cancel().catch(() => {});
      await waitFor(() => (lines(plain, "log-aborted").length ? true : undefined), "the aborted stream's log line");
      const [line] = lines(plain, "log-aborted");
      expect(line).toMatchObject({ status: 499 });
      // At least what the client received (the title is not a body word), and tokens to match.
      const received = text.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
      expect(Number(line!.words)).toBeGreaterThanOrEqual(received - 30);
      expect(Number(line!.words)).toBeGreaterThan(0);
      expect(Number(line!.tokens)).toBeGreaterThan(Number(line!.words));
    });

    it("writes each line as bare JSON, machine-readable as it is", () => {
      const raw = plain
        .output()
        .split("\n")
        .filter((line) => line.includes('"requestId":"log-200"'));
      expect(raw).toHaveLength(1);
      expect(() => JSON.parse(raw[0]!), `the line as printed: ${raw[0]}`).not.toThrow();
    });

    it("logs a client that hangs up once, not as a 500, and without an error stack", async () => {
      const stream = await fetchSse(`${plain.url}/api/v1/generate`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": API_KEY, accept: "text/event-stream", "x-request-id": "gone-stream" },
        body: JSON.stringify({ topic: "Hanging up", length: 1500 }),
      });
      for await (const event of stream.events) {
        if (event.event === "delta") {
          stream.abort();
          break;
        }
      }
      const controller = new AbortController();
      const plainRequest = fetch(`${plain.url}/api/v1/generate`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": API_KEY, "x-request-id": "gone-plain" },
        body: JSON.stringify({ topic: "Hanging up", length: 1500 }),
        signal: controller.signal,
      }).catch(() => undefined);
      await sleep(700);
      controller.abort();
      await plainRequest;
      // And one that hangs up half-way through sending its body.
      const { host, port } = hostPort(plain.url);
      const body = JSON.stringify({ topic: "Hanging up", length: 100 });
      const socket = net.connect(port, host, () =>
        socket.write(
          `POST /api/v1/generate HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\nx-api-key: ${API_KEY}\r\nx-request-id: gone-body\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
        ),
      );
      socket.on("error", () => {});
      await sleep(500);
      socket.destroy();
      const ids = ["gone-stream", "gone-plain", "gone-body"];
      await waitFor(() => (ids.every((id) => lines(plain, id).length) ? true : undefined), "all three logged");
      await sleep(300);
      const logged = Object.fromEntries(ids.map((id) => [id, lines(plain, id).map((l) => l.status)]));
      expect(
        Object.values(logged).map((statuses) => statuses.length),
        `one line each: ${JSON.stringify(logged)}`,
      ).toEqual([1, 1, 1]);
      expect(
        Object.entries(logged).filter(([, statuses]) => statuses[0] === 500),
        "a client hanging up is not an internal error",
      ).toEqual([]);
      const stacks = plain
        .output()
        .split("\n")
        .filter((line) => /ERROR|AbortError|This operation was aborted|^\s+at /.test(line));
      expect(stacks, "no error stack for a hang-up").toEqual([]);
    });
  });

  it(`cuts off a client that trickles its headers within the headers timeout (${HEADERS_TIMEOUT_S} s)`, async () => {
    const outcome = await slowHeaders.outcome;
    console.log(`slow headers: ${outcome.how} after ${outcome.afterS.toFixed(1)} s, ${outcome.status || "no status"} ${outcome.body}`);
    expect(outcome.how, `after ${outcome.afterS.toFixed(1)} s`).not.toBe("still open");
    expect(outcome.afterS).toBeLessThanOrEqual(HEADERS_TIMEOUT_S + SLACK_S);
    if (outcome.how === "answered") {
      expect(outcome.status).toBe(408);
      expect(problemViolations(408, outcome.contentType, outcome.body)).toEqual([]);
    }
  });

  it(`cuts off a client that trickles its body within the request timeout (${REQUEST_TIMEOUT_S} s), and logs it once as a 408`, async () => {
    const outcome = await slowBody.outcome;
    console.log(`slow body: ${outcome.how} after ${outcome.afterS.toFixed(1)} s, ${outcome.status || "no status"} ${outcome.body}`);
    expect(outcome.how, `after ${outcome.afterS.toFixed(1)} s`).not.toBe("still open");
    expect(outcome.afterS).toBeLessThanOrEqual(REQUEST_TIMEOUT_S + SLACK_S);
    if (outcome.how === "answered") {
      expect(outcome.status).toBe(408);
      expect(problemViolations(408, outcome.contentType, outcome.body)).toEqual([]);
    }
    await waitFor(
      () => (requestLogLines(plain.output()).some((l) => l.requestId === "slow-body") ? true : undefined),
      "the slow request's log line",
      3_000,
    ).catch(() => undefined);
    expect(
      requestLogLines(plain.output())
        .filter((l) => l.requestId === "slow-body")
        .map((l) => l.status),
    ).toEqual([408]);
    expect((await fetch(`${plain.url}/healthz`)).status).toBe(200);
  });
});
