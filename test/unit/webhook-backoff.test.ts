import { describe, expect, it } from "vitest";
import { WEBHOOK_ATTEMPTS, retryDelayMs } from "../../src/jobs/webhook/backoff.js";

describe("webhook retry schedule", () => {
  const HOUR = 3_600_000;
  const schedule = (random: () => number) => Array.from({ length: WEBHOOK_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1, random)!);

  it("doubles from a minute, ten attempts in all, spanning 8 to 11 hours", () => {
    expect(WEBHOOK_ATTEMPTS).toBe(10);
    const least = schedule(() => 0);
    expect(least.map((ms) => ms / 60_000)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256]);
    const total = (delays: number[]) => delays.reduce((a, b) => a + b, 0);
    expect(total(least)).toBeGreaterThan(8 * HOUR);
    expect(total(schedule(() => 0.999999))).toBeLessThan(11 * HOUR);
    // The last waits are hours apart.
    expect(least.at(-1)!).toBeGreaterThan(4 * HOUR);
    expect(least.at(-2)!).toBeGreaterThan(2 * HOUR);
  });

  it("adds up to a quarter of jitter, never less than the base", () => {
    for (let attempt = 1; attempt < WEBHOOK_ATTEMPTS; attempt++) {
      const base = retryDelayMs(attempt, () => 0)!;
      for (let i = 0; i < 50; i++) {
        const delay = retryDelayMs(attempt)!;
        expect(delay).toBeGreaterThanOrEqual(base);
        expect(delay).toBeLessThanOrEqual(base * 1.25);
      }
    }
    expect(retryDelayMs(3, () => 0.5)).toBe(4 * 60_000 * 1.125);
  });

  it("is over after the last attempt, and for attempts that make no sense", () => {
    expect(retryDelayMs(WEBHOOK_ATTEMPTS - 1)).toBeTypeOf("number");
    for (const attempt of [WEBHOOK_ATTEMPTS, WEBHOOK_ATTEMPTS + 1, 0, -1, 1.5, Number.NaN]) expect(retryDelayMs(attempt)).toBeUndefined();
  });
});
