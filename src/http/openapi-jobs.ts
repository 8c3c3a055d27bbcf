/**
 * The jobs part of the OpenAPI document: its paths, the webhook a job's end sends, and the
 * `Idempotency-Key` header. The shapes come from the valibot schemas of src/jobs/job.ts.
 */
import { JOB_STATUSES, JobExtrasSchema, JobListSchema, JobSchema } from "../jobs/job.js";
import { WEBHOOK_ATTEMPTS } from "../jobs/webhook/backoff.js";
import { PROBLEM_TYPES } from "./problem.js";

type Json = Record<string, unknown>;

/** What the main document lends: references, problem responses and the converters. */
export interface OpenApiParts {
  ref: (name: string) => Json;
  outputSchema: (schema: typeof JobSchema | typeof JobListSchema) => Json;
  inputSchema: (schema: typeof JobExtrasSchema) => Json;
}

const problems = (statuses: (keyof typeof PROBLEM_TYPES)[]) =>
  Object.fromEntries(statuses.map((status) => [status, { $ref: `#/components/responses/${PROBLEM_TYPES[status]}` }]));

/** `Idempotency-Key`, on `POST /api/v1/generate` and `POST /api/v1/jobs`. */
export const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  schema: { type: "string", minLength: 1, maxLength: 255 },
  description:
    "draft-ietf-httpapi-idempotency-key-header: the same key with the same body gives the same answer (generate: kept 24 h; jobs: the same job, as long as it is kept), marked `Idempotent-Replayed: true`; the same key with another body is a 422; while the first request runs, a 409. Keys are per API key.",
};

const jobId = { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^job_[0-9a-f]{32}$" } };
const security = [{ apiKey: [] }];

/** The jobs API's paths. */
export function jobPaths({ ref }: OpenApiParts): Json {
  const job = (description: string) => ({ description, content: { "application/json": { schema: ref("Job") } } });
  return {
    "/api/v1/jobs": {
      post: {
        operationId: "createJob",
        tags: ["jobs"],
        summary: "Queue an article",
        description:
          "Takes the generate request (plus an optional `webhook`) and answers at once; the article is written in the background. The key's limits apply when the job runs, and its quota counts the words the job really wrote. Jobs survive a restart: one that was running runs again.",
        security,
        parameters: [IDEMPOTENCY_KEY],
        requestBody: { required: true, content: { "application/json": { schema: { allOf: [ref("GenerateRequest"), ref("JobExtras")] } } } },
        responses: {
          202: { ...job("The queued job."), headers: { Location: { schema: { type: "string" }, description: "`/api/v1/jobs/{id}`." } } },
          ...problems([400, 401, 409, 413, 415, 422, 429, 500, 503]),
        },
      },
      get: {
        operationId: "listJobs",
        tags: ["jobs"],
        summary: "List your jobs",
        description: "The caller's jobs, newest first, without their results.",
        security,
        parameters: [
          { name: "status", in: "query", schema: { type: "string", enum: [...JOB_STATUSES] } },
          { name: "limit", in: "query", schema: { type: "integer", minimum: 1, default: 20 }, description: "At most the server's page size (INKPRESS_JOBS_PAGE_SIZE, default 100)." },
          { name: "cursor", in: "query", schema: { type: "string" }, description: "`nextCursor` of the previous page." },
        ],
        responses: { 200: { description: "One page.", content: { "application/json": { schema: ref("JobList") } } }, ...problems([401, 422, 429, 500, 503]) },
      },
    },
    "/api/v1/jobs/{id}": {
      get: {
        operationId: "getJob",
        tags: ["jobs"],
        summary: "Read a job",
        description: "Its status and progress; `result` (the generate answer) once it succeeded, `error` (a problem) once it failed, and every webhook attempt. Another key's job is a 404.",
        security,
        parameters: [jobId],
        responses: { 200: job("The job."), ...problems([401, 404, 429, 500, 503]) },
      },
      delete: {
        operationId: "cancelJob",
        tags: ["jobs"],
        summary: "Cancel a job",
        description: "Cancels a queued or running job (a running one stops within a moment, on whichever replica runs it). A job that has ended is a 409.",
        security,
        parameters: [jobId],
        responses: { 200: job("The cancelled job."), ...problems([401, 404, 409, 429, 500, 503]) },
      },
    },
  };
}

/** The webhook a job's end sends (OpenAPI 3.1 `webhooks`). */
export function jobWebhooks({ ref }: OpenApiParts): Json {
  const header = (name: string, description: string) => ({ name, in: "header", required: true, schema: { type: "string" }, description });
  return {
    jobEnded: {
      post: {
        summary: "A job ended",
        description: `Sent to the job's \`webhook.url\` when it succeeded, failed or was cancelled, signed as Standard Webhooks says with the key's \`whsec_…\` secret. A 2xx answer within 10 s is a delivery; anything else (a redirect too) is retried with exponential backoff, ${WEBHOOK_ATTEMPTS} attempts over about 9 hours, each recorded on the job. The answer's body is not read.`,
        parameters: [
          header("webhook-id", "`msg_…`, the same on every attempt of one event: deduplicate by it."),
          header("webhook-timestamp", "Unix seconds of this attempt."),
          header("webhook-signature", "`v1,<base64 HMAC-SHA256 of id.timestamp.body>`."),
        ],
        requestBody: {
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: {
                  type: { type: "string", enum: ["job.succeeded", "job.failed", "job.cancelled"] },
                  timestamp: { type: "string", description: "ISO 8601." },
                  data: ref("Job"),
                },
                required: ["type", "timestamp", "data"],
              },
            },
          },
        },
        responses: { 200: { description: "Any 2xx acknowledges the event." } },
      },
    },
  };
}

/** The jobs API's component schemas. */
export function jobSchemas({ outputSchema, inputSchema }: OpenApiParts): Json {
  return { JobExtras: inputSchema(JobExtrasSchema), Job: outputSchema(JobSchema), JobList: outputSchema(JobListSchema) };
}
