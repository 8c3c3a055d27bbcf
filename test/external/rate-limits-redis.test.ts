import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, keysCli, tempKeysFile } from "../helpers/cli.js";
import { expectProblem, waitFor } from "../helpers/http.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";
import { API_KEY, startServer, testModel, type TestServer } from "../helpers/server.js";

// Two real server processes on one real Redis share every key's limits: a key gets its
// limits once, not once per replica. Redis going away answers 503 problems, never crashes,
// and work resumes when it is back.

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("per-key limits shared by two replicas through Redis", () => {
  let redis: TestRedis;
  let keysFile: string;
  let replicas: TestServer[] = [];
  const keys = { rate3: "", conc1: "", left94: "", pool1000: "" };

  /** Authenticated and counted, then a 404: the cheapest request a key can make. */
  const probe = (server: TestServer, key: string) => fetch(`${server.url}/api/v1/nothing`, { headers: { "x-api-key": key } });

  beforeAll(async () => {
    redis = await startRedis();
    keysFile = await tempKeysFile();
    // Created before the replicas start, so no request has to probe for them (and spend the window).
    keys.rate3 = await createKey(keysFile, "rate3", ["--rate", "3/min"]);
    keys.conc1 = await createKey(keysFile, "conc1", ["--concurrency", "1"]);
    keys.left94 = await createKey(keysFile, "left94", ["--daily-words", "94"]);
    keys.pool1000 = await createKey(keysFile, "pool1000", ["--daily-words", "1000", "--concurrency", "4"]);
    const model = await testModel("plain");
    replicas = await Promise.all([0, 1].map(() => startServer(model, { INKPRESS_KEYS_FILE: keysFile }, { args: ["--redis", redis.url] })));
  });
  afterAll(async () => {
    await Promise.all(replicas.map((s) => s.stop()));
    await redis?.stop();
  });

  it("--rate 3/min: exactly 3 requests pass across both replicas together, then 429 with Retry-After on either", async () => {
    // Windows are whole minutes: keep the eight requests inside one.
    if (Date.now() % 60_000 > 50_000) await sleep(60_000 - (Date.now() % 60_000) + 100);
    const answers: { replica: number; status: number; retryAfter: string | null; ratelimit: string | null }[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await probe(replicas[i % 2]!, keys.rate3);
      await response.arrayBuffer();
      answers.push({
        replica: i % 2,
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        ratelimit: response.headers.get("ratelimit"),
      });
    }
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404, 429, 429, 429, 429, 429]);
    expect(
      answers.slice(0, 3).map((a) => a.ratelimit!.match(/"requests";r=(\d+)/)![1]),
      "the remaining count is shared",
    ).toEqual(["2", "1", "0"]);
    for (const limited of answers.slice(3)) {
      expect(limited.retryAfter).toMatch(/^[1-9]\d*$/);
      expect(Number(limited.retryAfter)).toBeLessThanOrEqual(60);
    }
    const body = await expectProblem(await probe(replicas[1]!, keys.rate3), 429);
    expect(body.detail).toMatch(/3 requests per 60 s/);
  });

  it("--concurrency 1: a generation running on one replica makes the other refuse a second one", async () => {
    const generate = (server: TestServer, length: number) =>
      server.generate({ topic: "Shared limits for tea shops", length }, { "x-api-key": keys.conc1 });
    const long = generate(replicas[0]!, 1500);
    // Admitted on replica 0 (its first answer would be a 429 otherwise) before replica 1 is asked.
    await sleep(300);
    const refused = await generate(replicas[1]!, 100);
    const body = await expectProblem(refused, 429);
    expect(body.detail).toMatch(/1 generation at once/);
    expect((await long).status).toBe(200);
    // The slot was given back: the other replica may now run one.
    expect((await generate(replicas[1]!, 100)).status).toBe(200);
  });

  it("--daily-words: a key with 94 words left gets a 429 for an 800-word request on either replica", async () => {
    for (const server of replicas) {
      const body = await expectProblem(await server.generate({ topic: "Shared quotas", length: 800 }, { "x-api-key": keys.left94 }), 429);
      expect(body.detail).toBe(
        "The daily quota of 94 words has 94 words left today; this request needs 880 (its length × 1.1). The quota renews at 00:00 UTC.",
      );
    }
  });

  it("--daily-words 1000 --concurrency 4: of 4 parallel 800-word requests spread over both replicas, one is written and 3 are 429: at most 1,100 words", async () => {
    const generate = (server: TestServer) =>
      server.generate({ topic: "Shared quotas for tea shops", length: 800 }, { "x-api-key": keys.pool1000 });
    const answers = await Promise.all(
      [0, 1, 0, 1].map(async (i) => {
        const response = await generate(replicas[i]!);
        return { status: response.status, body: await response.json() };
      }),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 429, 429, 429]);
    const words = answers.find((a) => a.status === 200)!.body.article.wordCount as number;
    expect(words).toBeLessThanOrEqual(1100);
    for (const refused of answers.filter((a) => a.status === 429))
      expect(refused.body.detail).toMatch(/^The daily quota of 1000 words has 120 words left today; this request needs 880/);
    // The unused part of the reservation was given back, on the shared count both replicas read.
    const after = await probe(replicas[1]!, keys.pool1000);
    expect(after.headers.get("ratelimit")).toMatch(new RegExp(`"daily-words";r=${1000 - words};`));
  });

  it("`keys list` with INKPRESS_REDIS_URL shows the last use the replicas recorded in Redis; an unreachable Redis is one line", async () => {
    const list = await keysCli(keysFile, ["list"], { INKPRESS_REDIS_URL: redis.url });
    expect(list.code, list.stderr).toBe(0);
    const rows = Object.fromEntries(
      list.stdout
        .trimEnd()
        .split("\n")
        .slice(1)
        .map((line) => line.split(/ {2,}/))
        .map((r) => [r[0], r[3]]),
    );
    for (const name of ["rate3", "conc1"]) {
      expect(rows[name], name).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
      expect(Math.abs(Date.parse(`${rows[name]!.replace(" ", "T")}Z`) - Date.now())).toBeLessThan(5 * 60_000);
    }
    const unreachable = await keysCli(keysFile, ["list"], { INKPRESS_REDIS_URL: "redis://127.0.0.1:1" });
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toBe("");
    expect(unreachable.stderr).toMatch(
      /^inkpress: cannot reach Redis at 127\.0\.0\.1:1 \(INKPRESS_REDIS_URL\): connect ECONNREFUSED[^\n]*\n$/,
    );
  });

  it("answers 503 problems while Redis is away, keeps running, and serves again once Redis is back", async () => {
    await redis.kill();
    try {
      for (const server of replicas) {
        const started = Date.now();
        const response = await probe(server, API_KEY);
        expect(response.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
        const body = await expectProblem(response, 503);
        expect(body.detail).toMatch(/Redis/);
        expect(Date.now() - started, "answered at once, not after waiting for Redis").toBeLessThan(5_000);
        // Generating needs the key's state too.
        await expectProblem(await server.generate({ topic: "x", length: 100 }), 503);
      }
      await sleep(500);
      for (const server of replicas) expect(server.process.exitCode, server.output()).toBeNull();
    } finally {
      await redis.start();
    }
    for (const [i, server] of replicas.entries()) {
      await waitFor(
        async () => ((await probe(server, API_KEY)).status === 404 ? true : undefined),
        `replica ${i} serving again`,
        15_000,
        200,
      );
      const response = await server.generate({ topic: "Tea after an outage", length: 100 });
      expect(response.status, await response.clone().text()).toBe(200);
      expect((await response.json()).article.wordCount).toBeGreaterThan(0);
    }
  });
});
