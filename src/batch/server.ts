import { setTimeout as sleep } from "node:timers/promises";
import * as v from "valibot";
import { deadline } from "../deadline.js";
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
  /**
   * Milliseconds one request may take, its answer read in full; past it the request is tried
   * again, and after {@link SILENT_TRIES} silent tries in a row the batch stops.
   * @default 30_000
   */
  requestTimeoutMs?: number;
  /**
   * A request went unanswered and is tried again: one line saying the server is slow.
   * @default none
   */
  onSlow?(message: string): void;
}

/**
 * Tries of a request the server asked to make later, with `Retry-After`: 429 and 503 (busy),
 * 409 (the same Idempotency-Key still being submitted). Waits are capped by {@link MAX_WAIT_MS}.
 */
const LATER_ATTEMPTS = 10;
/** Tries of a request whose connection broke after it was made: a reset, a close mid-answer. */
const BROKEN_ATTEMPTS = 3;
/** Tries of a request the server took and never answered in time; then the whole batch stops, as every row would wait alike. */
const SILENT_TRIES = 3;
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
export function serverWriter({ url, key, pollMs = 1000, requestTimeoutMs = 30_000, onSlow }: ServerOptions): WriteRow {
  const base = url.replace(/\/+$/, "");
  const call = (target: string, signal: AbortSignal, post?: Post) =>
    callServer({ url: target, key, timeoutMs: requestTimeoutMs, onSlow }, signal, post);
  return async (row, signal) => {
    const submitted = await call(`${base}/api/v1/jobs`, signal, { body: row.body, idempotencyKey: `inkpress-batch-${row.key}` });
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
      job = jobOf((await call(location, signal)).body, url);
    }
  };
}

/** A JSON body to POST, under an Idempotency-Key so that a retried submit is the same job. */
interface Post {
  body: unknown;
  idempotencyKey: string;
}

/** One request to the server: where, with which key, how long it may take, and who hears that it is slow. */
interface Request {
  url: string;
  key: string;
  timeoutMs: number;
  onSlow: ServerOptions["onSlow"];
}

/**
 * One JSON request (a POST when there is a body). A server that cannot be reached ends the whole
 * batch, as does a refused key or a server that leaves {@link SILENT_TRIES} tries in a row
 * unanswered; a server that asks to wait (`Retry-After`) or a connection that broke is tried
 * again a bounded number of times; any other refusal is the row's, in the server's words.
 */
async function callServer(request: Request, signal: AbortSignal, post?: Post): Promise<{ body: unknown; location: string | undefined }> {
  const { url, timeoutMs } = request;
  const origin = new URL(url).origin;
  const started = performance.now();
  let silent = 0;
  for (let attempt = 1; ; attempt++) {
    let answer: { response: Response; body: unknown };
    // Each try has its own deadline, the submit's and every poll's alike.
    const attemptEnds = deadline(timeoutMs, signal);
    try {
      answer = await send(request, attemptEnds.signal, post);
    } catch (error) {
      signal.throwIfAborted();
      const why = causeOf(error, timeoutMs);
      const unreachable = UNREACHABLE[why.code ?? ""];
      if (unreachable) throw new BatchError(`cannot reach the server at ${origin}: ${unreachable}`);
      if (why.code === "TIMEOUT" && ++silent >= SILENT_TRIES) {
        const waited = Math.round((performance.now() - started) / 1000);
        throw new BatchError(
          `the server at ${origin} took the request and sent no answer: ${silent} tries of ${timeoutMs / 1000} s, ${waited} s waited (--request-timeout); ` +
            `it is stuck or overloaded`,
        );
      }
      // A silent server has had its time already: ask again at once.
      if (why.code === "TIMEOUT")
        request.onSlow?.(
          `the server at ${origin} is slow: no answer within ${timeoutMs / 1000} s; trying again (${silent + 1} of ${SILENT_TRIES})`,
        );
      else if (attempt - silent >= BROKEN_ATTEMPTS) throw new Error(`${url}: ${why.message}`);
      else await sleep(backoff(attempt - silent), undefined, { signal });
      continue;
    } finally {
      attemptEnds.clear();
    }
    const { response, body } = answer;
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

/** Make the request and read its answer in full, both within `signal`: a server that sends headers and then nothing is as silent as one that sends nothing. */
async function send({ url, key }: Request, signal: AbortSignal, post?: Post): Promise<{ response: Response; body: unknown }> {
  const response = await fetch(url, {
    method: post ? "POST" : "GET",
    headers: {
      accept: "application/json",
      "x-api-key": key,
      ...(post && { "content-type": "application/json", "idempotency-key": post.idempotencyKey }),
    },
    body: post && JSON.stringify(post.body),
    signal,
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { response, body };
}

/** The innermost cause of a failed fetch (undici wraps the socket's error), with its code. */
function causeOf(error: unknown, timeoutMs: number): { code?: string; message: string } {
  let inner = error as Error & { code?: string };
  while (inner.cause instanceof Error) inner = inner.cause as Error & { code?: string };
  if (inner.name === "TimeoutError") return { code: "TIMEOUT", message: `no answer within ${timeoutMs / 1000} s` };
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
