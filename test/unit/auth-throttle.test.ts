import type { HTTPError } from "h3";
import { describe, expect, it } from "vitest";
import { AuthThrottle, throttledAddress } from "../../src/http/auth-throttle.js";

/** The status a call answers with: the thrown problem's, or undefined when it passes. */
function statusOf(call: () => void): number | undefined {
  try {
    call();
    return undefined;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

describe("auth throttle: who counts as one address", () => {
  it("IPv4 as it is, IPv4-mapped IPv6 as IPv4, IPv6 by its /64", () => {
    expect(throttledAddress("203.0.113.7")).toBe("203.0.113.7");
    expect(throttledAddress("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(throttledAddress("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(throttledAddress("2001:db8:1:2::1")).toBe(throttledAddress("2001:0db8:0001:0002:ffff::9"));
    expect(throttledAddress("2001:db8:1:3::1")).not.toBe(throttledAddress("2001:db8:1:2::1"));
    expect(throttledAddress(undefined)).toBe("unknown");
  });
});

describe("auth throttle: a throttled address gets no answer about keys", () => {
  it("after the allowance every request is refused before its key is checked, until the window ends", () => {
    const throttle = new AuthThrottle({ failures: 3, windowMs: 10_000 });
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) expect(statusOf(() => throttle.fail("198.51.100.1", t0 + i))).toBeUndefined();
    expect(statusOf(() => throttle.check("198.51.100.1", t0 + 10))).toBeUndefined();
    expect(statusOf(() => throttle.fail("198.51.100.1", t0 + 10))).toBe(429);
    // Now even a request with a valid key is refused at the check, for the rest of the window.
    expect(statusOf(() => throttle.check("198.51.100.1", t0 + 9_999))).toBe(429);
    expect(statusOf(() => throttle.check("198.51.100.2", t0 + 9_999))).toBeUndefined();
    expect(statusOf(() => throttle.check("198.51.100.1", t0 + 10_000))).toBeUndefined();
  });

  it("an IPv6 guesser moving through its /64 is one address; the next /64 is another", () => {
    const throttle = new AuthThrottle({ failures: 20 });
    const t0 = 2_000_000;
    const statuses = Array.from({ length: 25 }, (_, i) => statusOf(() => throttle.fail(`2001:db8:aa:bb::${(i + 1).toString(16)}`, t0)));
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(statusOf(() => throttle.check("2001:db8:aa:bb:ffff:ffff:ffff:ffff", t0))).toBe(429);
    expect(statusOf(() => throttle.check("2001:db8:aa:bc::1", t0))).toBeUndefined();
  });

  it("the refusal says when the window ends, in Retry-After", () => {
    const throttle = new AuthThrottle({ failures: 1, windowMs: 10_000 });
    throttle.fail("192.0.2.9", 0);
    expect(() => throttle.fail("192.0.2.9", 1)).toThrow(/too many failed authentications/i);
    const refusal = (() => {
      try {
        throttle.check("192.0.2.9", 2_500);
      } catch (error) {
        return error as HTTPError;
      }
    })();
    expect(refusal?.status).toBe(429);
    expect(refusal?.headers?.get("retry-after")).toBe("8");
  });
});
