import { createHash, randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, keysCli, revokeKey, tempKeysFile } from "../helpers/cli.js";
import { waitFor } from "../helpers/http.js";
import { jobsApi } from "../helpers/jobs.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";
import { API_KEY, startServer, testModel, type TestServer } from "../helpers/server.js";

/**
 * Everything of a key belongs to its id, never to its name: a key created under a revoked
 * key's name, or a file key named like an INKPRESS_API_KEYS key, starts with nothing, and the
 * records of inkpress 0.1.0 (which belonged to names) migrate. Real server processes, real CLI,
 * against the data folder's files and against a real Redis.
 */
describe.each(["files", "redis"] as const)("key identity (%s)", (storage) => {
  let redis: TestRedis | undefined;
  let model: string;
  const servers: TestServer[] = [];
  const short = { topic: "Winter beekeeping", length: 100 };

  const serve = async (keysFile: string, env: Record<string, string | undefined> = {}) => {
    const server = await startServer(
      model,
      { INKPRESS_API_KEYS: undefined, INKPRESS_KEYS_FILE: keysFile, ...env },
      { args: redis ? ["--redis", redis.url] : [] },
    );
    servers.push(server);
    return server;
  };
  /** 422 (the body's fault) once the server accepts the key. */
  const acceptedBy = (server: TestServer, key: string) =>
    waitFor(
      async () => ((await server.generate({}, { "x-api-key": key })).status === 422 ? true : undefined),
      "the key accepted",
      5_000,
      100,
    );

  beforeAll(async () => {
    model = await testModel("plain");
    if (storage === "redis") redis = await startRedis();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await redis?.stop();
  });

  it("gives a key created under a revoked key's name none of its jobs, lists or Idempotency-Key answers", async () => {
    const keysFile = await tempKeysFile();
    const oldBob = await createKey(keysFile, "bob", ["--rate", "1000/min"]);
    const server = await serve(keysFile);
    const before = jobsApi(server.url, oldBob);
    const job = await before.create(short, { "idempotency-key": "row-1" });
    expect((await before.waitFor(job.id)).status).toBe("succeeded");
    const generated = await server.generate(short, { "x-api-key": oldBob, "idempotency-key": "gen-1" });
    expect(generated.status).toBe(200);
    const oldId = (await readKeys(keysFile)).find((k) => k.name === "bob")!.id;

    await revokeKey(keysFile, "bob");
    const newBob = await createKey(keysFile, "bob", ["--rate", "1000/min"]);
    await acceptedBy(server, newBob);
    const active = (await readKeys(keysFile)).filter((k) => k.name === "bob" && !k.revoked);
    expect(active).toHaveLength(1);
    expect(active[0]!.id).toMatch(/^key_[0-9a-f]{24}$/);
    expect(active[0]!.id).not.toBe(oldId);
    const list = await keysCli(keysFile, ["list"]);
    expect(
      list.stdout
        .split("\n")
        .filter((l) => l.startsWith("bob "))
        .map((l) => l.split(/ {2,}/)[1]),
    ).toEqual([active[0]!.id]);

    const after = jobsApi(server.url, newBob);
    expect((await after.get(job.id)).status, "the old bob's job").toBe(404);
    expect((await (await after.list()).json()).data, "the old bob's jobs listed").toEqual([]);
    const resubmitted = await after.submit(short, { "idempotency-key": "row-1" });
    expect(resubmitted.status).toBe(202);
    expect(resubmitted.headers.get("idempotent-replayed")).toBeNull();
    const fresh = (await resubmitted.json()) as { id: string };
    expect(fresh.id).not.toBe(job.id);
    expect((await after.waitFor(fresh.id)).status).toBe("succeeded");
    const regenerated = await server.generate(short, { "x-api-key": newBob, "idempotency-key": "gen-1" });
    expect(regenerated.status).toBe(200);
    expect(regenerated.headers.get("idempotent-replayed")).toBeNull();
    // The revoked key itself gets nothing back, its Idempotency-Key answers included.
    expect((await before.submit(short, { "idempotency-key": "row-1" })).status).toBe(401);
    expect((await server.generate(short, { "x-api-key": oldBob, "idempotency-key": "gen-1" })).status).toBe(401);
    await server.stop();
  }, 240_000);

  it("refuses to create a key named env-N, and gives an env-1 key of an old key file nothing of the environment key, its own quota included", async () => {
    const keysFile = await tempKeysFile();
    const refused = await keysCli(keysFile, ["create", "--name", "env-1"]);
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toBe('inkpress: the name "env-1" is reserved for INKPRESS_API_KEYS keys; choose another\n');
    // A key file of 0.1.0, which let a stored key take the name env-1, with a 200-word quota.
    const fileKey = `ink_${randomBytes(24).toString("base64url")}`;
    await writeLegacyKeys(keysFile, [
      { name: "env-1", key: fileKey, limits: { rate: { requests: 1000, windowS: 60 }, concurrency: 1, dailyWords: 200 } },
    ]);
    const server = await serve(keysFile, { INKPRESS_API_KEYS: API_KEY });

    const envJobs = jobsApi(server.url, API_KEY);
    const fileJobs = jobsApi(server.url, fileKey);
    const envJob = await envJobs.create(short);
    expect((await envJobs.waitFor(envJob.id)).status).toBe("succeeded");
    expect((await fileJobs.get(envJob.id)).status).toBe(404);
    expect((await (await fileJobs.list()).json()).data).toEqual([]);

    // Its jobs run under its own limits: the first one spends half the quota, the second's 165 words do not fit.
    const first = await fileJobs.create({ ...short, length: 100 });
    expect((await fileJobs.waitFor(first.id)).status).toBe("succeeded");
    const second = await fileJobs.create({ ...short, length: 150 });
    const ended = await fileJobs.waitFor(second.id);
    expect(ended.status).toBe("failed");
    expect(ended.error).toMatchObject({
      status: 429,
      detail: expect.stringMatching(/daily quota of 200 words has \d+ words left today; this request needs 165/),
    });
    expect((await envJobs.get(first.id)).status).toBe(404);
    await server.stop();
  }, 240_000);

  it("migrates 0.1.0 records: the active key keeps its name's jobs and usage, a revoked name's jobs stay unreadable to everyone", async () => {
    const keysFile = await tempKeysFile();
    const dataDir = await mkdtemp(path.join(tmpdir(), "inkpress-data-"));
    const carolKey = `ink_${randomBytes(24).toString("base64url")}`;
    await writeLegacyKeys(keysFile, [
      { name: "carol", key: carolKey, limits: { rate: { requests: 1000, windowS: 60 }, concurrency: 1, dailyWords: 100 } },
    ]);
    const carolJob = legacyJob("carol");
    const daveJob = legacyJob("dave"); // dave was revoked under 0.1.0: removed from the key file
    await writeLegacyState({ dataDir, keysFile, redis, jobs: [carolJob, daveJob], words: { carol: 90 } });
    const server = await serve(keysFile, { INKPRESS_DATA_DIR: dataDir });

    const carol = jobsApi(server.url, carolKey);
    // Redis may be reached a moment after the start: the migration follows within seconds.
    const read = await waitFor(
      async () => {
        const answer = await carol.get(carolJob.id);
        return answer.status === 200 ? answer : undefined;
      },
      "carol's 0.1.0 job readable",
      10_000,
      200,
    );
    expect(await read.json()).toMatchObject({ id: carolJob.id, status: "succeeded" });
    expect(read.headers.get("ratelimit"), "carol's words of today, recorded under her name, count").toMatch(/"daily-words";r=10;/);
    expect((await (await carol.list()).json()).data.map((j: { id: string }) => j.id)).toEqual([carolJob.id]);
    expect((await carol.get(daveJob.id)).status).toBe(404);

    const newDave = await createKey(keysFile, "dave");
    await acceptedBy(server, newDave);
    const dave = jobsApi(server.url, newDave);
    expect((await dave.get(daveJob.id)).status).toBe(404);
    expect((await (await dave.list()).json()).data).toEqual([]);
    // The CLI wrote the file anew (version 2): carol's id is the one the server derived, so her jobs stay hers.
    expect((await readKeys(keysFile)).find((k) => k.name === "carol")).toMatchObject({
      id: expect.stringMatching(/^key_/),
      formerOwner: "carol",
    });
    await acceptedBy(server, carolKey);
    expect((await carol.get(carolJob.id)).status).toBe(200);
    await server.stop();
  }, 240_000);
});

