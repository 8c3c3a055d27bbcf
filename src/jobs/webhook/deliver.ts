import http from "node:http";
import https from "node:https";
import { InkpressError } from "../../errors.js";
import { pinnedLookup, type WebhookAddressGuard, type WebhookTarget } from "../../net/address-guard.js";
import { signWebhook, type WebhookHeaders } from "./sign.js";

/** One delivery attempt as the job shows it. */
export interface DeliveryAttempt {
  /** 1 for the first attempt; set when the caller numbers them. */
  attempt?: number;
  /** When the attempt started, ISO 8601. */
  at: string;
  /** The receiver answered 2xx. */
  ok: boolean;
  /** The receiver's HTTP status, when it answered at all. */
  status?: number;
  /** Why the attempt failed: a refused address, a network error, a time-out, a non-2xx answer. */
  error?: string;
  /** From the start of the attempt to its outcome, DNS included. */
  durationMs: number;
}

/** One webhook delivery attempt. */
export interface DeliverWebhookOptions {
  url: string;
  /** The key's `whsec_…` secret, or several while a rotated one is still honoured. */
  secret: string | readonly string[];
  /** The message id, `msg_…`: the same on every attempt of one event. */
  id: string;
  /** The event; a string is sent as it is (already JSON), anything else as `JSON.stringify` gives it. */
  payload: string | object;
  /** Checked again on every attempt: a host may resolve elsewhere hours after the job was accepted. */
  guard: WebhookAddressGuard;
  /**
   * Milliseconds for the whole attempt, from DNS to the response headers. Receivers are expected
   * to acknowledge and work later, and a slow one must not hold a delivery slot.
   * @default 10_000
   */
  timeoutMs?: number;
  /**
   * Copied into the record.
   * @default none: the record carries no number
   */
  attempt?: number;
}

/** Milliseconds an attempt may take unless told otherwise. */
const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;

/**
 * Make one signed POST to a webhook and report how it went. It never throws: a refused
 * address, a network error, a time-out or a non-2xx answer is a failed attempt in the record.
 * It connects only to the addresses the guard checked, follows no redirect (a 3xx fails) and
 * never reads the response body, so a receiver cannot make the server wait on or buffer it.
 */
export async function deliverWebhook(options: DeliverWebhookOptions): Promise<DeliveryAttempt> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const at = new Date();
  const started = performance.now();
  const record = (outcome: Pick<DeliveryAttempt, "ok" | "status" | "error">): DeliveryAttempt => ({
    ...(options.attempt === undefined ? {} : { attempt: options.attempt }),
    at: at.toISOString(),
    ...outcome,
    durationMs: Math.round(performance.now() - started),
  });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), timeoutMs);
  try {
    const body = typeof options.payload === "string" ? options.payload : JSON.stringify(options.payload);
    const target = await beforeDeadline(options.guard.check(options.url), deadline.signal);
    const headers = signWebhook({ secret: options.secret, id: options.id, body });
    const status = await post(target, body, headers, deadline.signal);
    if (status >= 200 && status < 300) return record({ ok: true, status });
    const why = status >= 300 && status < 400 ? `answered ${status}, a redirect, which is not followed` : `answered ${status}`;
    return record({ ok: false, status, error: why });
  } catch (error) {
    if (deadline.signal.aborted) return record({ ok: false, error: `timed out after ${timeoutMs} ms` });
    return record({ ok: false, error: describe(error) });
  } finally {
    clearTimeout(timer);
  }
}

/** POST the body and settle with the status as soon as the response headers arrive. */
function post(target: WebhookTarget, body: string, headers: WebhookHeaders, signal: AbortSignal): Promise<number> {
  const client = target.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      target.url,
      {
        method: "POST",
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(body)),
          "user-agent": "inkpress-webhook",
        },
        // A fresh connection each time: pinned addresses must never meet a pooled socket.
        agent: false,
        lookup: pinnedLookup(target.addresses),
        signal,
      },
      (response) => {
        response.on("error", () => {});
        // Only the status matters; the body is dropped unread with its connection.
        response.destroy();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** The promise, or a rejection once the signal aborts (DNS has no signal of its own). */
function beforeDeadline<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  ETIMEDOUT: "connection timed out",
  ENOTFOUND: "host not found",
  EPIPE: "connection closed while sending",
};

/** One line for the job's attempt list; a refusal keeps the guard's own words. */
function describe(error: unknown): string {
  if (error instanceof InkpressError) return error.message;
  const { code, message } = (error ?? {}) as NodeJS.ErrnoException;
  if (code && NETWORK_ERRORS[code]) return `${NETWORK_ERRORS[code]} (${code})`;
  if (code) return `${code}: ${message}`;
  return error instanceof Error ? error.message : String(error);
}
