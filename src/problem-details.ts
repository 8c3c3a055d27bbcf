/**
 * Errors as RFC 9457 problem details: the body an HTTP answer or a failed job carries, its
 * title Node's name of the status. Apart from src/errors.ts, which needs no Node module, so
 * the package's client (which runs in browsers too) raises its errors through the same base.
 */
import { STATUS_CODES } from "node:http";
import { InkpressError, PROBLEM_TYPES } from "./errors.js";

/** The members of a problem+json body (RFC 9457) besides `instance`. */
export interface ProblemDetails {
  type: string;
  title: string;
  status: number;
  detail: string;
}

/** A problem of a status; without a detail of our own, the status's name says it (a 500 never shows its cause). */
export function problemDetails(status: number, detail?: string): ProblemDetails {
  const known = PROBLEM_TYPES[status as keyof typeof PROBLEM_TYPES];
  const fallback = status === 500 ? "An internal error stopped the request. It has been logged." : (STATUS_CODES[status] ?? "Error");
  return { type: known ? `/docs#${known}` : "about:blank", title: STATUS_CODES[status] ?? "Error", status, detail: detail || fallback };
}

/** The problem of any error: ours keep their status and message; anything else is a 500 whose cause stays in the log. */
export function problemOf(error: unknown): ProblemDetails {
  return error instanceof InkpressError ? problemDetails(error.status, error.message) : problemDetails(500);
}
