import { getRequestIP, type H3Event } from "h3";
import { problem } from "./problem.js";

/** How many failed authentications an address may make, and in how long. */
export interface AuthThrottleOptions {
  /**
   * Failures allowed in one window; the next ones are answered 429.
   * @default 20
   */
  failures?: number;
  /**
   * The window, from an address's first failure.
   * @default 10_000
   */
  windowMs?: number;
  /**
   * Addresses remembered at once; past it the oldest window is forgotten, so a spray of
   * addresses cannot grow the map without bound.
   * @default 10_000
   */
  maxAddresses?: number;
}

/** One address's failures in its current window. */
interface Window {
  startedAt: number;
  failures: number;
}

/**
 * Key guessing throttled per client address: each failed authentication is counted in a
 * fixed window that starts with the address's first failure. Past the allowance the answer
 * is a 429 with `Retry-After` until the window ends. Only failures count, so a valid key from
 * the same address is never held back. The address is the socket's peer (a forwarded-for
 * header would let a guesser pick its own), and the counts are this process's own.
 */
export class AuthThrottle {
  private readonly failures: number;
  private readonly windowMs: number;
  private readonly maxAddresses: number;
  private readonly windows = new Map<string, Window>();

  constructor({ failures = 20, windowMs = 10_000, maxAddresses = 10_000 }: AuthThrottleOptions = {}) {
    this.failures = failures;
    this.windowMs = windowMs;
    this.maxAddresses = maxAddresses;
  }

  /**
   * Count a failed authentication of the request's address. Throws the 429 once the address
   * is past its allowance; returns (and the caller answers its 401) while it is within.
   */
  fail(event: H3Event, now = Date.now()): void {
    const address = getRequestIP(event) ?? "unknown";
    let window = this.windows.get(address);
    if (!window || now - window.startedAt >= this.windowMs) {
      this.windows.delete(address);
      window = { startedAt: now, failures: 0 };
      this.windows.set(address, window);
      if (this.windows.size > this.maxAddresses) this.windows.delete(this.windows.keys().next().value!);
    }
    window.failures++;
    if (window.failures <= this.failures) return;
    const retryAfterS = Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000));
    throw problem(429, `Too many failed authentications from this address: ${this.failures} in ${this.windowMs / 1000} s are allowed. Retry in ${retryAfterS} s.`, {
      headers: { "retry-after": String(retryAfterS) },
    });
  }
}
