import type { StandardSchemaV1 } from "@standard-schema/spec";
import * as v from "valibot";
import { GenerateRequestSchema, jsonObject, type GenerateRequest, type GenerateRequestBody } from "./request.js";
import { ArticleResponseSchema, NormalisedRequestSchema } from "./response.js";
import { RefreshRequestEchoSchema, RefreshRequestSchema, RefreshResponseSchema, type RefreshRequest } from "./refresh.js";
import { described, nameUnknownFields } from "./schema.js";

/**
 * The shapes of the jobs API as valibot schemas: they validate the request, type the
 * records and generate the OpenAPI document.
 */
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** Where a job's end is announced. */
const WebhookRequestSchema = jsonObject(
  {
    url: v.pipe(
      v.string("webhook.url must be a string"),
      v.trim(),
      v.maxLength(2048, "webhook.url must be at most 2048 characters"),
      v.check((url) => /^https?:\/\//i.test(url) && URL.canParse(url), "webhook.url must be an http:// or https:// URL"),
      v.description(
        "Checked when the job is submitted and before every attempt: an address that is loopback, private, link-local or a metadata service is refused " +
          "unless the server's `--webhook-allow` lists it.",
      ),
    ),
  },
  "webhook must be an object",
);

/** What a job does: write an article (the generate request), or refresh one (the refresh request). */
const JOB_KINDS = ["article", "refresh"] as const;
/** One of {@link JOB_KINDS}. */
export type JobKind = (typeof JOB_KINDS)[number];

/** What `POST /api/v1/jobs` takes besides the request's fields (validated by `GenerateRequestSchema`, or `RefreshRequestSchema` for a refresh). */
export const JobExtrasSchema = v.object({
  kind: v.optional(
    described(
      v.picklist(JOB_KINDS, 'kind must be "article" or "refresh"'),
      "Jobs only: `article` (the default) writes the generate request's article; `refresh` refreshes the `markdown` of a refresh request.",
    ),
  ),
  webhook: v.optional(
    described(WebhookRequestSchema, "Jobs only: where the job's end is announced, signed with the key's webhook secret."),
  ),
});

/** A job's states; the last three are final. */
export const JOB_STATUSES = ["queued", "running", "succeeded", "failed", "cancelled"] as const;
/** One of {@link JOB_STATUSES}. */
export type JobStatus = (typeof JOB_STATUSES)[number];
/** The states a job never leaves. */
export const FINAL_STATUSES: readonly JobStatus[] = ["succeeded", "failed", "cancelled"];

/** One try to deliver a webhook. */
const DeliveryAttemptSchema = v.object({
  attempt: described(count, "1 for the first try."),
  at: described(v.string(), "ISO 8601."),
  ok: described(v.boolean(), "The receiver answered 2xx."),
  status: v.optional(described(count, "The receiver's HTTP status, when it answered.")),
  error: v.optional(described(v.string(), "Why the attempt failed, when it did.")),
  durationMs: count,
});

/** A problem+json body (RFC 9457), as a failed job keeps it. */
const JobProblemSchema = v.object({ type: v.string(), title: v.string(), status: count, detail: v.string() });

/** A job as the API shows it. */
export const JobSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^job_[0-9a-f]{32}$/)),
  object: v.literal("job"),
  kind: described(v.picklist(JOB_KINDS), "`article` (a generate request) or `refresh`."),
  status: v.picklist(JOB_STATUSES),
  createdAt: described(v.string(), "ISO 8601."),
  startedAt: v.optional(described(v.string(), "ISO 8601; when the latest run began.")),
  finishedAt: v.optional(described(v.string(), "ISO 8601.")),
  expiresAt: v.optional(described(v.string(), "ISO 8601; when the finished job and its result are purged.")),
  runs: described(count, "How often it started: more than 1 when a server stopped mid-run and another run took over."),
  progress: v.object({
    words: described(count, "Body words written so far by the current run (a refresh: the words it wrote, once it ends)."),
  }),
  request: described(
    v.union([NormalisedRequestSchema, RefreshRequestEchoSchema]),
    "The generate request, normalised, or the refresh request.",
  ),
  webhook: v.optional(
    v.object({
      url: v.string(),
      deliveries: described(v.array(DeliveryAttemptSchema), "Every attempt, oldest first."),
      nextAttemptAt: v.optional(described(v.string(), "ISO 8601; when the next retry is due.")),
    }),
  ),
  result: v.optional(
    described(
      v.union([ArticleResponseSchema, RefreshResponseSchema]),
      "The generate answer (or the refresh answer), once the job succeeded.",
    ),
  ),
  error: v.optional(described(JobProblemSchema, "Why the job failed, once it failed.")),
  reason: v.optional(described(v.string(), "Why the job was cancelled when no DELETE cancelled it: `key revoked`.")),
});