interface StoredKey {
  id: string;
  name: string;
  revoked?: string;
  formerOwner?: string;
}

async function readKeys(keysFile: string): Promise<StoredKey[]> {
  return JSON.parse(await readFile(keysFile, "utf8")).keys;
}

/** A key file as inkpress 0.1.0 wrote it: version 1, no ids, revoked keys removed. */
async function writeLegacyKeys(keysFile: string, keys: { name: string; key: string; limits: unknown }[]): Promise<void> {
  const records = keys.map(({ name, key, limits }) => ({
    name,
    digest: createHash("sha256").update(key).digest("hex"),
    prefix: key.slice(0, 8),
    created: new Date().toISOString(),
    limits,
    webhookSecret: `whsec_${randomBytes(24).toString("base64")}`,
  }));
  await writeFile(keysFile, JSON.stringify({ version: 1, keys: records }), { mode: 0o600 });
}

/** A finished job of 0.1.0: its owner is a key's name. */
function legacyJob(owner: string) {
  const now = Date.now();
  return {
    id: `job_${randomBytes(16).toString("hex")}`,
    object: "job",
    owner,
    status: "succeeded",
    createdAt: new Date(now - 60_000).toISOString(),
    finishedAt: new Date(now - 30_000).toISOString(),
    expiresAt: new Date(now + 86_400_000).toISOString(),
    runs: 1,
    progress: { words: 120 },
    request: { topic: `${owner}'s old article`, length: 100 },
  };
}

/** Jobs and today's words as 0.1.0 stored them: under key names, in the data folder or in Redis. */
async function writeLegacyState(state: {
  dataDir: string;
  keysFile: string;
  redis: TestRedis | undefined;
  jobs: ReturnType<typeof legacyJob>[];
  words: Record<string, number>;
}): Promise<void> {
  const day = new Date().toISOString().slice(0, 10);
  if (!state.redis) {
    await mkdir(path.join(state.dataDir, "jobs"), { recursive: true });
    for (const job of state.jobs) await writeFile(path.join(state.dataDir, "jobs", `${job.id}.json`), JSON.stringify(job));
    const usage = Object.fromEntries(
      Object.entries(state.words).map(([name, words]) => [name, { lastUsed: new Date().toISOString(), day, words }]),
    );
    await writeFile(state.keysFile.replace(/\.json$/, ".usage.json"), JSON.stringify(usage));
    return;
  }
  const client = new Redis(state.redis.url);
  try {
    for (const job of state.jobs) {
      const hash = Object.fromEntries(Object.entries(job).map(([field, value]) => [field, JSON.stringify(value)]));
      await client
        .multi()
        .hset(`inkpress:job:${job.id}`, hash)
        .zadd(`inkpress:jobs:${job.owner}`, Date.parse(job.createdAt), job.id)
        .exec();
    }
    for (const [name, words] of Object.entries(state.words)) await client.hset(`inkpress:words:${day}`, name, words);
  } finally {
    client.disconnect();
  }
}
