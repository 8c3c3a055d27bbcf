/**
 * Articles given as they are, analysed off the event loop: parsing and measuring a page costs
 * time that grows with what a client sends, so the server hands it to worker threads with a
 * time limit, and the page's field is refused when its analysis runs past it.
 */
import { InvalidFieldError } from "../errors.js";
import { TimeLimitError, WorkerPool } from "../worker-pool.js";
import type { AnalyseExistingOptions } from "./existing/analyse.js";
import type { AnalyseRequest, AnalysisResponse } from "./wire/analyse.js";

/** One analysis a worker runs. */
export interface AnalysisTask {
  request: AnalyseRequest;
  options: AnalyseExistingOptions;
}

/** Worker threads that analyse articles, each within a time limit. */
export class AnalysisPool {
  private readonly pool: WorkerPool<AnalysisTask, AnalysisResponse>;

  /** Up to `size` workers, started as analyses come; an analysis may take `timeoutMs`. */
  constructor(options: { size: number; timeoutMs: number }) {
    this.pool = new WorkerPool(new URL("./analyse-worker.js", import.meta.url), options);
  }

  /** The report of an article given as it is; one that takes past the limit is a 422 naming its field. */
  async analyse(task: AnalysisTask): Promise<AnalysisResponse> {
    try {
      return await this.pool.run(task);
    } catch (error) {
      if (!(error instanceof TimeLimitError)) throw error;
      const field = task.request.markdown === undefined ? "html" : "markdown";
      const problem = `could not be analysed within ${error.limitMs / 1000} s; send a shorter or simpler article`;
      throw new InvalidFieldError(field, problem, `${field}: ${problem}`);
    }
  }

  /** Refuse new analyses, give running ones up to `graceMs`, then stop the workers. */
  close(graceMs = 0): Promise<void> {
    return this.pool.close(graceMs);
  }
}
