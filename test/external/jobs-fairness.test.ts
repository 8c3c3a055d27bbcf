import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Job } from "../../src/contract/job.js";
import { createKey, tempKeysFile } from "../helpers/cli.js";
import { jobsApi } from "../helpers/jobs.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";
import { startServer, testModel, type TestServer } from "../helpers/server.js";

/**
 * One key cannot take the job queue from the others: a per-key cap on waiting jobs
 * (`--jobs-per-key`, a quarter of `--jobs-queue-size` by default), and queued jobs start
 * round-robin across keys. Real server processes, one sequence (jobs run one at a time), with
 * the jobs in the data folder and in a real Redis.
 */
describe.each(["files", "redis"] as const)("a fair job queue (%s)", (storage) => {
  let redis: TestRedis | undefined;
  let model: string;
  let keysFile: string;
  let flooder: string;
  let other: string;
  const servers: TestServer[] = [];
  /** About 1.5 s on the test model: long enough to be seen queued behind another. */
  const article = (seed: number) => ({ topic: "Rainwater tanks for allotments", length: 300, seed });

  const serve = async (args: string[]) => {
    const redisArgs = redis ? ["--redis", redis.url] : [];
    const server = await startServer(
      model,
      { INKPRESS_API_KEYS: undefined, INKPRESS_KEYS_FILE: keysFile, INKPRESS_SEQUENCES: "1" },
      { args: [...redisArgs, ...args] },
    );
    servers.push(server);
    return server;
  };

  beforeAll(async () => {
    model = await testModel("plain");
    if (storage === "redis") redis = await startRedis();
    keysFile = await tempKeysFile();
    [flooder, other] = [
      await createKey(keysFile, "flood", ["--rate", "1000/min", "--concurrency", "4"]),
      await createKey(keysFile, "other", ["--rate", "1000/min"]),
    ];
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await redis?.stop();
  });

  it("with a queue of 4, a flooding key gets 429s naming its own limit while another key's job is taken and starts next", async () => {
    const server = await serve(["--jobs-queue-size", "4"]);
    const flood = jobsApi(server.url, flooder);
    const first = await flood.create(article(1));
    await flood.waitFor(first.id, (j) => j.status === "running");
    const second = await flood.create(article(2));
    const answers = await Promise.all([3, 4, 5, 6].map((seed) => flood.submit(article(seed))));
    for (const answer of answers) {
      expect(answer.status).toBe(429);
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await answer.json()).detail).toBe("This key has 1 job waiting, its limit (--jobs-per-key); retry once one has started.");
    }
    const othersJob = await jobsApi(server.url, other).create(article(7));
    const done = await jobsApi(server.url, other).waitFor(othersJob.id, undefined, 60_000);
    expect(done.status).toBe("succeeded");
    const secondNow = await flood.waitFor(second.id, () => true);
    // The flood's waiting job is the one job of the flood the other key may wait behind.
    if (secondNow.startedAt) expect(Date.parse(secondNow.startedAt)).toBeLessThan(Date.parse(done.startedAt!));
    await flood.waitFor(second.id);
    await server.stop();
  }, 120_000);

  it("starts another key's job after at most one more job of a key that floods the queue", async () => {
    const server = await serve(["--jobs-queue-size", "12", "--jobs-per-key", "4"]);
    const flood = jobsApi(server.url, flooder);
    const floodJobs: Job[] = [await flood.create(article(11))];
    await flood.waitFor(floodJobs[0]!.id, (j) => j.status === "running");
    for (const seed of [12, 13, 14, 15]) floodJobs.push(await flood.create(article(seed)));
    expect((await flood.submit(article(16))).status, "a fifth waiting job of the flood").toBe(429);
    const othersJob = await jobsApi(server.url, other).create(article(17));

    const started = await jobsApi(server.url, other).waitFor(othersJob.id, (j) => j.status !== "queued", 60_000);
    const floodStarted = await Promise.all(floodJobs.map(async (j) => flood.waitFor(j.id, () => true)));
    const before = floodStarted.filter((j) => j.startedAt && Date.parse(j.startedAt) < Date.parse(started.startedAt!));
    // The flood's running job, and at most one of its waiting ones.
    expect(before.length, `flood jobs started before the other key's: ${before.map((j) => j.id).join(", ")}`).toBeLessThanOrEqual(2);
    for (const job of floodJobs) await flood.cancel(job.id);
    await server.stop();
  }, 120_000);
});
