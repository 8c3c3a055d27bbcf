/** The jobs API: submit an article to be written in the background, read it, wait for it, cancel it. */
import { InkpressApiError, retryAfterSeconds } from "./errors.js";
import { sleep, type Caller, type CallOptions, type CreateOptions } from "./http.js";
import type { Job, JobRequest } from "./types.js";

/** What {@link JobsClient.wait} may add. */
export interface WaitOptions extends CallOptions {
  /**
   * Milliseconds between reads when the server sends no `Retry-After`.
   * @default 2000
   */
  intervalMs?: number;
  /**
   * Called with the job after each read that finds it still queued or running (`progress.words`).
   * @default none
   */
  onProgress?: (job: Job) => void;
}

/** The jobs calls of a client. */
export interface JobsClient {
  /** `POST /api/v1/jobs`: queue an article; answers at once with the queued job. */
  submit(request: JobRequest, options?: CreateOptions): Promise<Job>;
  /** `GET /api/v1/jobs/{id}`: the job, with its `result` once it succeeded or its `error` once it failed. */
  get(id: string, options?: CallOptions): Promise<Job>;
  /**
   * Read the job until it has ended (succeeded, failed or cancelled) and answer it. Waits as
   * long as the server's `Retry-After` says between reads, and as long again after a 429 or
   * 503 that carries one; stops when the signal aborts.
   */
  wait(id: string, options?: WaitOptions): Promise<Job>;
  /** `DELETE /api/v1/jobs/{id}`: cancel a queued or running job; answers the cancelled job. */
  cancel(id: string, options?: CallOptions): Promise<Job>;
}

const FINAL = new Set<Job["status"]>(["succeeded", "failed", "cancelled"]);
const jobPath = (id: string) => `/api/v1/jobs/${encodeURIComponent(id)}`;

/** One read of a job, with how long the server asks to wait before the next. */
async function read(call: Caller, id: string, signal?: AbortSignal): Promise<{ job?: Job; retryAfter?: number }> {
  try {
    const response = await call({ method: "GET", path: jobPath(id), accept: "application/json", signal });
    return { job: (await response.json()) as Job, retryAfter: retryAfterSeconds(response.headers) };
  } catch (error) {
    // Shed load or a spent rate limit says when to come back; anything else is the caller's to see.
    if (error instanceof InkpressApiError && (error.status === 429 || error.status === 503) && error.retryAfter !== undefined)
      return { retryAfter: error.retryAfter };
    throw error;
  }
}

/** The jobs calls over a caller. */
export function jobsClient(call: Caller): JobsClient {
  const json = async (response: Promise<Response>) => (await (await response).json()) as Job;
  return {
    submit: (request, { signal, idempotencyKey } = {}) =>
      json(call({ method: "POST", path: "/api/v1/jobs", accept: "application/json", body: request, signal, idempotencyKey })),
    get: (id, { signal } = {}) => json(call({ method: "GET", path: jobPath(id), accept: "application/json", signal })),
    cancel: (id, { signal } = {}) => json(call({ method: "DELETE", path: jobPath(id), accept: "application/json", signal })),
    async wait(id, { signal, intervalMs = 2000, onProgress } = {}) {
      while (true) {
        const { job, retryAfter } = await read(call, id, signal);
        if (job && FINAL.has(job.status)) return job;
        if (job) onProgress?.(job);
        await sleep(retryAfter !== undefined ? retryAfter * 1000 : intervalMs, signal);
      }
    },
  };
}
