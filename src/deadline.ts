/**
 * A deadline for one try of some work, as an abort signal. Node's `AbortSignal.timeout` is held
 * only weakly once passed to `AbortSignal.any`, so a garbage collection before it fires drops it
 * and the try waits forever (seen as a `batch --server` try that never ended at 30 s); this
 * timer holds its controller until it fires or is cleared.
 */

/** A signal that aborts with a `TimeoutError` after `ms` (or when `signal` does), and the way to stop its timer. */
export interface Deadline {
  signal: AbortSignal;
  /** Stop the timer once the try has ended. */
  clear(): void;
}

/** A deadline `ms` from now, under `signal` if one is given. */
export function deadline(ms: number, signal?: AbortSignal): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`no answer within ${ms / 1000} s`, "TimeoutError")), ms);
  return {
    signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal,
    clear: () => clearTimeout(timer),
  };
}
