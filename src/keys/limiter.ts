import { InkpressError } from "../errors.js";
import type { ApiKey } from "./registry.js";
import type { UsageStore } from "./usage.js";

interface Window {
  start: number;
  count: number;
}

/**
 * Per-key limits: requests per fixed window, generations at once, and words per UTC
 * day. Their state is announced on every authenticated response with the IETF draft
 * `RateLimit-Policy` and `RateLimit` headers (draft-ietf-httpapi-ratelimit-headers).
 */
export class KeyLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly running = new Map<string, number>();

  constructor(private readonly usage: UsageStore) {}

  /**
   * Count one request of a key. Returns the rate-limit headers for the response;
   * throws a 429 (with the same headers and Retry-After) when the window is spent.
   */
  admit(key: ApiKey, now = Date.now()): Record<string, string> {
    const { requests, windowS } = key.limits.rate;
    const windowMs = windowS * 1000;
    const start = Math.floor(now / windowMs) * windowMs;
    let window = this.windows.get(key.name);
    if (!window || window.start !== start) {
      window = { start, count: 0 };
      this.windows.set(key.name, window);
    }
    const reset = Math.max(1, Math.ceil((start + windowMs - now) / 1000));
    const over = window.count >= requests;
    if (!over) window.count++;
    const headers = this.headers(key, requests - window.count, reset);
    if (over) throw tooMany(`The rate limit of ${requests} requests per ${windowS} s is reached.`, reset, headers);
    this.usage.record(key.name);
    return headers;
  }

  /**
   * Start a generation for a key: throws a 429 when the key already runs its maximum
   * or its daily words are spent. Call `end` with the words written when it settles.
   */
  begin(key: ApiKey, headers: Record<string, string>): { end(words: number): void } {
    const { concurrency, dailyWords } = key.limits;
    if (dailyWords !== undefined && this.usage.wordsToday(key.name) >= dailyWords) {
      throw tooMany(`The daily quota of ${dailyWords} words is spent; it renews at 00:00 UTC.`, secondsToUtcMidnight(), headers);
    }
    const running = this.running.get(key.name) ?? 0;
    if (running >= concurrency) {
      throw tooMany(`This key already runs ${concurrency} generation${concurrency === 1 ? "" : "s"} at once, its limit.`, 1, headers);
    }
    this.running.set(key.name, running + 1);
    let ended = false;
    return {
      end: (words) => {
        if (ended) return;
        ended = true;
        this.running.set(key.name, (this.running.get(key.name) ?? 1) - 1);
        if (words > 0) this.usage.record(key.name, words);
      },
    };
  }

  private headers(key: ApiKey, remaining: number, reset: number): Record<string, string> {
    const { rate, concurrency, dailyWords } = key.limits;
    const policies = [`"requests";q=${rate.requests};w=${rate.windowS}`, `"concurrency";q=${concurrency};qu="concurrent-requests"`];
    const states = [`"requests";r=${Math.max(0, remaining)};t=${reset}`];
    if (dailyWords !== undefined) {
      policies.push(`"daily-words";q=${dailyWords};w=86400;qu="words"`);
      states.push(`"daily-words";r=${Math.max(0, dailyWords - this.usage.wordsToday(key.name))};t=${secondsToUtcMidnight()}`);
    }
    return { "ratelimit-policy": policies.join(", "), ratelimit: states.join(", ") };
  }
}

/** A key's limit is reached: a 429 with the rate-limit headers and when to retry. */
export class LimitError extends InkpressError {
  constructor(detail: string, retryAfter: number, headers: Record<string, string>) {
    super(detail, { status: 429, headers: { ...headers, "retry-after": String(retryAfter) } });
  }
}

function tooMany(detail: string, retryAfter: number, headers: Record<string, string>): LimitError {
  return new LimitError(detail, retryAfter, headers);
}

function secondsToUtcMidnight(now = new Date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((midnight - now.getTime()) / 1000));
}
