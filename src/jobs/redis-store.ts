import { DelayedError, Queue, Worker, type Job as QueuedJob } from "bullmq";
import { Redis } from "ioredis";
import { WorkLostError } from "../generation/errors.js";
import { log } from "../log.js";
import { REDIS_PREFIX, connectRedis, shared } from "../redis.js";
import type { JobRecord } from "./job.js";
import type { JobStatus } from "../contract/job.js";
import { cursorAfter, newerFirst, readCursor, type JobPage, type JobQuery, type JobRunner, type JobStore } from "./store.js";

/**
 * How long a replica's claim on a running job lasts unless renewed: BullMQ renews it every
 * 4–8 s while the replica lives, so a replica that stops (dies, or stands still) loses it
 * 7.5–15 s after. Long enough for a busy event loop, short enough for a quick takeover.
 */
const LOCK_MS = 15_000;
/**
 * How often each replica looks for claims that lapsed: a job is taken over at the first look
 * that finds its lock gone, 7.5–20 s after its replica stopped, plus the moment another replica
 * needs to start it.
 */
const STALLED_CHECK_MS = 5_000;

/**
 * Change a job's fields only if its status is one of ARGV[1] (comma-separated; empty: any) and its
 * runs are ARGV[3] (empty: any). ARGV[2]: purge time in ms or empty. Then field/value pairs; an
 * empty value removes the field.
 */
const UPDATE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 0 then return nil end
if ARGV[1] ~= '' then
  local status = cjson.decode(redis.call('HGET', KEYS[1], 'status'))
  local allowed = false
  for s in string.gmatch(ARGV[1], '[^,]+') do if s == status then allowed = true end end
  if not allowed then return nil end
end
if ARGV[3] ~= '' and tonumber(redis.call('HGET', KEYS[1], 'runs') or '-1') ~= tonumber(ARGV[3]) then return nil end
for i = 4, #ARGV, 2 do
  if ARGV[i + 1] == '' then redis.call('HDEL', KEYS[1], ARGV[i]) else redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
