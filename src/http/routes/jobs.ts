import { defineHandler, getRouterParam, getValidatedQuery, type H3Event } from "h3";
import { FINAL_STATUSES, JobRequestSchema, jobListQuery, type Job } from "../../contract/job.js";
import type { Jobs } from "../../jobs/jobs.js";
import { readCursor } from "../../jobs/store.js";
import type { KeyStorage } from "../../keys/storage.js";
import { idempotency } from "../idempotency.js";
import { problem } from "../problem.js";
import { sourceTexts, type TextPool } from "../../text-pool.js";
import { jsonRoute, validationProblem } from "../validation.js";

/** What the jobs routes serve with. */
export interface JobsRouteOptions {
  jobs: Jobs;
  storage: KeyStorage;
  /** Time a client has to send its body. */
  bodyTimeoutMs: number;
  /** Most jobs one page lists. */
  pageSize: number;
  /** How long a job's Idempotency-Key is remembered: as long as the job is kept. */
  retentionMs: number;
  /** Reads a job's texts (a refresh's article, an article's sources) off the event loop before it is queued. */
  texts: TextPool;
}

const location = (job: Job) => `/api/v1/jobs/${job.id}`;

/**
 * Seconds a client is asked (`Retry-After`) to wait before it reads a job that has not ended:
 * progress is saved about every second, and every read counts against the key's rate limit.
 */
export const POLL_AFTER_S = 2;

/** Ask for the next read of a job that has not ended after {@link POLL_AFTER_S}. */
function pollHint(event: H3Event, job: Job): void {
  if (!FINAL_STATUSES.includes(job.status)) event.res.headers.set("retry-after", String(POLL_AFTER_S));
}

/**
 * `POST /api/v1/jobs`: validate like generate (or like refresh, for `kind: "refresh"`; plus
 * `webhook`), read its texts on a worker thread as those routes do, queue, answer 202 with the
 * job and its Location.
 */
export function submitJobRoute({ jobs, storage, bodyTimeoutMs, retentionMs, texts }: JobsRouteOptions) {
  return jsonRoute("/api/v1/jobs", { body: JobRequestSchema, bodyTimeoutMs }, async (event) => {
    const work = await event.req.json();
    const key = event.context.apiKey!;
    await texts.read(
      work.kind === "refresh" ? [{ text: work.request.markdown, field: "markdown" }] : sourceTexts(work.request.sources),
      key.id,
    );
    const idempotent = await idempotency(event, { storage, name: `${key.id}:jobs`, keepMs: retentionMs, pendingMs: 60_000 });
    let job: Job;
    if (idempotent && "replay" in idempotent) {
      job = await jobs.get(key.id, idempotent.replay);
    } else {
      try {
        job = await jobs.submit(work, key);
      } catch (error) {
        await idempotent?.claim.release();
        throw error;
      }
      await idempotent?.claim.complete(job.id);
    }
    event.res.status = 202;
    event.res.headers.set("location", location(job));
    pollHint(event, job);
    return job;
  });
}

/** `GET /api/v1/jobs/{id}`: the job with its progress, and its result or problem once it ended. */
export function getJobRoute({ jobs }: JobsRouteOptions) {
  return defineHandler(async (event) => {
    const job = await jobs.get(event.context.apiKey!.id, jobId(event));
    pollHint(event, job);
    return job;
  });
}

/** `DELETE /api/v1/jobs/{id}`: cancel a queued or running job. */
export function cancelJobRoute({ jobs }: JobsRouteOptions) {
  return defineHandler((event) => jobs.cancel(event.context.apiKey!.id, jobId(event)));
}

/** `GET /api/v1/jobs?status=&limit=&cursor=`: the caller's jobs, newest first. */
export function listJobsRoute({ jobs, pageSize }: JobsRouteOptions) {
  const QuerySchema = jobListQuery(pageSize, (cursor) => readCursor(cursor) !== undefined);
  return defineHandler(async (event) => {
    const query = await getValidatedQuery(event, QuerySchema, { onError: validationProblem });
    const { jobs: data, nextCursor } = await jobs.list(event.context.apiKey!.id, query);
    return { object: "list", data, nextCursor };
  });
}

function jobId(event: H3Event): string {
  const id = getRouterParam(event, "id");
  if (!id) throw problem(404, "No such job.");
  return id;
}
