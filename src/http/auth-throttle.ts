import ipaddr from "ipaddr.js";
import { problem } from "./problem.js";

/** How many failed authentications an address may make, and in how long. */
export interface AuthThrottleOptions {
  /**
   * Failures allowed in one window; past them the address is throttled until the window ends.
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
 * Who a request's failures count against: its IPv4 address (an IPv4-mapped IPv6 one as IPv4),
 * or the /64 of its IPv6 address, since one host is usually given a whole /64 to pick from.
 */
export function throttledAddress(address: string | undefined): string {
  if (!address || !ipaddr.isValid(address)) return address || "unknown";
  const parsed = ipaddr.process(address);
  if (parsed.kind() === "ipv4") return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}

/**
 * Key guessing throttled per client address (per /64 for IPv6): each failed authentication is
 * counted in a fixed window that starts with the address's first failure. Past the allowance the
 * address is throttled until the window ends: every request from it is a 429 with `Retry-After`
 * and no key is looked at, a valid one included, so a guess in that time learns nothing. The
 * address is the socket's peer (a forwarded-for header would let a guesser pick its own), and
 * the counts are this process's own.
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

  /** Before any key is checked: throws the 429 while the request's address (the socket's peer) is throttled. */
  check(peer: string | undefined, now = Date.now()): void {
    const window = this.current(throttledAddress(peer), now);
    if (window && window.failures > this.failures) throw this.refusal(window, now);
  }

  /**
   * Count a failed authentication of the request's address (the socket's peer). Throws the 429
   * once the address is past its allowance; returns (and the caller answers its 401) while it is within.
   */
  fail(peer: string | undefined, now = Date.now()): void {
    const address = throttledAddress(peer);
    let window = this.current(address, now);
    if (!window) {
      window = { startedAt: now, failures: 0 };
      this.windows.set(address, window);
      if (this.windows.size > this.maxAddresses) this.windows.delete(this.windows.keys().next().value!);
    }
    window.failures++;
    if (window.failures > this.failures) throw this.refusal(window, now);
  }

  /** The address's window, unless it has ended (then it is forgotten). */
  private current(address: string, now: number): Window | undefined {
    const window = this.windows.get(address);
    if (window && now - window.startedAt < this.windowMs) return window;
    this.windows.delete(address);
    return undefined;
  }

  private refusal(window: Window, now: number) {
    const retryAfterS = Math.max(1, Math.ceil((window.startedAt + this.windowMs - now) / 1000));
    return problem(
      429,
      `Too many failed authentications from this address: ${this.failures} in ${this.windowMs / 1000} s are allowed. Retry in ${retryAfterS} s.`,
      {
        headers: { "retry-after": String(retryAfterS) },
      },
    );
  }
}