/** The body of the webhook a job's end sends. */
export const JobEndedSchema = v.object({
  type: v.picklist(FINAL_STATUSES.map((status) => `job.${status}`)),
  timestamp: described(v.string(), "ISO 8601."),
  data: JobSchema,
});

/** Jobs one page lists unless `limit` says otherwise. */
const DEFAULT_PAGE = 20;

/**
 * The query of `GET /api/v1/jobs?status=&limit=&cursor=`, for a server whose pages hold at most
 * `pageSize` jobs; `isCursor` tells a `nextCursor` this API gave.
 */
export function jobListQuery(pageSize: number, isCursor: (cursor: string) => boolean) {
  return v.object({
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
    cursor: v.optional(v.pipe(v.string(), v.check(isCursor, "cursor must be a nextCursor this API gave"))),
  });
}

/** One page of `GET /api/v1/jobs`. */
export const JobListSchema = v.object({
  object: v.literal("list"),
  data: described(v.array(JobSchema), "Newest first; without `result` (read a job for it)."),
  nextCursor: described(v.nullable(v.string()), "Pass as `cursor` for the next page; null on the last."),
});

/** A job as its owner sees it, as {@link JobSchema} validates it. */
export type Job = v.InferOutput<typeof JobSchema>;
/** One webhook delivery attempt as a job shows it. */
export type DeliveryAttempt = v.InferOutput<typeof DeliveryAttemptSchema>;
/** Why a job failed: the problem body its generation would have answered. */
export type JobProblem = v.InferOutput<typeof JobProblemSchema>;

/** What a new job starts from: an article to write, or one to refresh. */
export type NewJob = ({ kind: "article"; request: GenerateRequest } | { kind: "refresh"; request: RefreshRequest }) & {
  webhook?: { url: string };
};

/**
 * What `POST /api/v1/jobs` takes, as one Standard Schema: the job's extras ({@link JobExtrasSchema})
 * and the request its kind names (without a valid kind, a generate request's), the issues of both
 * reported together. Its output is the new job.
 */
export const JobRequestSchema: StandardSchemaV1<unknown, NewJob> = {
  "~standard": {
    version: 1,
    vendor: "inkpress",
    async validate(body) {
      const extras = await JobExtrasSchema["~standard"].validate(body);
      const refresh = !extras.issues && extras.value.kind === "refresh";
      const request = await (refresh ? RefreshRequestSchema : GenerateRequestSchema)["~standard"].validate(withoutExtras(body));
      if (request.issues || extras.issues) {
        const issues = [...(request.issues ?? []), ...(extras.issues ?? [])];
        nameUnknownFields(issues, refresh ? RefreshRequestSchema : GenerateRequestSchema, JobExtrasSchema);
        return { issues };
      }
      const { webhook } = extras.value;
      return refresh
        ? { value: { kind: "refresh", request: request.value as RefreshRequest, webhook } }
        : { value: { kind: "article", request: withoutTransport(request.value as GenerateRequestBody), webhook } };
    },
  },
};

/** The request's own fields of a jobs body: the strict request schema refuses any other, and the extras are the job's. */
function withoutExtras(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([key]) => !Object.hasOwn(JobExtrasSchema.entries, key)));
}

/** A generate body without its transport choice, which a job has no use for. */
function withoutTransport({ stream: _transport, ...request }: GenerateRequestBody): GenerateRequest {
  return request;
}
