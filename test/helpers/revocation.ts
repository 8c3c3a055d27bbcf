import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Job } from "../../src/contract/job.js";
import { createKey, createKeyWithSecret, revokeKey, tempKeysFile } from "./cli.js";
import { waitFor } from "./http.js";
import { jobsApi } from "./jobs.js";
import { startRedis, type TestRedis } from "./redis.js";
import { startServer, testModel, type TestServer } from "./server.js";
import { fetchSse, type SseEvent } from "./sse.js";
import { startWebhookReceiver, type WebhookReceiver } from "./webhook-receiver.js";

/** 5,000 words: about half a minute on the random-weight test model, so it is caught mid-way. */
const LONG = { topic: "Keeping bees through a wet spring", length: 5000 };

/**
 * Revoking a key stops its work, not only its next requests; a DELETE racing a job's start
 * never leaves it generating. A real server process with two sequences, the real CLI, jobs
 * kept in the data folder's files or in a real Redis: revocation.test.ts and
 * revocation-redis.test.ts (the external tier, which has redis-server) each run one.
 */
export function describeRevocation(storage: "files" | "redis"): void {
  describe(`revocation stops work (${storage})`, () => {
    let server: TestServer;
    let redis: TestRedis | undefined;
    let keysFile: string;
    let receiver: WebhookReceiver;
    let victimKey: string;

    /** Generations running on the model now. */
    const running = async () => ((await (await fetch(`${server.url}/healthz`)).json()) as { queue: { running: number } }).queue.running;

    beforeAll(async () => {
      keysFile = await tempKeysFile();
      const created = await createKeyWithSecret(keysFile, "victim", ["--rate", "1000/min", "--concurrency", "2"]);
      victimKey = created.key;
      receiver = await startWebhookReceiver({ secret: created.secret });
      if (storage === "redis") redis = await startRedis();
      const args = ["--webhook-allow", "127.0.0.1", ...(redis ? ["--redis", redis.url] : [])];
      server = await startServer(
        await testModel("plain"),
        { INKPRESS_API_KEYS: undefined, INKPRESS_KEYS_FILE: keysFile, INKPRESS_SEQUENCES: "2" },
        { args },
      );
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
      await receiver?.close();
      await redis?.stop();
    });

    it("cancels the key's running and queued jobs with a signed job.cancelled, ends its stream with an error event and refuses its replays, within 5 s", async () => {
      const key = victimKey;
      const jobs = jobsApi(server.url, key);
      const short = { topic: "Bee hotels", length: 100 };
      expect((await server.generate(short, { "x-api-key": key, "idempotency-key": "replay-me" })).status).toBe(200);

      const runningJob = await jobs.create({ ...LONG, webhook: { url: receiver.url } });
      await jobs.waitFor(runningJob.id, (j) => j.status === "running" && j.progress.words > 0);
      const stream = await fetchSse(`${server.url}/api/v1/generate`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify({ ...LONG, stream: true }),
      });
      expect(stream.response.status).toBe(200);
      const events: SseEvent[] = [];
      const streamEnded = (async () => {
        for await (const event of stream.events) events.push(event);
      })();
      await waitFor(() => (events.some((e) => e.event === "delta") ? true : undefined), "the stream writing", 60_000);
      // The key's two slots are taken: this job waits in the queue.
      const queuedJob = await jobs.create({ ...LONG, webhook: { url: receiver.url } });
      expect((await jobs.get(queuedJob.id)).status).toBe(200);

      await revokeKey(keysFile, "victim");
      const revokedAt = Date.now();
      // The key can no longer read its jobs: their ends are told by their webhooks.
      const hooks = await receiver.waitFor(2, 5_000);
      await streamEnded;
      await waitFor(
        async () => ((await running()) === 0 ? true : undefined),
        "no generation left running",
        5_000 - (Date.now() - revokedAt),
        100,
      );
      console.log(`jobs cancelled, stream ended and the model idle ${Date.now() - revokedAt} ms after \`keys revoke\` returned`);

      expect(
        hooks.every((h) => h.verified),
        "signed with the revoked key's secret",
      ).toBe(true);
      const told = new Map(hooks.map((h) => [(h.event as { data: Job }).data.id, h.event as { type: string; data: Job }]));
      for (const job of [runningJob, queuedJob]) {
        expect(told.get(job.id)).toMatchObject({ type: "job.cancelled", data: { status: "cancelled", reason: "key revoked" } });
        expect(told.get(job.id)!.data.result).toBeUndefined();
      }
      expect(told.get(queuedJob.id)!.data.startedAt, "the queued job never started").toBeUndefined();
      if (redis) {
        // Read in Redis itself: the jobs lived there and ended there.
        const client = new Redis(redis.url);
        try {
          for (const job of [runningJob, queuedJob])
            expect(await client.hmget(`inkpress:job:${job.id}`, "status", "reason")).toEqual(['"cancelled"', '"key revoked"']);
        } finally {
          client.disconnect();
        }
      }

      const last = events.at(-1)!;
      expect(last.event).toBe("error");
      expect(JSON.parse(last.data)).toMatchObject({ status: 401, detail: "The API key was revoked; generation stopped." });
      expect(events.some((e) => e.event === "done")).toBe(false);
      expect((await jobs.get(runningJob.id)).status).toBe(401);
      const replay = await server.generate(short, { "x-api-key": key, "idempotency-key": "replay-me" });
      expect(replay.status).toBe(401);
      expect(replay.headers.get("idempotent-replayed")).toBeNull();
    }, 180_000);

    it("cancels a job for real when DELETE meets its start, or answers 409; never marks it cancelled while it generates", async () => {
      const key = await createKey(keysFile, "racer", ["--rate", "1000/min", "--concurrency", "1"]);
      await waitFor(
        async () => ((await server.generate({}, { "x-api-key": key })).status === 422 ? true : undefined),
        "the key accepted",
        5_000,
        100,
      );
      const jobs = jobsApi(server.url, key);
      const outcomes: number[] = [];
      for (let i = 0; i < 8; i++) {
        const job = await jobs.create({ ...LONG, seed: i });
        // From no wait to a few milliseconds: the DELETE lands before, at and after the start.
        await new Promise((resolve) => setTimeout(resolve, i));
        const cancel = await jobs.cancel(job.id);
        outcomes.push(cancel.status);
        expect([200, 409]).toContain(cancel.status);
        if (cancel.status !== 200) continue;
        await waitFor(async () => ((await running()) === 0 ? true : undefined), `job ${i} no longer generating`, 5_000, 50);
        const after = (await (await jobs.get(job.id)).json()) as Job;
        expect(after.status).toBe("cancelled");
        expect(after.result).toBeUndefined();
      }
      console.log(`DELETE at the start: ${outcomes.join(", ")}`);
    }, 180_000);
  });
}
