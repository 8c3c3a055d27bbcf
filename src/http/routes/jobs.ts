import { defineHandler, getQuery, getRouterParam, type H3Event } from "h3";
import * as v from "valibot";
import { GenerateRequestSchema, type GenerateRequest, type GenerateRequestBody } from "../../article/wire/request.js";
import { FINAL_STATUSES, JOB_STATUSES, JobExtrasSchema, type Job, type NewJob } from "../../jobs/job.js";
import { RefreshRequestSchema, type RefreshRequest } from "../../refresh/schema.js";
import type { Jobs } from "../../jobs/jobs.js";
import { readCursor } from "../../jobs/store.js";
import type { KeyStorage } from "../../keys/storage.js";
import { assertJson, readJson } from "../body.js";
import { idempotency } from "../idempotency.js";
import { problem } from "../problem.js";
import { validationProblem } from "../validation.js";

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
}

/** Jobs one page lists unless `limit` says otherwise. */
const DEFAULT_PAGE = 20;

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

/** `POST /api/v1/jobs`: validate like generate (or like refresh, for `kind: "refresh"`; plus `webhook`), queue, answer 202 with the job and its Location. */
export function submitJobRoute({ jobs, storage, bodyTimeoutMs, retentionMs }: JobsRouteOptions) {
  return defineHandler(async (event) => {
    assertJson(event);
    const body = await readJson(event, bodyTimeoutMs);
    const extras = await JobExtrasSchema["~standard"].validate(body);
    // The kind picks the request's schema; without a valid kind, the generate request's.
    const refresh = !extras.issues && extras.value.kind === "refresh";
    const request = await (refresh ? RefreshRequestSchema : GenerateRequestSchema)["~standard"].validate(withoutExtras(body));
    if (request.issues || extras.issues) throw validationProblem({ issues: [...(request.issues ?? []), ...(extras.issues ?? [])] });
    const key = event.context.apiKey!;
    const idempotent = await idempotency(event, { storage, name: `${key.id}:jobs`, body, keepMs: retentionMs, pendingMs: 60_000 });
    const { webhook } = extras.value;
    const work: NewJob = refresh
      ? { kind: "refresh", request: request.value as RefreshRequest, webhook }
      : { kind: "article", request: withoutTransport(request.value as GenerateRequestBody), webhook };
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

/** The request's own fields of a jobs body: the strict request schema refuses any other, and the extras are the job's. */
function withoutExtras(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([key]) => !Object.hasOwn(JobExtrasSchema.entries, key)));
}

/** A generate body without its transport choice, which a job has no use for. */
function withoutTransport({ stream: _transport, ...request }: GenerateRequestBody): GenerateRequest {
  return request;
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
  const QuerySchema = v.object({
    status: v.optional(v.picklist(JOB_STATUSES, `status must be one of ${JOB_STATUSES.join(", ")}`)),
    limit: v.optional(
      v.pipe(
        v.string(),
        v.regex(/^\d+$/, "limit must be a whole number"),
        v.transform(Number),
        v.minValue(1, "limit must be at least 1"),
        v.maxValue(pageSize, `limit must be at most ${pageSize}`),
      ),
      String(Math.min(DEFAULT_PAGE, pageSize)),
    ),
    cursor: v.optional(
      v.pipe(
        v.string(),
        v.check((c) => readCursor(c) !== undefined, "cursor must be a nextCursor this API gave"),
      ),
    ),
  });
  return defineHandler(async (event) => {
    const query = await QuerySchema["~standard"].validate(getQuery(event));
    if (query.issues) throw validationProblem(query);
    const { jobs: data, nextCursor } = await jobs.list(event.context.apiKey!.id, query.value);
    return { object: "list", data, nextCursor };
  });
}

function jobId(event: H3Event): string {
  const id = getRouterParam(event, "id");
  if (!id) throw problem(404, "No such job.");
  return id;
}
