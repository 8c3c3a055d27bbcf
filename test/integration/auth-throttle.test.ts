// Key guessing is throttled per client address (a throttled address learns nothing about any key), and the server's log of refused requests
// reads like a log: one JSON line each, no stack trace. A real server over real HTTP.
import http from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobsApi } from "../helpers/jobs.js";
import { API_KEY, runCli, startServer, testModel, type TestServer } from "../helpers/server.js";

const OTHER_KEY = "throttle-test-other-key";

describe("key guessing throttled, routine refusals logged in one line", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(
      await testModel("plain"),
      { INKPRESS_API_KEYS: `${API_KEY},${OTHER_KEY}`, INKPRESS_SEQUENCES: "1" },
      {
        args: ["--jobs-queue-size", "2", "--jobs-per-key", "1"],
      },
    );
  }, 120_000);
  afterAll(() => server?.stop());

  /** The status of a job list sent from `localAddress` with `key`. */
  const statusFrom = (localAddress: string, key: string) =>
    new Promise<number>((resolve, reject) => {
      const url = new URL("/api/v1/jobs", server.url.replace("localhost", "127.0.0.1"));
      const answered = (answer: http.IncomingMessage) => {
        answer.resume();
        resolve(answer.statusCode!);
      };
      http.get(url, { localAddress, headers: { "x-api-key": key } }, answered).on("error", reject);
    });
  const guess = (i: number) => fetch(`${server.url}/api/v1/jobs`, { headers: { "x-api-key": `ink_wrong-guess-${i}` } });

  it("answers 120 wrong keys in a burst with 20 401s, then 429 with Retry-After; while throttled, no key is checked: 300 guesses with the right key among them all get 429; another address is unaffected", async () => {
    const answers = await Promise.all(Array.from({ length: 120 }, (_, i) => guess(i)));
    const throttledAt = Date.now();
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(100);
    const throttled = answers.find((a) => a.status === 429)!;
    expect(throttled.headers.get("content-type")).toContain("application/problem+json");
    const retryAfter = Number(throttled.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect((await throttled.json()).detail).toMatch(/too many failed authentications/i);

    // 300 guesses, the right key at 150: every one is the same 429, so the right one is not told apart.
    const keyed = (i: number) =>
      fetch(`${server.url}/api/v1/jobs`, { headers: { "x-api-key": i === 150 ? API_KEY : `ink_wrong-guess-${1000 + i}` } });
    const guesses = await Promise.all(Array.from({ length: 300 }, (_, i) => keyed(i)));
    const spentS = (Date.now() - throttledAt) / 1000;
    expect(
      guesses.map((g) => g.status),
      `300 guesses ${spentS} s into a window of ${retryAfter} s`,
    ).toEqual(Array(300).fill(429));
    expect(guesses[150]!.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(guesses[150]!.headers.get("ratelimit")).toBeNull();

    // Another address (127.0.0.2 is loopback too) is not throttled: its right key passes, its wrong one is a 401.
    expect(await statusFrom("127.0.0.2", API_KEY)).toBe(200);
    expect(await statusFrom("127.0.0.2", "ink_wrong-guess-other-address")).toBe(401);
    expect((await jobsApi(server.url, API_KEY).list()).status).toBe(429);

    // Once the window has passed, the address may try again, and its right key passes.
    await sleep(Number((await guess(2001)).headers.get("retry-after")) * 1000 + 200);
    expect((await jobsApi(server.url, API_KEY).list()).status).toBe(200);
    expect((await guess(2002)).status).toBe(401);
  }, 30_000);

  it("logs routine client errors (401, 404, 409, 413, 415, 422, 429, 503 for a full queue) as one JSON line each, without a stack trace", async () => {
    const mine = jobsApi(server.url, API_KEY);
    const other = jobsApi(server.url, OTHER_KEY);
    const before = server.output().length;
    const seen: Record<number, Response> = {};
    const keep = (response: Response) => (seen[response.status] ??= response);

    keep(await guess(2000));
    keep(await mine.get("job_00000000000000000000000000000000"));
    keep(await mine.submit({ topic: "x".repeat(2_000_000) }));
    keep(
      await fetch(`${server.url}/api/v1/jobs`, {
        method: "POST",
        headers: { "x-api-key": API_KEY, "content-type": "text/plain" },
        body: "topic",
      }),
    );
    keep(await mine.submit({ length: "long" }));
    // A job that runs long and one that waits (this key's share of the queue of 2), one too many for
    // this key; the other key's waiting job fills the queue, and one more is one too many for the server.
    const running = await mine.create({ topic: "Composting in small gardens", length: 3000 });
    await mine.waitFor(running.id, (j) => j.status === "running");
    const waiting = await mine.create({ topic: "Waiting", length: 100 });
    keep(await mine.submit({ topic: "Over this key's limit", length: 100 }));
    const othersWaiting = await other.create({ topic: "The other key's turn", length: 100 });
    keep(await other.submit({ topic: "Over the queue's size", length: 100 }));
    await other.cancel(othersWaiting.id);
    await mine.cancel(waiting.id);
    keep(await mine.cancel(waiting.id));
    await mine.cancel(running.id);

    expect(Object.keys(seen).map(Number).sort()).toEqual([401, 404, 409, 413, 415, 422, 429, 503]);
    expect((await seen[409]!.json()).detail).toBe("The job was already cancelled; only queued and running jobs can be cancelled.");
    await sleep(300);
    const output = server.output().slice(before);
    expect(output).not.toMatch(/^\s+at /m);
    expect(output).not.toMatch(/Error/);
    const logged = output
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { status: number; path: string });
    for (const status of [401, 404, 409, 413, 415, 422, 429, 503])
      expect(
        logged.some((l) => l.status === status),
        `a ${status} line`,
      ).toBe(true);
  }, 120_000);
});

describe("INKPRESS_API_KEYS", () => {
  it("refuses an entry shorter than 16 characters at start-up, in one line", async () => {
    const result = await runCli(["serve", "--port", "0"], { INKPRESS_API_KEYS: `${API_KEY},short-key` });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toEqual([
      "inkpress: INKPRESS_API_KEYS entry 2 is 9 characters long; a key needs at least 16, or it can be guessed: `inkpress keys create --name NAME` makes a strong one",
    ]);
  }, 30_000);
});
