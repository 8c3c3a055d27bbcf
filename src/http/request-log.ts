import { randomUUID } from "node:crypto";
import type { H3Event } from "h3";

declare module "h3" {
  interface H3EventContext {
    /** The request's id: the client's `x-request-id` when it is a sane one, else a new UUID. */
    requestId?: string;
    /** When the request arrived (performance.now()). */
    startedAt?: number;
    /** What the request produced, for its log line. */
    produced?: { words: number; tokens: number };
    /** Set when the response is a stream, which logs itself when it ends. */
    streaming?: boolean;
  }
}

const SANE_ID = /^[\w.:-]{1,128}$/;

/** Give the request its id (echoed in `x-request-id`) and note when it started. */
export function startRequest(event: H3Event): void {
  const given = event.req.headers.get("x-request-id");
  event.context.requestId = given && SANE_ID.test(given) ? given : randomUUID();
  event.context.startedAt = performance.now();
  event.res.headers.set("x-request-id", event.context.requestId);
}

/**
 * The one structured log line of a request: id, key name (never the key), status,
 * duration, words, tokens. Bare JSON on stdout, whatever the environment.
 */
export function logRequest(event: H3Event, status: number): void {
  process.stdout.write(
    `${JSON.stringify({
      requestId: event.context.requestId,
      method: event.req.method,
      path: event.url.pathname,
      key: event.context.apiKey?.name ?? null,
      status,
      durationMs: Math.round(performance.now() - (event.context.startedAt ?? performance.now())),
      words: event.context.produced?.words ?? 0,
      tokens: event.context.produced?.tokens ?? 0,
    })}\n`,
  );
}
