import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempKeysFile } from "../helpers/cli.js";
import { createKey, revokeKey } from "../helpers/keys.js";
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
  const keys: Record<"rate3" | "conc1" | "daily150" | "stream1800" | "left94" | "pool1000", string> = {
    rate3: "",
    conc1: "",
    daily150: "",
    stream1800: "",
    left94: "",
    pool1000: "",
  };
  let keysFile: string;

  const generate = (key: string, length = 100, headers: Record<string, string> = {}) =>
    server.generate({ topic: "Rate limits for tea shops", length }, { "x-api-key": key, ...headers });
  /** A request that is a 422 once admitted: counts against the window without generating. */
  const invalid = (key: string) => server.generate({ topic: "x", length: 50 }, { "x-api-key": key });

  beforeAll(async () => {
    keysFile = await tempKeysFile();
    // The keys are created one after the other (the CLI is the only writer), before the app starts: in one
    // process the app's start-up tidying takes a key file copy still being written for a crashed writer's.
    keys.rate3 = await createKey(keysFile, "rate3", ["--rate", "3/s"]);
    keys.conc1 = await createKey(keysFile, "conc1", ["--concurrency", "1"]);
    keys.daily150 = await createKey(keysFile, "daily150", ["--daily-words", "150"]);
    keys.stream1800 = await createKey(keysFile, "stream1800", ["--daily-words", "1800"]);
    keys.left94 = await createKey(keysFile, "left94", ["--daily-words", "94"]);
    keys.pool1000 = await createKey(keysFile, "pool1000", ["--daily-words", "1000", "--concurrency", "4"]);
    server = await startApp({ model: await testModel("plain"), env: { INKPRESS_KEYS_FILE: keysFile } });
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
    expect(tooMany.body).toMatchObject({
      type: "/docs#rate-limited",
      title: "Too Many Requests",
      status: 429,
      detail: expect.stringMatching(/3 requests per 1 s/),
    });
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

  it("--daily-words 150: a request reserves its length × 1.1 before it starts and gives back what it did not write; one that does not fit is a 429 naming the words left", async () => {
    const first = await read(await generate(keys.daily150));
    expect(first.status).toBe(200);
    const spent1: number = first.body.article.wordCount;
    expect(spent1).toBeLessThanOrEqual(110);
    // 110 more do not fit in what is left: refused before a word is written.
    const second = await read(await generate(keys.daily150));
    expect(second.status).toBe(429);
    expect(second.body).toMatchObject({
      status: 429,
      detail: expect.stringContaining(`The daily quota of 150 words has ${150 - spent1} words left today; this request needs 110`),
    });
    // What was left after the first, its unused reservation given back.
    expect(second.state["daily-words"]!.r).toBe(String(150 - spent1));
    for (const answer of [first, second]) expect(answer.policy["daily-words"]).toEqual({ q: "150", w: "86400", qu: '"words"' });
    expect(first.state["daily-words"]!.r).toBe("150");
    expect(Math.abs(Number(second.state["daily-words"]!.t) - secondsToUtcMidnight())).toBeLessThanOrEqual(5);
    expect(Math.abs(Number(second.retryAfter) - secondsToUtcMidnight())).toBeLessThanOrEqual(5);
  });

  it("--daily-words: a key with 94 words left gets a 429 for an 800-word request, and nothing is written", async () => {
    const refused = await read(await generate(keys.left94, 800));
    expect(refused.status).toBe(429);
    expect(refused.body.detail).toBe(
      "The daily quota of 94 words has 94 words left today; this request needs 880 (its length × 1.1). The quota renews at 00:00 UTC.",
    );
    const again = await read(await generate(keys.left94, 100));
    expect(again.status, "the refused request reserved nothing").toBe(429);
    expect(again.state["daily-words"]!.r).toBe("94");
  });

  it("--daily-words 1000 --concurrency 4: of 4 parallel 800-word requests one is written, the others are 429: at most 1,100 words in all", async () => {
    const answers = await Promise.all(Array.from({ length: 4 }, () => generate(keys.pool1000, 800).then(read)));
    const written = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(written).toHaveLength(1);
    expect(refused).toHaveLength(3);
    const words = written.reduce((sum, a) => sum + (a.body.article.wordCount as number), 0);
    expect(words).toBeLessThanOrEqual(1100);
    for (const answer of refused)
      expect(answer.body.detail).toMatch(/^The daily quota of 1000 words has 120 words left today; this request needs 880/);
    const after = await read(await generate(keys.pool1000, 800));
    expect(after.status).toBe(429);
    expect(after.state["daily-words"]!.r, "the unused part of the reservation was given back").toBe(String(1000 - words));
  });

  it("--daily-words: words a client received in a stream count against the quota even when it disconnects before the end", async () => {
    const client = new AbortController();
    const response = await server.fetch("/api/v1/generate", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": keys.stream1800, accept: "text/event-stream" },
      body: JSON.stringify({ topic: "Rate limits for tea shops", length: 1500 }),
      signal: client.signal,
    });
    const stream = { response, events: readSse(response.body!, { signal: client.signal }), abort: () => client.abort() };
    expect(stream.response.status).toBe(200);
    let received = "";
    let title = "";
    for await (const event of stream.events) {
      if (event.event === "outline") title = JSON.parse(event.data).title;
      if (event.event === "delta") received += JSON.parse(event.data).text;
      if (words(received) >= 300) {
        stream.abort();
        break;
      }
    }
    expect(words(received), "words delivered before the client hung up").toBeGreaterThanOrEqual(300);
    await sleep(500);
    // The 1,650 words reserved are given back but for those written: at least the body words received (the title is not counted).
    const next = await read(await generate(keys.stream1800, 1500));
    const body = words(received) - words(title);
    expect(next.status, `after ${body} body words delivered on a 1,800-word quota; RateLimit: ${JSON.stringify(next.state)}`).toBe(429);
    const left = Number(next.state["daily-words"]!.r);
    expect(left).toBeLessThanOrEqual(1800 - body);
    expect(left).toBeGreaterThan(1800 - 1650);
  });

  it("answers unknown and revoked keys with 401, never 429", async () => {
    for (let i = 0; i < 10; i++) {
      const response = await invalid(`ink_unknownunknownunknownunknown${i}`);
      expect(response.headers.get("ratelimit")).toBeNull();
      expect(response.headers.get("www-authenticate")).toBe('ApiKey header="x-api-key"');
      await expectProblem(response, 401);
    }
    // daily150 has too little left (429 above); revoked, it is simply unknown.
    expect((await generate(keys.daily150)).status).toBe(429);
    await revokeKey(keysFile, "daily150");
    await waitFor(async () => ((await generate(keys.daily150)).status === 401 ? true : undefined), "the revoked key refused", 5_000, 100);
    const response = await generate(keys.daily150);
    expect(response.headers.get("ratelimit")).toBeNull();
    expect(response.headers.get("retry-after")).toBeNull();
    await expectProblem(response, 401);
  });
});
