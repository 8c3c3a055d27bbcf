import { mostWords } from "../article/index.js";
import { InkpressError } from "../errors.js";
import { log } from "../log.js";
import type { ApiKey } from "./registry.js";
import type { KeyStorage } from "./storage.js";

/** How the limiter holds concurrency slots. */
export interface KeyLimiterOptions {
  /**
   * The longest a generation may run (the request deadline). A slot's lease lasts this plus
   * a minute: long enough for any live generation, short enough that a replica that died
   * mid-generation frees its slots soon.
   */
  generationMs: number;
}

/** Words reserved by a running generation, and the day they count on. */
interface Reserved {
  day: string;
  words: number;
}

/** What a lease lasts beyond the request deadline: the generation's end being recorded, clocks a little apart. */
const LEASE_MARGIN_MS = 60_000;

/**
 * Per-key limits: requests per fixed window, generations at once, and words per UTC
 * day. Their state is announced on every authenticated response with the IETF draft
 * `RateLimit-Policy` and `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers).
 * The counts live in a {@link KeyStorage}: this process's, or Redis shared by replicas.
 */
export class KeyLimiter {
  private readonly leaseMs: number;

  constructor(
    private readonly storage: KeyStorage,
    options: KeyLimiterOptions,
  ) {
    this.leaseMs = options.generationMs + LEASE_MARGIN_MS;
  }

  /**
   * Count one request of a key. Returns the rate-limit headers for the response;
   * throws a 429 (with the same headers and Retry-After) when the window is spent.
   */
  async admit(key: ApiKey): Promise<Record<string, string>> {
    const { requests, windowS } = key.limits.rate;
    const now = Date.now();
    const windowMs = windowS * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    const [count, wordsToday] = await Promise.all([this.storage.countRequest(key.id, start, windowMs), this.wordsToday(key)]);
    const reset = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
    const headers = this.headers(key, requests - count, reset, wordsToday);
    if (count > requests)
      throw new LimitError("rate", `The rate limit of ${requests} requests per ${windowS} s is reached.`, reset, headers);
    await this.storage.recordUse(key.id, 0);
    return headers;
  }

  /**
   * Start a generation of `length` words for a key: throws a 429 when the key already runs its
   * maximum, or when its reservation (the most words its article may have, {@link mostWords}: 800 gives 880) does not fit in the daily words left.
   * Call `end` with the words written when it settles: the unused part of the reservation is
   * given back then.
   */
  async begin(key: ApiKey, headers: Record<string, string>, length: number): Promise<{ end(words: number): Promise<void> }> {
    const { concurrency } = key.limits;
    const lease = await this.storage.acquireLease(key.id, concurrency, this.leaseMs);
    if (lease === undefined) {
      throw new LimitError(
        "concurrency",
        `This key already runs ${concurrency} generation${concurrency === 1 ? "" : "s"} at once, its limit.`,
        1,
        headers,
      );
    }
    let reservation: Reserved | undefined;
    try {
      reservation = await this.reserve(key, headers, mostWords(length));
    } catch (error) {
      await this.storage.releaseLease(key.id, lease).catch(() => {});
      throw error;
    }
    let ended = false;
    return {
      // The article is written by now: state that cannot be reached must not fail it. The
      // lease then runs out by itself; the words are logged, not counted (a reservation stays counted).
      end: async (words) => {
        if (ended) return;
        ended = true;
        const counted = words - (reservation?.words ?? 0);
        await Promise.all([
          this.storage.releaseLease(key.id, lease),
          counted !== 0 && this.storage.recordUse(key.id, counted, reservation?.day),
        ]).catch((error: Error) =>
          log.error(
            `key "${key.name}": the end of a generation (${words} words) was not recorded, its slot frees itself later: ${error.message}`,
          ),
        );
      },
    };
  }

  /** Take `words` of the key's daily quota, if it has one; a 429 naming the words left when they do not fit. */
  private async reserve(key: ApiKey, headers: Record<string, string>, words: number): Promise<Reserved | undefined> {
    const { dailyWords } = key.limits;
    if (dailyWords === undefined) return undefined;
    const reserved = await this.storage.reserveWords(key.id, words, dailyWords);
    if ("day" in reserved) return { day: reserved.day, words };
    throw new LimitError(
      "daily-words",
      `The daily quota of ${dailyWords} words has ${reserved.left} word${reserved.left === 1 ? "" : "s"} left today; this request needs ${words} (its ` +
        `length × 1.1). The quota renews at 00:00 UTC.`,
      secondsToUtcMidnight(),
      headers,
    );
  }

  /** Words the key wrote today and those its running generations reserved; not read when it has no daily quota. */
  private async wordsToday(key: ApiKey): Promise<number> {
    return key.limits.dailyWords === undefined ? 0 : (await this.storage.activity(key.id)).wordsToday;
  }

  private headers(key: ApiKey, remaining: number, reset: number, wordsToday: number): Record<string, string> {
    const { rate, concurrency, dailyWords } = key.limits;
    const policies = [`"requests";q=${rate.requests};w=${rate.windowS}`, `"concurrency";q=${concurrency};qu="concurrent-requests"`];
    const states = [`"requests";r=${Math.max(0, remaining)};t=${reset}`];
    if (dailyWords !== undefined) {
      policies.push(`"daily-words";q=${dailyWords};w=86400;qu="words"`);
      states.push(`"daily-words";r=${Math.max(0, dailyWords - wordsToday)};t=${secondsToUtcMidnight()}`);
    }
    return { "ratelimit-policy": policies.join(", "), ratelimit: states.join(", ") };
  }
}

/** Which of a key's limits is reached. */
export type LimitReason = "rate" | "concurrency" | "daily-words";

/**
 * A key's limit is reached: a 429 with the rate-limit headers and when to retry. The reason
 * lets a queued job tell a busy key (retry soon) from a spent one.
 */
export class LimitError extends InkpressError {
  constructor(
    readonly reason: LimitReason,
    detail: string,
    retryAfter: number,
    headers: Record<string, string>,
  ) {
    super(detail, { status: 429, headers: { ...headers, "retry-after": String(retryAfter) } });
  }
}

function secondsToUtcMidnight(now = new Date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}
