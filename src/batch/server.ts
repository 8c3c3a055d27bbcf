import { setTimeout as sleep } from "node:timers/promises";
import * as v from "valibot";
import { BatchError } from "./errors.js";
import type { WriteRow } from "./run.js";

/** An inkpress server that writes the rows, through its jobs API. */
export interface ServerOptions {
  /** The server's root URL. */
  url: string;
  /** Sent as `x-api-key`. */
  key: string;
  /**
   * Milliseconds between two looks at a running job.
   * @default 1000
   */
  pollMs?: number;
}

/** Tries of one request the server did not answer, or answered with "later": 409 (the same Idempotency-Key still being submitted), 429, 502, 503, 504. */
const ATTEMPTS = 10;
/** Milliseconds one request may take. */
const REQUEST_TIMEOUT_MS = 30_000;

const JobSchema = v.looseObject({
  id: v.string(),
  status: v.string(),
  result: v.optional(v.unknown()),
  error: v.optional(v.looseObject({ title: v.optional(v.string()), detail: v.optional(v.string()) })),
});

/** What the batch needs of a job's result (the generate JSON answer, kept whole): the slug names files, so it must be a slug. */
const ResultSchema = v.looseObject({
  created: v.number(),
  article: v.looseObject({
    title: v.string(),
    slug: v.pipe(v.string(), v.regex(/^[a-z0-9]+(-[a-z0-9]+)*$/), v.maxLength(75)),
    metaDescription: v.string(),
    keywords: v.array(v.string()),
    language: v.string(),
    markdown: v.string(),
  }),
});

/**
 * Rows written by a server: each is submitted as a job and polled until it ends. The job
 * carries an Idempotency-Key from the row's key, so a run that dies after submitting and
 * is run again gets the same job (finished by then, perhaps) instead of a second one.
 */
export function serverWriter({ url, key, pollMs = 1000 }: ServerOptions): WriteRow {
  const base = url.replace(/\/+$/, "");
  return async (row, signal) => {
    const submitted = await call(`${base}/api/v1/jobs`, key, signal, { body: row.body, idempotencyKey: `inkpress-batch-${row.key}` });
    let job = jobOf(submitted.body, url);
    const location = new URL(submitted.location ?? `/api/v1/jobs/${encodeURIComponent(job.id)}`, `${base}/`).href;
    for (;;) {
      if (job.status === "succeeded") {
        const result = v.safeParse(ResultSchema, job.result);
        if (!result.success) throw new Error(`job ${job.id} succeeded without an article the batch can write`);
        return result.output;
      }
      if (job.status === "failed") throw new Error(job.error?.detail ?? job.error?.title ?? `job ${job.id} failed`);
      if (job.status === "cancelled") throw new Error(`job ${job.id} was cancelled on the server`);
      await sleep(pollMs, undefined, { signal });
      job = jobOf((await call(location, key, signal)).body, url);
    }
  };
}

/**
 * One JSON request (a POST when there is a body), tried again while the server is out of
 * reach or asks to wait (with Retry-After, or backing off). A refused key ends the whole batch;
 * any other refusal is the row's, in the server's words.
 */
async function call(
  url: string,
  key: string,
  signal: AbortSignal,
  post?: { body: unknown; idempotencyKey: string },
): Promise<{ body: unknown; location: string | undefined }> {
  for (let attempt = 1; ; attempt++) {
    let response: Response;
    try {
      response = await fetch(url, {
        method: post ? "POST" : "GET",
        headers: {
          accept: "application/json",
          "x-api-key": key,
          ...(post && { "content-type": "application/json", "idempotency-key": post.idempotencyKey }),
        },
        body: post && JSON.stringify(post.body),
        signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
      });
    } catch (error) {
      signal.throwIfAborted();
      if (attempt >= ATTEMPTS) throw new Error(`${url}: ${((error as Error).cause as Error | undefined)?.message ?? (error as Error).message}`);
      await sleep(backoff(attempt), undefined, { signal });
      continue;
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (response.ok) return { body, location: response.headers.get("location") ?? undefined };
    const problem = body as { title?: string; detail?: string } | undefined;
    const words = `${response.status} ${problem?.detail ?? problem?.title ?? response.statusText}`;
    if (response.status === 401 || response.status === 403) throw new BatchError(`the server refused the key: ${words}`);
    if (response.status === 404 && post) throw new BatchError(`${url}: no jobs API there (${words}); is it an inkpress server?`);
    if (![409, 429, 502, 503, 504].includes(response.status) || attempt >= ATTEMPTS) throw new Error(words);
    await sleep(retryAfter(response.headers.get("retry-after")) ?? backoff(attempt), undefined, { signal });
  }
}

/** A job as the API shows it; anything else means the URL is not an inkpress server, for every row alike. */
function jobOf(body: unknown, server: string): v.InferOutput<typeof JobSchema> {
  const job = v.safeParse(JobSchema, body);
  if (!job.success) throw new BatchError(`${server} did not answer with a job; is it an inkpress server?`);
  return job.output;
}

/** 0.5 s, 1 s, 2 s… up to 30 s. */
function backoff(attempt: number): number {
  return Math.min(30_000, 500 * 2 ** (attempt - 1));
}

/** Retry-After in milliseconds (seconds or an HTTP date), at most 10 minutes. */
function retryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const ms = /^\d+$/.test(header.trim()) ? Number(header) * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(600_000, Math.max(0, ms)) : undefined;
}
