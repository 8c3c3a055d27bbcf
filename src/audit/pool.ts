/**
 * The pages of a folder measured on worker threads, each within a time limit: a worker takes
 * the next file as soon as it is free (pages differ in length), the results come back in file
 * order, and a page past the limit is reported by name while its worker is stopped and replaced.
 * Nothing is measured on this thread, so Ctrl-C and SIGTERM are heard whatever a page costs.
 */
import { TimeLimitError, WorkerPool } from "../worker-pool.js";
import type { PageOptions, PageResult } from "./page.js";

/** One page a worker measures. */
export interface PageTask {
  file: string;
  options: PageOptions;
}

/** How the pages are measured. */
export interface MeasureOptions extends PageOptions {
  /** Pages measured at once (worker threads). */
  jobs: number;
  /** How long one page may take, in milliseconds. */
  timeoutMs: number;
  /**
   * Stops the measuring: running pages are abandoned (their workers stopped) and the call rejects.
   * @default none
   */
  signal?: AbortSignal;
  /**
   * Hears each result as it comes (in any order).
   * @default none
   */
  onResult?: (index: number, result: PageResult) => void;
}

/** Measure every file, `jobs` at a time, each within `timeoutMs`. */
export async function measurePages(files: readonly string[], options: MeasureOptions): Promise<PageResult[]> {
  const { jobs, timeoutMs, signal, onResult, ...pageOptions } = options;
  signal?.throwIfAborted();
  const pool = new WorkerPool<PageTask, PageResult>(new URL("./worker.js", import.meta.url), {
    size: Math.max(1, Math.min(jobs, files.length)),
    timeoutMs,
  });
  const stop = () => void pool.close();
  signal?.addEventListener("abort", stop, { once: true });
  // The pool's workers do not hold the process open (a server's pool must not): this does, until the pages are measured.
  const alive = setInterval(() => {}, 60_000);
  try {
    return await Promise.all(
      files.map(async (file, i) => {
        const result = await pool.run({ file, options: pageOptions }).catch((error: unknown) => {
          if (!(error instanceof TimeLimitError)) throw error;
          return { error: `${file}: could not be analysed within ${error.limitMs / 1000} s (--analyse-timeout); it was left out` };
        });
        onResult?.(i, result);
        return result;
      }),
    );
  } catch (error) {
    signal?.throwIfAborted();
    throw error;
  } finally {
    clearInterval(alive);
    signal?.removeEventListener("abort", stop);
    await pool.close();
  }
}
