import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, revokeKey, tempKeysFile } from "../helpers/cli.js";
import { expectProblem, waitFor } from "../helpers/http.js";
import { startApp, type TestApp } from "../helpers/app.js";
import { testModel } from "../helpers/server.js";
import { readSse } from "../helpers/sse.js";

// Per-key limits set with `inkpress keys create`, on the app served in-process with the
// random-weight test model: requests per window, generations at once and words per day,
// each announced with the IETF draft RateLimit-Policy / RateLimit headers on every
// authenticated response.

type Items = Record<string, Record<string, string>>;

/** Parse a structured-field list such as `"requests";q=3;w=1, "concurrency";q=1;qu="concurrent-requests"`. */
function items(text: string | null): Items {
  const out: Items = {};
  for (const item of (text ?? "").split(/,\s*/).filter(Boolean)) {
    const [name = "", ...params] = item.split(";");
    out[JSON.parse(name)] = Object.fromEntries(params.map((p) => p.split("=") as [string, string]));
  }
  return out;
}

interface Limited {
  status: number;
  policy: Items;
  state: Items;
  retryAfter: string | null;
  body: any;
}

async function read(response: Response): Promise<Limited> {
  const text = await response.text();
  return {
    status: response.status,
    policy: items(response.headers.get("ratelimit-policy")),
    state: items(response.headers.get("ratelimit")),
    retryAfter: response.headers.get("retry-after"),
    body: text.startsWith("{") ? JSON.parse(text) : text,
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const secondsToUtcMidnight = () => {
  const now = new Date();
  return Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000);
};
const words = (text: string) => [...new Intl.Segmenter("en", { granularity: "word" }).segment(text)].filter((s) => s.isWordLike).length;

describe("per-key limits", () => {
  let server: TestApp;
  const keys: Record<"rate3" | "conc1" | "daily150" | "stream150", string> = { rate3: "", conc1: "", daily150: "", stream150: "" };
  let keysFile: string;

  const generate = (key: string, length = 100, headers: Record<string, string> = {}) =>
    server.generate({ topic: "Rate limits for tea shops", length }, { "x-api-key": key, ...headers });
  /** A request that is a 422 once admitted: counts against the window without generating. */
  const invalid = (key: string) => server.generate({ topic: "x", length: 50 }, { "x-api-key": key });

  beforeAll(async () => {
    keysFile = await tempKeysFile();
    // The keys are created one after the other (the CLI is the only writer), while the server starts.
    const created = (async () => {
      keys.rate3 = await createKey(keysFile, "rate3", ["--rate", "3/s"]);
      keys.conc1 = await createKey(keysFile, "conc1", ["--concurrency", "1"]);
      keys.daily150 = await createKey(keysFile, "daily150", ["--daily-words", "150"]);
      keys.stream150 = await createKey(keysFile, "stream150", ["--daily-words", "150"]);
    })();
    const started = testModel("plain").then((model) => startApp({ model, env: { INKPRESS_KEYS_FILE: keysFile } }));
    [server] = await Promise.all([started, created]);
    for (const key of Object.values(keys)) {
      await waitFor(async () => ((await invalid(key)).status === 422 ? true : undefined), "the created keys accepted", 5_000, 100);
    }
    await sleep(1_000); // those probes spent part of rate3's window
  });
  afterAll(() => server?.stop());

  it("--rate 3/s: the 4th request in a second is a 429 with Retry-After; every answer announces the limit; it recovers after the window", async () => {
    let answers: Limited[] = [];
    for (let attempt = 1; attempt <= 3; attempt++) {
      // Windows are whole seconds of the server's clock (this machine's): start just after one begins.
      while (Date.now() % 1000 > 50 || Date.now() % 1000 < 5) await sleep(2);
      const second = Math.floor(Date.now() / 1000);
      const ok = generate(keys.rate3);
      await sleep(60); // admitted first
      const unprocessable = await invalid(keys.rate3);
      const notFound = await server.fetch("/api/v1/nothing", { headers: { "x-api-key": keys.rate3 } });
      const limited = await invalid(keys.rate3);
      const sameSecond = Math.floor(Date.now() / 1000) === second;
      answers = [await read(await ok), await read(unprocessable), await read(notFound), await read(limited)];
      if (sameSecond) break;
      console.warn(`attempt ${attempt}: the four requests straddled a second; again`);
      await sleep(1_100);
    }
    expect(answers.map((a) => a.status)).toEqual([200, 422, 404, 429]);
    for (const [i, answer] of answers.entries()) {
      expect(answer.policy.requests, `answer ${i}`).toEqual({ q: "3", w: "1" });
      expect(answer.policy.concurrency, `answer ${i}`).toEqual({ q: "2", qu: '"concurrent-requests"' });
      expect(answer.state.requests, `answer ${i}`).toEqual({ r: String([2, 1, 0, 0][i]), t: "1" });
    }
    const tooMany = answers[3]!;
    expect(tooMany.body).toMatchObject({ type: "/docs#rate-limited", title: "Too Many Requests", status: 429, detail: expect.stringMatching(/3 requests per 1 s/) });
    expect(tooMany.retryAfter).toMatch(/^[1-9]\d*$/);
    expect(Number(tooMany.retryAfter)).toBeLessThanOrEqual(1);

    await sleep(Number(tooMany.retryAfter) * 1000);
    const recovered = await read(await generate(keys.rate3));
    expect(recovered.status).toBe(200);
    expect(Number(recovered.state.requests!.r)).toBeGreaterThanOrEqual(1);
  });

  it("--concurrency 1: of two simultaneous generations one is a 429 with Retry-After; afterwards a new one succeeds", async () => {
    const answers = await Promise.all([generate(keys.conc1, 1500).then(read), generate(keys.conc1, 1500).then(read)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 429]);
    const tooMany = answers.find((a) => a.status === 429)!;
    expect(tooMany.body).toMatchObject({ status: 429, detail: expect.stringMatching(/1 generation at once/) });
    expect(tooMany.retryAfter).toMatch(/^[1-9]\d*$/);
    for (const answer of answers) {
      expect(answer.policy.concurrency).toEqual({ q: "1", qu: '"concurrent-requests"' });
      expect(answer.policy.requests).toEqual({ q: "60", w: "60" });
    }
    expect((await generate(keys.conc1)).status).toBe(200);
  });

  it("--daily-words 150: generations run until the quota is spent, then 429 naming the daily quota", async () => {
    const first = await read(await generate(keys.daily150));
    expect(first.status).toBe(200);
    const spent1: number = first.body.article.wordCount;
    expect(spent1).toBeLessThan(150);
    const second = await read(await generate(keys.daily150));
    expect(second.status, "the quota is not spent yet: refused only once spent").toBe(200);
    const third = await read(await generate(keys.daily150));
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ status: 429, detail: expect.stringMatching(/daily quota of 150 words/) });

    for (const answer of [first, second, third]) expect(answer.policy["daily-words"]).toEqual({ q: "150", w: "86400", qu: '"words"' });
    // r is the quota left when the request came in.
    expect(first.state["daily-words"]!.r).toBe("150");
    expect(second.state["daily-words"]!.r).toBe(String(150 - spent1));
    expect(third.state["daily-words"]!.r).toBe("0");
    expect(Math.abs(Number(third.state["daily-words"]!.t) - secondsToUtcMidnight())).toBeLessThanOrEqual(5);
    expect(Math.abs(Number(third.retryAfter) - secondsToUtcMidnight())).toBeLessThanOrEqual(5);
  });

  it("--daily-words: words a client received in a stream count against the quota even when it disconnects before the end", async () => {
    const client = new AbortController();
    const response = await server.fetch("/api/v1/generate", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": keys.stream150, accept: "text/event-stream" },
      body: JSON.stringify({ topic: "Rate limits for tea shops", length: 1500 }),
      signal: client.signal,
    });
    const stream = { response, events: readSse(response.body!, { signal: client.signal }), abort: () => client.abort() };
    expect(stream.response.status).toBe(200);
    let received = "";
    for await (const event of stream.events) {
      if (event.event === "delta") received += JSON.parse(event.data).text;
      if (words(received) >= 300) {
        stream.abort();
        break;
      }
    }
    expect(words(received), "words delivered before the client hung up").toBeGreaterThanOrEqual(300);
    await sleep(500);
    const next = await read(await generate(keys.stream150));
    expect(next.status, `after ${words(received)} words delivered on a 150-word quota; RateLimit: ${JSON.stringify(next.state)}`).toBe(429);
  });

  it("answers unknown and revoked keys with 401, never 429", async () => {
    for (let i = 0; i < 10; i++) {
      const response = await invalid(`ink_unknownunknownunknownunknown${i}`);
      expect(response.headers.get("ratelimit")).toBeNull();
      expect(response.headers.get("www-authenticate")).toBe('ApiKey header="x-api-key"');
      await expectProblem(response, 401);
    }
    // daily150 has spent its quota (429 above); revoked, it is simply unknown.
    expect((await generate(keys.daily150)).status).toBe(429);
    await revokeKey(keysFile, "daily150");
    await waitFor(async () => ((await generate(keys.daily150)).status === 401 ? true : undefined), "the revoked key refused", 5_000, 100);
    const response = await generate(keys.daily150);
    expect(response.headers.get("ratelimit")).toBeNull();
    expect(response.headers.get("retry-after")).toBeNull();
    await expectProblem(response, 401);
  });
});
