/**
 * An idempotency record: the request it belongs to (its fingerprint, so the same key reused
 * for another request can be told apart) and, once the request finished, its stored answer.
 */
export type IdempotencyRecord = { fingerprint: string; state: "pending" } | { fingerprint: string; state: "done"; value: string };

/** What `keys list` and the daily quota need to know of a key's use. */
export interface KeyActivity {
  /** ISO 8601; undefined when the key was never used. */
  lastUsed?: string;
  /** Words written today (UTC). */
  wordsToday: number;
}

/** A reservation of daily words: the UTC day it counts on, or the words left when it did not fit. */
export type WordReservation = { day: string } | { left: number };

/**
 * What inkpress keeps of the posts it publishes, shared as the rest of the key state is (a
 * process's data folder, or Redis for every replica): which key made each post, and the lock
 * that lets one publication of an article run at a time. A site is named by its base URL,
 * since its post ids are the site's, whatever target names it.
 */
export interface PublicationRecords {
  /** The owner (a key id, or `local` for the command line) of a post inkpress made on a site; undefined when it recorded none. */
  postOwner(site: string, postId: string): Promise<string | undefined>;

  /** Record that an owner made (or adopted) a post; a post already recorded keeps its first owner, which is answered. */
  recordPost(site: string, postId: string, owner: string): Promise<string>;

  /** Take the lock named `name` for `ttlMs`: a token to release it with, or undefined while another holds it. */
  lockPublication(name: string, ttlMs: number): Promise<string | undefined>;

  /** Release a lock; one that expired or is another's by now is left alone. */
  unlockPublication(name: string, token: string): Promise<void>;

  /** Let go of connections and timers. */
  close(): Promise<void>;
}

/**
 * The per-key state that limits and idempotency depend on. It sits behind one interface so
 * that one process keeps it locally (memory and files under the data folder) and any number
 * of replicas share it through Redis, with the same limiter and routes on top. Keys are
 * identified by id (`key_…`), never by the key itself nor by its name, which a later key may reuse.
 *
 * Every method may throw `StateUnavailableError` (a 503 to retry) when shared state is
 * unreachable; none of them hangs waiting for it.
 */
export interface KeyStorage extends PublicationRecords {
  /**
   * Count one request of a key in the fixed window that starts at `windowStart` (epoch ms)
   * and lasts `windowMs`; returns the count including this request. The caller picks the
   * window, so every replica agrees on its bounds.
   */
  countRequest(keyId: string, windowStart: number, windowMs: number): Promise<number>;

  /**
   * Take one of a key's `limit` concurrency slots; returns a lease id, or undefined when all
   * are held. A lease ends by itself after `ttlMs`, so a replica that died mid-generation
   * cannot hold a slot forever.
   */
  acquireLease(keyId: string, limit: number, ttlMs: number): Promise<string | undefined>;

  /** Give a slot back before its lease runs out. Releasing an expired lease does nothing. */
  releaseLease(keyId: string, lease: string): Promise<void>;

  /**
   * Note that a key was used now, and add `words` to its count of `day` (UTC, YYYY-MM-DD;
   * today by default). Negative words give back the unused part of a reservation.
   */
  recordUse(keyId: string, words: number, day?: string): Promise<void>;

  /**
   * Reserve `words` of a key's daily quota of `limit` words before a generation starts: counted
   * at once and in one step, so concurrent requests (on any replica) cannot together overspend.
   * Returns the day the words count on, or the words left when they do not fit (nothing reserved).
   */
  reserveWords(keyId: string, words: number, limit: number): Promise<WordReservation>;

  /** Last use and today's words of a key. */
  activity(keyId: string): Promise<KeyActivity>;

  /**
   * Claim an idempotency id for a request: undefined when the id was free (its record is now
   * pending, for `ttlMs`), otherwise the record already there, pending or done.
   */
  claimIdempotency(id: string, fingerprint: string, ttlMs: number): Promise<IdempotencyRecord | undefined>;

  /** Store the answer of a claimed request, kept for `ttlMs`, so a retry gets it again. */
  completeIdempotency(id: string, fingerprint: string, value: string, ttlMs: number): Promise<void>;

  /** Forget a claim (the request failed in a way worth retrying), so the id is free again. */
  releaseIdempotency(id: string): Promise<void>;

  /** Move what 0.1.0 recorded under key names (last use, words) to the ids that inherit those names. */
  adoptFormerOwners(owners: ReadonlyMap<string, string>): Promise<void>;

  /** Save what is pending and let go of connections and timers. */
  close(): Promise<void>;
}