end
if ARGV[2] ~= '' then redis.call('PEXPIREAT', KEYS[1], ARGV[2]) end
return redis.call('HGETALL', KEYS[1])
`;

const jobKey = (id: string) => `${REDIS_PREFIX}job:${id}`;
const ownerKey = (owner: string) => `${REDIS_PREFIX}jobs:${owner}`;
/** The ids of a key's jobs that wait to start. */
const waitingKey = (owner: string) => `${REDIS_PREFIX}jobs-waiting:${owner}`;
/** BullMQ's lowest priority: a key's job never ranks below it. */
const LOWEST_PRIORITY = 2_097_151;
const ABORT_CHANNEL = `${REDIS_PREFIX}jobs:abort`;
/** BullMQ's own keys live under this prefix. */
const QUEUE_PREFIX = `${REDIS_PREFIX}bull`;

type Updatable = Redis & { updateJob(key: string, ...args: string[]): Promise<string[] | null> };

/**
 * Jobs shared by every replica on one Redis. Each job is a hash (one JSON value a field, so a
 * status can be compared and set atomically) indexed per key in a sorted set; BullMQ moves
 * jobs to workers, takes over the jobs of replicas that died, and delays retries and webhook
 * deliveries. A job's BullMQ priority is its rank among its key's waiting jobs (1 for a key
 * with none waiting), so keys take turns: a key's flood ranks 1, 2, 3… and another key's
 * first job ranks 1, behind at most one job of the flood.
 */
export class RedisJobStore implements JobStore {
  private readonly redis: Updatable;
  private readonly subscriber: Redis;
  private readonly queue: Queue;
  private readonly deliveries: Queue;
  private readonly workers: Worker[] = [];

  constructor(private readonly url: string) {
    this.redis = connectRedis(url, "jobs") as Updatable;
    this.redis.defineCommand("updateJob", { numberOfKeys: 1, lua: UPDATE_SCRIPT });
    const connection = connectRedis(url, "queue");
    this.queue = new Queue("jobs", { connection, prefix: QUEUE_PREFIX });
    this.deliveries = new Queue("webhooks", { connection, prefix: QUEUE_PREFIX });
    this.queue.on("error", () => {});
    this.deliveries.on("error", () => {});
    this.subscriber = connectRedis(url, "abort");
  }

  async add(job: JobRecord): Promise<void> {
    const results = await shared(
      this.redis
        .multi()
        .hset(jobKey(job.id), encode(job))
        .zadd(ownerKey(job.owner), Date.parse(job.createdAt), job.id)
        .sadd(waitingKey(job.owner), job.id)
        .scard(waitingKey(job.owner))
        .exec(),
    );
    const rank = Math.min(LOWEST_PRIORITY, Number(results?.[3]?.[1] ?? 1));
    await shared(this.queue.add("run", {}, { jobId: job.id, priority: rank, removeOnComplete: true, removeOnFail: true }));
  }

  async get(id: string): Promise<JobRecord | undefined> {
    return decode(await shared(this.redis.hgetall(jobKey(id))));
  }

  async update(id: string, change: Partial<JobRecord>, from?: readonly JobStatus[], run?: number): Promise<JobRecord | undefined> {
    const fields = Object.entries(change).flatMap(([field, value]) => [field, value === undefined ? "" : JSON.stringify(value)]);
    const purgeAt = change.expiresAt ? String(Date.parse(change.expiresAt)) : "";
    const pairs = await shared(
      this.redis.updateJob(jobKey(id), (from ?? []).join(","), purgeAt, run === undefined ? "" : String(run), ...fields),
    );
    if (!pairs) return undefined;
    const job = decode(Object.fromEntries(pairs.flatMap((_, i) => (i % 2 ? [] : [[pairs[i], pairs[i + 1]]]))));
    if (change.status === "cancelled" && job) {
      await shared(this.redis.srem(waitingKey(job.owner), id));
      await shared(this.queue.remove(id)).catch(() => {});
    }
    return job;
  }

  async list(owner: string, { status, cursor, limit }: JobQuery): Promise<JobPage> {
    const after = cursor ? readCursor(cursor) : undefined;
    const found: JobRecord[] = [];
    const batch = 100;
    for (let offset = 0; found.length <= limit; offset += batch) {
      const max = after ? String(after.time) : "+inf";
      const ids = await shared(this.redis.zrevrangebyscore(ownerKey(owner), max, "-inf", "LIMIT", offset, batch));
      if (!ids.length) break;
      const pipeline = this.redis.pipeline();
      for (const id of ids) pipeline.hgetall(jobKey(id));
      const hashes = (await shared(pipeline.exec())) ?? [];
      const gone: string[] = [];
      ids.forEach((id, i) => {
        const job = decode(hashes[i]?.[1] as Record<string, string>);
        if (!job) {
          gone.push(id);
          return;
        }
        if (status && job.status !== status) return;
        if (after && newerFirst(after, { time: Date.parse(job.createdAt), id }) >= 0) return;
        found.push(job);
      });
      // Purged jobs leave their index entry behind; tidy it on the way.
      if (gone.length) await shared(this.redis.zrem(ownerKey(owner), ...gone));
    }
    found.sort((a, b) => newerFirst({ time: Date.parse(a.createdAt), id: a.id }, { time: Date.parse(b.createdAt), id: b.id }));
    const jobs = found.slice(0, limit);
    return { jobs, nextCursor: found.length > limit ? cursorAfter(jobs.at(-1)!) : null };
  }

  async waiting(owner?: string): Promise<number> {
    if (owner !== undefined) return shared(this.redis.scard(waitingKey(owner)));
    return shared(this.queue.getJobCountByTypes("waiting", "delayed", "prioritized"));
  }

  async adoptOwners(owners: ReadonlyMap<string, string>): Promise<void> {
    for (const [name, id] of owners) {
      const jobs = await shared(this.redis.zrange(ownerKey(name), 0, -1, "WITHSCORES"));
      const waiting = await shared(this.redis.smembers(waitingKey(name)));
      if (!jobs.length && !waiting.length) continue;
      const move = this.redis.multi();
      for (let i = 0; i < jobs.length; i += 2)
        move.zadd(ownerKey(id), jobs[i + 1]!, jobs[i]!).hset(jobKey(jobs[i]!), "owner", JSON.stringify(id));
      if (waiting.length) move.sadd(waitingKey(id), ...waiting);
      await shared(move.del(ownerKey(name), waitingKey(name)).exec());
    }
  }

  process(run: JobRunner, concurrency: number): void {
    /** The runs of this replica, each stopped by a cancel, a shutdown or a lost lock. */
    const running = new Map<string, AbortController>();
    const worker = this.worker(
      "jobs",
      async (job, token, signal) => {
        // The owner as the job says now (a migration may have given it to an id since it was queued).
        const stored = await shared(this.redis.hget(jobKey(job.id!), "owner"));
        const owner = stored ? (JSON.parse(stored) as string) : undefined;
        if (owner) await shared(this.redis.srem(waitingKey(owner), job.id!));
        const stop = new AbortController();
        signal?.addEventListener("abort", () => stop.abort(signal.reason), { once: true });
        running.set(job.id!, stop);
        const later = await run(job.id!, stop.signal).finally(() => running.delete(job.id!));
        if (!later) return;
        if (owner) await shared(this.redis.sadd(waitingKey(owner), job.id!));
        await job.moveToDelayed(Date.now() + later.delayMs, token);
        // BullMQ's own signal that the job moved itself to the delayed set.
        throw new DelayedError();
      },
      concurrency,
    );
    // A lock that could not be renewed is lost: the lock lapsed while this replica stood still and
    // another runs the job now, so this run stops at once (its writes are fenced off anyway).
    worker.on("lockRenewalFailed", (ids) => {
      for (const id of ids) {
        if (!running.has(id)) continue;
        log.warn(`job ${id}: this replica lost its lock on the job (another replica runs it now); its run stops without a result`);
        running.get(id)!.abort(new WorkLostError());
      }
    });
    // A cancel reaches every replica; only the one running the job has it to abort.
    void this.subscriber.subscribe(ABORT_CHANNEL).catch(() => {});
    this.subscriber.on("message", (_channel, id: string) => worker.cancelJob(id, "cancelled"));
  }

  async abort(id: string): Promise<void> {
    await shared(this.redis.publish(ABORT_CHANNEL, id));
  }

  async deliverLater(id: string, delayMs: number): Promise<void> {
    // One scheduled delivery per job and due time: a retried add cannot send twice.
    await shared(
      this.deliveries.add(
        "deliver",
        { id },
        { delay: delayMs, jobId: `${id}-${Date.now() + delayMs}`, removeOnComplete: true, removeOnFail: true },
      ),
    );
  }

  processDeliveries(deliver: (id: string) => Promise<void>): void {
    this.worker("webhooks", (job) => deliver((job.data as { id: string }).id), 4);
  }

  async close(): Promise<void> {
    for (const worker of this.workers) worker.cancelAllJobs("the server is shutting down");
    await Promise.all(this.workers.map((w) => w.close()));
    await Promise.all([this.queue.close(), this.deliveries.close()]);
    this.subscriber.disconnect();
    this.redis.disconnect();
  }

  private worker(
    name: string,
    processor: (job: QueuedJob, token?: string, signal?: AbortSignal) => Promise<void>,
    concurrency: number,
  ): Worker {
    const worker = new Worker(name, processor, {
      connection: new Redis(this.url, { maxRetriesPerRequest: null }),
      prefix: QUEUE_PREFIX,
      concurrency,
      lockDuration: LOCK_MS,
      stalledInterval: STALLED_CHECK_MS,
      maxStalledCount: 10,
    });
    let reported = false;
    worker.on("error", (error) => {
      if (!reported) log.error(`job worker (${name}): ${error.message}`);
      reported = true;
    });
    worker.on("ready", () => (reported = false));
    this.workers.push(worker);
    return worker;
  }
}

function encode(job: JobRecord): Record<string, string> {
  return Object.fromEntries(
    Object.entries(job)
      .filter(([, value]) => value !== undefined)
      .map(([field, value]) => [field, JSON.stringify(value)]),
  );
}

function decode(hash: Record<string, string> | undefined): JobRecord | undefined {
  if (!hash?.id) return undefined;
  return Object.fromEntries(Object.entries(hash).map(([field, value]) => [field, JSON.parse(value)])) as JobRecord;
}
