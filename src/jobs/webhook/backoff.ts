/** Attempts of one webhook delivery, the first included. */
export const WEBHOOK_ATTEMPTS = 10;

/** The wait after the first failed attempt; each later wait doubles it. */
const WEBHOOK_RETRY_BASE_MS = 60_000;

/**
 * Milliseconds to wait after failed attempt `attempt` (1 for the first) before the next, or
 * undefined when that was the last. Waits double from a minute (1, 2, 4 … 256 min), so a
 * receiver that is down for a deploy gets the next minutes and one that is down for the night
 * still gets the morning: the last waits are hours apart and the schedule spans about 8.5 h
 * (up to 10.6 h with jitter). Jitter adds up to a quarter, so deliveries that failed together
 * (a receiver's outage) do not all come back at the same second.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number | undefined {
  if (!Number.isInteger(attempt) || attempt < 1 || attempt >= WEBHOOK_ATTEMPTS) return undefined;
  const delay = WEBHOOK_RETRY_BASE_MS * 2 ** (attempt - 1);
  return Math.round(delay * (1 + random() / 4));
}
