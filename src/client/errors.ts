/** What the client throws, through the project's one error base (which needs no Node module). */
import { InkpressError } from "../errors.js";
import type { Problem } from "./types.js";

/**
 * An answer that is an error: `status` is its HTTP status (for an `error` event of a stream,
 * the problem's), `headers` its headers, and `problem` its problem+json body.
 */
export class InkpressApiError extends InkpressError {
  /** The problem body; a body that was not problem+json is described by one. */
  readonly problem: Problem;
  /** Seconds to wait before trying again, from `Retry-After`, when the server sent one. */
  readonly retryAfter: number | undefined;

  constructor(problem: Problem, headers?: Headers) {
    super(`${problem.status} ${problem.title}: ${problem.detail}`, {
      status: problem.status,
      headers: headers ? Object.fromEntries(headers) : {},
    });
    this.problem = problem;
    this.retryAfter = headers ? retryAfterSeconds(headers) : undefined;
  }
}

/** A stream that ended before its `done` or `error` event: the connection was cut (a 502, as a proxy would say). */
export class IncompleteStreamError extends InkpressError {
  constructor() {
    super("The stream ended before the article was done.", { status: 502 });
  }
}

/** `Retry-After` in seconds: a number of seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(headers: Headers): number | undefined {
  const value = headers.get("retry-after")?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The error an unsuccessful answer stands for, its body read. */
export async function apiError(response: Response): Promise<InkpressApiError> {
  const text = await response.text();
  let problem: Problem | undefined;
  if (/^application\/(problem\+)?json\b/i.test(response.headers.get("content-type") ?? "")) {
    try {
      problem = JSON.parse(text) as Problem;
    } catch {
      // not JSON after all: described below
    }
  }
  problem ??= { type: "about:blank", title: response.statusText || "Error", status: response.status, detail: text.slice(0, 500) };
  return new InkpressApiError(problem, response.headers);
}
