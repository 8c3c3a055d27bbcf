import { HTTPError } from "h3";
import { InkpressError, InvalidFieldError } from "../errors.js";
import { problemDetails } from "../problem-details.js";

export { PROBLEM_TYPES } from "../errors.js";

/** Status logged for a request whose client went away before the answer (nginx's convention). */
export const CLIENT_CLOSED = 499;

/** What a problem may add to the RFC 9457 fields. */
export interface ProblemOptions {
  /**
   * Extra members, such as `errors` for validation failures.
   * @default none
   */
  extensions?: Record<string, unknown>;
  /**
   * Headers the answer carries besides its content type, such as `retry-after`.
   * @default none
   */
  headers?: Record<string, string>;
}

/** An error that answers as `application/problem+json` with the given status and detail. */
export function problem(status: number, detail: string, options: ProblemOptions = {}): HTTPError {
  return new HTTPError({ status, message: detail, body: options.extensions, headers: options.headers });
}

/**
 * Any error as an HTTPError: an {@link InkpressError} (thrown, or wrapped by h3) keeps its status,
 * message and headers; any other error is an unhandled 500, answered with the generic detail.
 */
export function asHttpError(error: unknown): HTTPError {
  const own =
    error instanceof InkpressError ? error : HTTPError.isError(error) && error.cause instanceof InkpressError ? error.cause : undefined;
  // Anything else is unexpected: its message (a library's, perhaps quoting what the request held) stays in the log.
  if (!own) return HTTPError.isError(error) ? error : new HTTPError({ cause: error, unhandled: true });
  // A field error answers as a validation failure does: `errors` names the field.
  const extensions = own instanceof InvalidFieldError ? { errors: [{ path: own.field, message: own.problem }] } : own.extensions;
  return problem(own.status, own.message, { headers: own.headers, extensions });
}

/**
 * Whether an error is a fault of the server, whose stack belongs in the log: anything we did not
 * raise on purpose, and a 5xx that is not load shedding (a 503 with `Retry-After`: a full queue,
 * a busy model, a shutdown). Client errors and shed load are routine: their request line says all.
 */
export function isFault(error: HTTPError): boolean {
  if (error.unhandled) return true;
  return error.status >= 500 && !(error.status === 503 && error.headers?.has("retry-after"));
}

/**
 * Turn any error into an RFC 9457 response. Errors the app did not raise itself
 * become a plain 500: their message, stack and paths stay in the server log.
 */
export function toProblemResponse(error: HTTPError, instance: string): Response {
  const body = problemBody(error, instance);
  const headers = new Headers(error.unhandled ? undefined : error.headers);
  headers.set("content-type", "application/problem+json");
  return new Response(JSON.stringify(body), { status: body.status, headers });
}

/** The RFC 9457 body of an error (also sent as the `error` event of a stream). */
export function problemBody(error: HTTPError, instance: string) {
  const status = error.unhandled ? 500 : error.status;
  return {
    ...problemDetails(status, error.unhandled || !error.message ? undefined : error.message),
    instance,
    ...(error.unhandled ? {} : error.body),
  };
}
