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

/**
 * Tries of a request the server asked to make later, with `Retry-After`: 429 and 503 (busy),
 * 409 (the same Idempotency-Key still being submitted). Waits are capped by {@link MAX_WAIT_MS}.
 */
const LATER_ATTEMPTS = 10;
/** Tries of a request whose connection broke after it was made: a reset, a close mid-answer, a time-out. */
const BROKEN_ATTEMPTS = 3;
/** Milliseconds one request may take. */
const REQUEST_TIMEOUT_MS = 30_000;
/** Longest wait between two tries, whatever `Retry-After` says. */
const MAX_WAIT_MS = 60_000;

/**
 * Errors of a connection that was never made: no server listens, the name does not resolve,
 * the address cannot be reached, or it does not speak the URL's protocol. Every row would fail
 * alike, so the batch stops at once.
 */
const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: "connection refused (is the server running, and is this its port?)",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name does not resolve",
  EHOSTUNREACH: "the host cannot be reached",
  ENETUNREACH: "the network cannot be reached",
  UND_ERR_CONNECT_TIMEOUT: "no answer to the connection (is the address right?)",
  EPROTO: "it does not speak HTTPS (try http://)",
  ERR_SSL_WRONG_VERSION_NUMBER: "it does not speak HTTPS (try http://)",
  BAD_PORT: "fetch refuses that port (one of the Fetch standard's blocked ports, such as 9 or 25): run the server on another",
};

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
 * One JSON request (a POST when there is a body). A server that cannot be reached ends the whole
 * batch, as does a refused key; a server that asks to wait (`Retry-After`) or a connection that
 * broke is tried again a bounded number of times; any other refusal is the row's, in the server's words.
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
      const why = causeOf(error);
      const unreachable = UNREACHABLE[why.code ?? ""];
      if (unreachable) throw new BatchError(`cannot reach the server at ${new URL(url).origin}: ${unreachable}`);
      if (attempt >= BROKEN_ATTEMPTS) throw new Error(`${url}: ${why.message}`);
      await sleep(backoff(attempt), undefined, { signal });
      continue;
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (response.ok) return { body, location: response.headers.get("location") ?? undefined };
    const problem = body as { title?: string; detail?: string } | undefined;
    const words = `${response.status} ${problem?.detail ?? problem?.title ?? response.statusText}`;
    if (response.status === 401 || response.status === 403) throw new BatchError(`the server refused the key: ${words}`);
    if (response.status === 404 && post) throw new BatchError(`${url}: no jobs API there (${words}); is it an inkpress server?`);
    const wait = [409, 429, 503].includes(response.status) ? retryAfter(response.headers.get("retry-after")) : undefined;
    if (wait === undefined || attempt >= LATER_ATTEMPTS) throw new Error(words);
    await sleep(wait, undefined, { signal });
  }
}

/** The innermost cause of a failed fetch (undici wraps the socket's error), with its code. */
function causeOf(error: unknown): { code?: string; message: string } {
  let inner = error as Error & { code?: string };
  while (inner.cause instanceof Error) inner = inner.cause as Error & { code?: string };
  if (inner.name === "TimeoutError") return { code: "TIMEOUT", message: `no answer within ${REQUEST_TIMEOUT_MS / 1000} s` };
  if (inner.message === "bad port") return { code: "BAD_PORT", message: inner.message };
  return { code: inner.code, message: inner.message };
}

/** A job as the API shows it; anything else means the URL is not an inkpress server, for every row alike. */
function jobOf(body: unknown, server: string): v.InferOutput<typeof JobSchema> {
  const job = v.safeParse(JobSchema, body);
  if (!job.success) throw new BatchError(`${server} did not answer with a job; is it an inkpress server?`);
  return job.output;
}

/** 0.5 s, 1 s, 2 s… */
function backoff(attempt: number): number {
  return Math.min(MAX_WAIT_MS, 500 * 2 ** (attempt - 1));
}

/** Retry-After in milliseconds (seconds or an HTTP date), at most {@link MAX_WAIT_MS}. */
function retryAfter(header: string | null): number | undefined {
  if (header === null) return undefined;
  const ms = /^\d+$/.test(header.trim()) ? Number(header) * 1000 : Date.parse(header) - Date.now();
  return Number.isFinite(ms) ? Math.min(MAX_WAIT_MS, Math.max(0, ms)) : undefined;
}
