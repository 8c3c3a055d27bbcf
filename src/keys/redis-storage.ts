import { createHash, randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { InkpressError } from "../errors.js";
import { REDIS_PREFIX, StateUnavailableError, connectRedis, shared } from "../redis.js";
import type { IdempotencyRecord, KeyActivity, KeyStorage, WordReservation } from "./storage.js";
import { utcDay } from "./usage.js";

/** Daily word counts are kept a day longer than their day, so a count is never lost at midnight in another time zone's replica. */
const WORDS_TTL_MS = 2 * 86_400_000;

/**
 * Drop expired leases, then take a slot if one is free: in one script, so two replicas
 * cannot both take the last slot. Redis's clock dates the leases, one clock for all replicas.
 * KEYS[1]: the key's lease set; ARGV: limit, ttl ms, lease id. Returns 1 when taken.
 */
const ACQUIRE_LEASE = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/**
 * Reserve words of a key's daily quota if they fit, in one script so that replicas cannot both
 * take the last words. KEYS[1]: the day's word counts; ARGV: key id, words, limit, ttl ms.
 * Returns {1, 0} when reserved, {0, words left} when not.
 */
const RESERVE_WORDS = `
local used = tonumber(redis.call('HGET', KEYS[1], ARGV[1]) or '0')
local limit = tonumber(ARGV[3])
if used + tonumber(ARGV[2]) > limit then return {0, math.max(0, limit - used)} end
redis.call('HINCRBY', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return {1, 0}
`;

/** Delete a lock only while it is still the caller's. KEYS[1]: the lock; ARGV[1]: its token. */
const UNLOCK = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

const hashed = (text: string) => createHash("sha256").update(text).digest("hex");

const key = {
  window: (keyId: string, windowMs: number, start: number) => `${REDIS_PREFIX}rate:${keyId}:${windowMs}:${start}`,
  leases: (keyId: string) => `${REDIS_PREFIX}leases:${keyId}`,
  words: (day: string) => `${REDIS_PREFIX}words:${day}`,
  lastUsed: `${REDIS_PREFIX}last-used`,
  idempotency: (id: string) => `${REDIS_PREFIX}idempotency:${hashed(id)}`,
  posts: `${REDIS_PREFIX}post-owners`,
  post: (site: string, postId: string) => `${site}\0${postId}`,
  publication: (name: string) => `${REDIS_PREFIX}publication-lock:${hashed(name)}`,
};

/**
 * Per-key state shared by every replica through Redis: request windows as counters that
 * expire with their window, leases as a sorted set scored by expiry, words per day as one
 * hash per UTC day, last use as one hash, idempotency records as strings with an expiry, the
 * posts' owners as one hash, publication locks as strings with an expiry.
 * While Redis is away every call throws `StateUnavailableError` (a 503) at once.
 */
export class RedisKeyStorage implements KeyStorage {
  constructor(private readonly redis: Redis) {}

  /** For a server: commands fail fast while Redis is away, and the connection comes back by itself. */
  static connect(url: string): RedisKeyStorage {
    return new RedisKeyStorage(connectRedis(url, "keys"));
  }

  /** For a one-shot command: connected now, or a one-line error naming the Redis it could not reach. */
  static async connectOnce(url: string): Promise<RedisKeyStorage> {
    const redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      connectTimeout: 2000,
      retryStrategy: () => null,
    });
    // connect() rejects with a bare "Connection is closed"; the socket's error says why.
    let reason: Error | undefined;
    redis.on("error", (error: Error) => (reason = error));
    try {
      await redis.connect();
    } catch (error) {
      redis.disconnect();
      const cause = reason ?? (error as Error);
      throw new InkpressError(`cannot reach Redis at ${new URL(url).host} (INKPRESS_REDIS_URL): ${cause.message}`, { status: 503, cause });
    }
    return new RedisKeyStorage(redis);
  }

  async countRequest(keyId: string, windowStart: number, windowMs: number): Promise<number> {
    const counter = key.window(keyId, windowMs, windowStart);
    const [count] = await this.transaction(
      this.redis
        .multi()
        .incr(counter)
        .pexpireat(counter, windowStart + windowMs + 1000),
    );
    return count as number;
  }

  async acquireLease(keyId: string, limit: number, ttlMs: number): Promise<string | undefined> {
    const lease = randomUUID();
    const taken = await shared(this.redis.eval(ACQUIRE_LEASE, 1, key.leases(keyId), limit, ttlMs, lease));
    return taken === 1 ? lease : undefined;
  }

  async releaseLease(keyId: string, lease: string): Promise<void> {
    await shared(this.redis.zrem(key.leases(keyId), lease));
  }

  async recordUse(keyId: string, words: number, day = utcDay()): Promise<void> {
    const counts = key.words(day);
    const transaction = this.redis.multi().hset(key.lastUsed, keyId, new Date().toISOString());
    if (words !== 0) transaction.hincrby(counts, keyId, words).pexpire(counts, WORDS_TTL_MS);
    await this.transaction(transaction);
  }

  async reserveWords(keyId: string, words: number, limit: number): Promise<WordReservation> {
    const day = utcDay();
    const [reserved, left] = (await shared(this.redis.eval(RESERVE_WORDS, 1, key.words(day), keyId, words, limit, WORDS_TTL_MS))) as [
      number,
      number,
    ];
    return reserved === 1 ? { day } : { left };
  }

  async activity(keyId: string): Promise<KeyActivity> {
    const [lastUsed, words] = await this.transaction(this.redis.multi().hget(key.lastUsed, keyId).hget(key.words(utcDay()), keyId));
    return { ...(typeof lastUsed === "string" && { lastUsed }), wordsToday: Number(words ?? 0) };
  }

  async adoptFormerOwners(owners: ReadonlyMap<string, string>): Promise<void> {
    const today = key.words(utcDay());
    for (const [name, id] of owners) {
      // HSETNX: a replica that migrated first, or use already recorded under the id, wins.
      const [lastUsed, words] = await this.transaction(this.redis.multi().hget(key.lastUsed, name).hget(today, name));
      const move = this.redis.multi().hdel(key.lastUsed, name).hdel(today, name);
      if (typeof lastUsed === "string") move.hsetnx(key.lastUsed, id, lastUsed);
      if (typeof words === "string") move.hsetnx(today, id, words);
      if (lastUsed !== null || words !== null) await this.transaction(move);
    }
  }

  async claimIdempotency(id: string, fingerprint: string, ttlMs: number): Promise<IdempotencyRecord | undefined> {
    const record = key.idempotency(id);
    const pending = JSON.stringify({ fingerprint, state: "pending" } satisfies IdempotencyRecord);
    // A record expiring between the two commands leaves nothing to read: claim again.
    for (;;) {
      if ((await shared(this.redis.set(record, pending, "PX", ttlMs, "NX"))) === "OK") return undefined;
      const existing = await shared(this.redis.get(record));
      if (existing !== null) return JSON.parse(existing) as IdempotencyRecord;
    }
  }

  async completeIdempotency(id: string, fingerprint: string, value: string, ttlMs: number): Promise<void> {
    await shared(
      this.redis.set(key.idempotency(id), JSON.stringify({ fingerprint, state: "done", value } satisfies IdempotencyRecord), "PX", ttlMs),
    );
  }

  async releaseIdempotency(id: string): Promise<void> {
    await shared(this.redis.del(key.idempotency(id)));
  }

  async postOwner(site: string, postId: string): Promise<string | undefined> {
    return (await shared(this.redis.hget(key.posts, key.post(site, postId)))) ?? undefined;
  }

  async recordPost(site: string, postId: string, owner: string): Promise<string> {
    const field = key.post(site, postId);
    // HSETNX: the first owner stays, whichever replica records second.
    const [, first] = await this.transaction(this.redis.multi().hsetnx(key.posts, field, owner).hget(key.posts, field));
    return first as string;
  }

  async lockPublication(name: string, ttlMs: number): Promise<string | undefined> {
    const token = randomUUID();
    return (await shared(this.redis.set(key.publication(name), token, "PX", ttlMs, "NX"))) === "OK" ? token : undefined;
  }

  async unlockPublication(name: string, token: string): Promise<void> {
    await shared(this.redis.eval(UNLOCK, 1, key.publication(name), token));
  }

  async close(): Promise<void> {
    // QUIT waits for replies in flight; while Redis is away there is nothing to wait for.
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** Run a MULTI; its results, or `StateUnavailableError` when it (or any command in it) failed. */
  private async transaction(multi: ReturnType<Redis["multi"]>): Promise<unknown[]> {
    const results = await shared(multi.exec());
    const failed = results?.find(([error]) => error);
    if (!results || failed) throw new StateUnavailableError(failed?.[0]);
    return results.map(([, value]) => value);
  }
}
