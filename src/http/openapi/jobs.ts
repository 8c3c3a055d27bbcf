/**
 * The jobs part of the document: its paths, and the webhook a job's end sends. The shapes
 * come from the wire contract's valibot schemas (`contract/job.ts`).
 */
import { JOB_STATUSES, JobEndedSchema, JobExtrasSchema, JobListSchema, JobSchema } from "../../contract/job.js";
import { WEBHOOK_ATTEMPTS } from "../../jobs/webhook/backoff.js";
import { POLL_AFTER_S } from "../routes/jobs.js";
import { refreshRequestSchema } from "./analyse.js";
import { generateRequestSchema } from "./articles.js";
import { answerSchema, ref, requestSchema, type Json } from "./convert.js";
import { IDEMPOTENCY_KEY, KEYED, type PathGroup } from "./group.js";
import { problemRefs } from "./problems.js";

const jobId = { name: "id", in: "path", required: true, schema: { type: "string", pattern: "^job_[0-9a-f]{32}$" } };
const job = (description: string) => ({ description, content: { "application/json": { schema: ref("Job") } } });
/** The poll hint of a job that has not ended. */
const RETRY_AFTER = {
  "Retry-After": {
    schema: { type: "integer", const: POLL_AFTER_S },
    description: `While the job is queued or running: seconds to wait before reading it again (${POLL_AFTER_S}).`,
  },
};

const JOBS_PATH = {
  post: {
    operationId: "createJob",
    tags: ["jobs"],
    summary: "Queue an article",
    description:
      'Takes the generate request (plus an optional `webhook`), or with `kind: "refresh"` the refresh request, and answers at once; the article is written ' +
      "(or refreshed) in the background. The key's limits apply when the job runs, and its quota counts the words the job really wrote. Jobs survive a " +
      "restart: one that was running runs again.",
    security: KEYED,
    parameters: [IDEMPOTENCY_KEY],
    requestBody: { $ref: "#/components/requestBodies/JobRequest" },
    responses: {
      202: {
        ...job("The queued job."),
        headers: { Location: { schema: { type: "string" }, description: "`/api/v1/jobs/{id}`." }, ...RETRY_AFTER },
      },
      ...problemRefs([400, 401, 403, 409, 413, 415, 422, 429, 500, 503]),
    },
  },
  get: {
    operationId: "listJobs",
    tags: ["jobs"],
    summary: "List your jobs",
    description: "The caller's jobs, newest first, without their results.",
    security: KEYED,
    parameters: [
      { name: "status", in: "query", schema: { type: "string", enum: [...JOB_STATUSES] } },
      {
        name: "limit",
        in: "query",
        schema: { type: "integer", minimum: 1, default: 20 },
        description: "At most the server's page size (INKPRESS_JOBS_PAGE_SIZE, default 100).",
      },
      { name: "cursor", in: "query", schema: { type: "string" }, description: "`nextCursor` of the previous page." },
    ],
    responses: {
      200: { description: "One page.", content: { "application/json": { schema: ref("JobList") } } },
      ...problemRefs([401, 422, 429, 500, 503]),
    },
  },
};

const JOB_PATH = {
  get: {
    operationId: "getJob",
    tags: ["jobs"],
    summary: "Read a job",
    description:
      "Its status and progress; `result` (the generate answer) once it succeeded, `error` (a problem) once it failed, and every webhook attempt. Another " +
      "key's job is a 404.",
    security: KEYED,
    parameters: [jobId],
    responses: { 200: { ...job("The job."), headers: RETRY_AFTER }, ...problemRefs([401, 404, 429, 500, 503]) },
  },
  delete: {
    operationId: "cancelJob",
    tags: ["jobs"],
    summary: "Cancel a job",
    description:
      "Cancels a queued or running job (a running one stops within a moment, on whichever replica runs it). A job that has ended is a 409.",
    security: KEYED,
    parameters: [jobId],
    responses: { 200: job("The cancelled job."), ...problemRefs([401, 404, 409, 429, 500, 503]) },
  },
};

/** The webhook a job's end sends (OpenAPI 3.1 `webhooks`). */
function jobEnded(): Json {
  const header = (name: string, description: string) => ({ name, in: "header", required: true, schema: { type: "string" }, description });
  return {
    post: {
      operationId: "jobEnded",
      summary: "A job ended",
      description:
        `Sent to the job's \`webhook.url\` when it succeeded, failed or was cancelled, signed as Standard Webhooks says with the key's ` +
        `\`whsec_…\` secret. A 2xx answer within 10 s is a delivery; anything else (a redirect too) is retried with exponential backoff, ` +
        `${WEBHOOK_ATTEMPTS} attempts over about 9 hours, each recorded on the job. The answer's body is not read.`,
      parameters: [
        header("webhook-id", "`msg_…`, the same on every attempt of one event: deduplicate by it."),
        header("webhook-timestamp", "Unix seconds of this attempt."),
        header("webhook-signature", "`v1,<base64 HMAC-SHA256 of id.timestamp.body>`."),
      ],
      security: [{ webhookSignature: [] }],
      requestBody: { required: true, content: { "application/json": { schema: answerSchema(JobEndedSchema) } } },
      responses: { 200: { description: "Any 2xx acknowledges the event." } },
    },
  };
}

/**
 * A request body's schema with the job's fields (`kind`, `webhook`) among its own: one closed
 * object (`additionalProperties: false`), as the server refuses any other field, where an
 * `allOf` of two closed objects would refuse every body.
 */
function withExtras(request: Json, kind: "article" | "refresh"): Json {
  const { kind: kinds, ...extras } = requestSchema(JobExtrasSchema).properties as Json;
  const { enum: _kinds, ...kindField } = kinds as Json;
  const required = kind === "refresh" ? [...((request.required as string[] | undefined) ?? []), "kind"] : request.required;
  return { ...request, properties: { ...(request.properties as Json), kind: { ...kindField, const: kind }, ...extras }, required };
}

/** The jobs path group. */
export function jobsGroup(): PathGroup {
  return {
    tag: "jobs",
    description:
      "Writing (or refreshing) an article in the background: queue it, then poll the job or receive a signed webhook when it ends.",
    paths: { "/api/v1/jobs": JOBS_PATH, "/api/v1/jobs/{id}": JOB_PATH },
    requestBodies: {
      JobRequest: {
        required: true,
        description: 'The generate request, or with `kind: "refresh"` the refresh request, plus an optional `webhook`.',
        // The bodies' schemas again, not $refs into the other request bodies: generators
        // (openapi-typescript) type such a reference wrongly.
        content: {
          "application/json": {
            schema: { anyOf: [withExtras(generateRequestSchema(), "article"), withExtras(refreshRequestSchema(), "refresh")] },
          },
        },
      },
    },
    schemas: { Job: answerSchema(JobSchema), JobList: answerSchema(JobListSchema) },
    webhooks: { jobEnded: jobEnded() },
  };
}
