import type { FieldError } from "../contract/fields.js";
import type { GenerateRequest } from "../contract/request.js";
import { InkpressError } from "../errors.js";
import { requestConflicts } from "./plan/conflicts.js";

declare const ACCEPTED: unique symbol;

/** A request the engine has accepted ({@link acceptRequest}): the only kind it writes or drafts an outline for. */
export type AcceptedRequest = GenerateRequest & { readonly [ACCEPTED]: true };

/**
 * Every field of the request that one of its bans contradicts (a keyword, a link keyword or a
 * heading of its outline holding a banned phrase, a topic left no word), as validation names a
 * field; empty when none. An outline that only breaks a form rule (a long section, an H3 first)
 * is written as given: the report says so.
 */
export function conflictingFields(request: GenerateRequest): FieldError[] {
  return requestConflicts(request).map(({ path, message }) => ({ path, message }));
}

/**
 * The engine's entry for writing and drafting: a request whose bans its keywords, topic or
 * headings contradict is refused before anything is admitted or written, with a 422 naming every
 * field involved as validation's does. Called once per request, on the request as it will be
 * written (a key's default style already laid under its own, which the schema cannot see).
 */
export function acceptRequest(request: GenerateRequest): AcceptedRequest {
  const errors = conflictingFields(request);
  if (errors.length === 0) return request as AcceptedRequest;
  const fields = errors.length === 1 ? "an invalid field" : `${errors.length} invalid fields`;
  throw new InkpressError(`The request has ${fields}: ${errors.map((e) => e.path).join(", ")}.`, { status: 422, extensions: { errors } });
}
