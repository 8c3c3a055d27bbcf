import type { ArticleResponse } from "../../src/contract/response.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyWithSecret, tempKeysFile } from "../helpers/cli.js";
import { jobsApi } from "../helpers/jobs.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, startServer, testModel, type TestServer } from "../helpers/server.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

/** Long enough on a real model to be caught running. */
const LONG = { topic: "Keeping bees through a wet spring", length: 2000, structure: "detailed" };
/** The test key's daily words. */
const QUOTA = 1_000_000;

/** The daily words a key has left, from the RateLimit header of a cheap request. */
async function wordsLeft(server: TestServer, key: string): Promise<number> {
  const response = await jobsApi(server.url, key).list();
  await response.arrayBuffer();
  return Number(/"daily-words";r=(\d+)/.exec(response.headers.get("ratelimit") ?? "")![1]);
}

/** Articles a server is writing now, from its /metrics. */
async function generationsRunning(server: TestServer): Promise<number> {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return Number(/^inkpress_generations_running (\d+)$/m.exec(text)![1]);
}

/**
 * Two real server processes on one real Redis: jobs, cancels and webhooks are shared, and a
 * replica that dies mid-article loses nothing.
 */
describe("jobs shared by two replicas on one Redis", () => {
  let redis: TestRedis;
  let model: string;
  let keysFile: string;
  let key: string;
  let receiver: WebhookReceiver;
  const servers: TestServer[] = [];

  const replica = async () => {
    const server = await startServer(
      model,
      { INKPRESS_API_KEYS: undefined, INKPRESS_KEYS_FILE: keysFile, INKPRESS_SEQUENCES: "1" },
      { args: ["--redis", redis.url, "--webhook-allow", "127.0.0.1"] },
    );
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    redis = await startRedis();
    model = HAS_STORIES_MODEL ? STORIES_MODEL : await testModel("plain");
    keysFile = await tempKeysFile();
    // A daily quota far beyond the tests' words, so what each job was charged can be read from RateLimit.
    const created = await createKeyWithSecret(keysFile, "cms", [
      "--rate",
      "1000/min",
      "--concurrency",
      "4",
      "--daily-words",
      String(QUOTA),
    ]);
    key = created.key;
    receiver = await startWebhookReceiver({ secret: created.secret });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await receiver?.close();
    await redis?.stop();
  });

  it("reads and cancels on one replica a job submitted to the other, running or queued", async () => {
    const [a, b] = [await replica(), await replica()];
    const onA = jobsApi(a.url, key);
    const onB = jobsApi(b.url, key);
    const first = await onA.create({ ...LONG, seed: 1 });
    const seen = await onB.waitFor(first.id, (j) => j.status === "running" && j.progress.words > 0);
    expect(seen.request.seed).toBe(1);
    const cancelled = await onB.cancel(first.id);
    expect(cancelled.status).toBe(200);
    expect((await cancelled.json()).status).toBe("cancelled");
    // Whichever replica ran it stops, and its end does not overwrite the cancel.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const after = await (await onA.get(first.id)).json();
    expect(after).toMatchObject({ status: "cancelled" });
    expect(after.result).toBeUndefined();

    const listed = await (await onB.list()).json();
    expect(listed.data.map((j: { id: string }) => j.id)).toContain(first.id);
    await Promise.all([a.stop(), b.stop()]);
  }, 240_000);

  it("finishes on the other replica a job whose replica was killed mid-run, and reports it once by webhook", async () => {
    const a = await replica();
    const onA = jobsApi(a.url, key);
    const job = await onA.create({ ...LONG, seed: 2, webhook: { url: receiver.url } });
    await onA.waitFor(job.id, (j) => j.status === "running" && j.progress.words > 0);
    // Only now does a second replica exist, so the killed one is the one running the job.
    const b = await replica();
    a.process.kill("SIGKILL");
    const killed = performance.now();
    await jobsApi(b.url, key).waitFor(job.id, (j) => j.runs === 2 || j.status !== "running", 120_000);
    console.log(`taken over ${((performance.now() - killed) / 1000).toFixed(1)} s after the kill`);
    const done = await jobsApi(b.url, key).waitFor(job.id, undefined, 300_000);
    expect(done.status).toBe("succeeded");
    expect(done.runs).toBe(2);
    expect((done.result as ArticleResponse | undefined)?.request.seed).toBe(2);

    const [delivery] = await receiver.waitFor(1, 30_000);
    expect(delivery!.verified).toBe(true);
    expect(delivery!.event).toMatchObject({ type: "job.succeeded", data: { id: job.id, status: "succeeded" } });
    const recorded = await jobsApi(b.url, key).waitFor(job.id, (j) => (j.webhook?.deliveries.length ?? 0) > 0);
    expect(recorded.webhook?.deliveries).toEqual([expect.objectContaining({ attempt: 1, ok: true, status: 204 })]);
    expect(recorded.webhook?.nextAttemptAt).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(receiver.received).toHaveLength(1);
    await b.stop();
  }, 400_000);

  it("a replica that stood still until another took its job over stops generating within 2 s of resuming; one result, one webhook, the key charged once", async () => {
    const a = await replica();
    const onA = jobsApi(a.url, key);
    const before = await wordsLeft(a, key);
    const job = await onA.create({ ...LONG, length: 3000, seed: 4, webhook: { url: receiver.url } });
    await onA.waitFor(job.id, (j) => j.status === "running" && j.progress.words > 0);
    // Only now does a second replica exist, so the one that stands still is the one running the job.
    const b = await replica();
    const onB = jobsApi(b.url, key);
    expect((await onB.get(job.id)).status).toBe(200);
    expect(await generationsRunning(a), "the replica to stop is writing the job").toBe(1);
    a.process.kill("SIGSTOP");
    const stopped = performance.now();
    let resumed = 0;
    try {
      const taken = await onB.waitFor(job.id, (j) => j.runs === 2 || j.status !== "running", 120_000);
      expect(taken, "still running when the other replica took it over").toMatchObject({ status: "running", runs: 2 });
      console.log(`taken over ${((performance.now() - stopped) / 1000).toFixed(1)} s after the replica stopped`);
    } finally {
      a.process.kill("SIGCONT");
      resumed = performance.now();
    }
    // The resumed replica finds its lock gone and stops its run.
    while ((await generationsRunning(a)) > 0 && performance.now() - resumed < 10_000) await new Promise((r) => setTimeout(r, 50));
    const stoppedAfterMs = performance.now() - resumed;
    expect(await generationsRunning(a)).toBe(0);
    expect(stoppedAfterMs, "the resumed replica stopped generating").toBeLessThan(2000);
    console.log(`the resumed replica stopped generating ${Math.round(stoppedAfterMs)} ms after SIGCONT`);

    const done = await onB.waitFor(job.id, undefined, 300_000);
    expect(done).toMatchObject({ status: "succeeded", runs: 2 });
    await onB.waitFor(job.id, (j) => (j.webhook?.deliveries.length ?? 0) > 0, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const mine = receiver.received.filter((r) => (r.event as { data?: { id?: string } } | undefined)?.data?.id === job.id);
    expect(mine, "one webhook").toHaveLength(1);
    expect(mine[0]!.event).toMatchObject({ type: "job.succeeded", data: { status: "succeeded", runs: 2 } });
    const final = await (await onA.get(job.id)).json();
    expect(final.result.article.wordCount).toBe(done.result!.article.wordCount);
    expect(final.webhook.deliveries).toHaveLength(1);
    // The key paid for one article: the run that finished it. The run that lost the job counted nothing.
    expect(before - (await wordsLeft(b, key))).toBe(done.result!.article.wordCount);
    expect(a.output()).toContain(`job ${job.id}: this replica lost its lock on the job`);
    await Promise.all([a.stop(), b.stop()]);
  }, 400_000);

  it("answers 503 while Redis does not answer, and finishes the running job once it answers again", async () => {
    const server = await replica();
    const api = jobsApi(server.url, key);
    const job = await api.create({ ...LONG, length: 600, seed: 3 });
    await api.waitFor(job.id, (j) => j.status === "running" && j.progress.words > 0);
    redis.pause();
    try {
      const response = await api.get(job.id);
      expect(response.status).toBe(503);
      expect((await response.json()).detail).toMatch(/Redis/);
      await new Promise((resolve) => setTimeout(resolve, 5000));
      expect(server.process.exitCode).toBeNull();
    } finally {
      redis.resume();
    }
    const done = await api.waitFor(job.id, undefined, 180_000);
    expect(done.status).toBe("succeeded");
    expect((done.result as ArticleResponse | undefined)?.request.seed).toBe(3);
    await server.stop();
  }, 300_000);

  it("answers 503 while Redis is away, without crashing, and works again once it is back", async () => {
    const server = await replica();
    const api = jobsApi(server.url, key);
    await redis.kill();
    for (const response of [await api.submit({ topic: "Down", length: 100 }), await api.list(), await api.get(`job_${"0".repeat(32)}`)]) {
      expect(response.status).toBe(503);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
      expect((await response.json()).detail).toMatch(/Redis/);
    }
    expect(server.process.exitCode).toBeNull();
    await redis.start();
    const deadline = Date.now() + 20_000;
    let response = await api.submit({ topic: "Back", length: 100 });
    while (response.status === 503 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      response = await api.submit({ topic: "Back", length: 100 });
    }
    expect(response.status).toBe(202);
    const done = await api.waitFor((await response.json()).id, undefined, 120_000);
    expect(done.status).toBe("succeeded");
    await server.stop();
  }, 240_000);
});
