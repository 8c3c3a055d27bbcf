import { BatchError } from "./errors.js";

/** How a pool works through its items. */
export interface PoolOptions<T> {
  /** Items worked on at once. */
  concurrency: number;
  /**
   * Stops the pool: items in flight are dropped, finished ones kept.
   * @default none: every item is tried
   */
  signal?: AbortSignal;
  /** One item's work. */
  work(item: T, signal: AbortSignal): Promise<void>;
  /** An item's work failed, and why (the others go on). */
  failed(item: T, error: Error): void;
}

/**
 * Work through items `concurrency` at a time. An item that fails is handed to `failed` and the
 * others go on; a {@link BatchError} (a key the server refuses) stops them all and is thrown,
 * as every item would fail the same way. An item in flight when `signal` stops the pool is dropped.
 */
export async function runPool<T>(items: readonly T[], options: PoolOptions<T>): Promise<void> {
  const stop = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal;
  let fatal: unknown;
  const next = items.values();
  const worker = async () => {
    for (const item of next) {
      if (signal.aborted) return;
      try {
        await options.work(item, signal);
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof BatchError) {
          fatal = error;
          stop.abort();
          return;
        }
        options.failed(item, error as Error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, items.length) }, worker));
  if (fatal) throw fatal;
}
