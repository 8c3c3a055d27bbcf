/**
 * The problem+json answers (RFC 9457) of the document: their schemas (converted from the
 * wire contract's), when each type happens (prose the reference page shows too), and the
 * reusable responses.
 */
import { STATUS_CODES } from "node:http";
import { ProblemSchema, ValidationProblemSchema } from "../../contract/problem.js";
import { BODY_LIMIT } from "../body.js";
import { PROBLEM_TYPES } from "../problem.js";
import { answerSchema, ref, type Json } from "./convert.js";

/** When each problem type happens. */
export const PROBLEM_NOTES: Record<keyof typeof PROBLEM_TYPES, string> = {
  400: "The body is empty, not valid JSON, or nested too deeply.",
  401:
    'No `x-api-key` header, or an empty, unknown, revoked or doubled one: the same answer for each, with `WWW-Authenticate: ApiKey header="x-api-key"`. ' +
    "Keys in the query string are not read.",
  403: "The key may not publish to the named publishing target (`inkpress keys create --publish-to`); `target` names it.",
  404: "No such path, or no job of that id for this key (another key's jobs are not found either).",
  405: "Another method than POST on `/api/v1/generate` (the answer has `Allow: POST`).",
  406: "`Accept` names no format the endpoint serves.",
  408: "The request was not received in time.",
  409:
    "A request with the same `Idempotency-Key` is still being processed; retry once it has finished. With `publish`: the post the article is (by its " +
    "recorded id or slug) is another key's, or one inkpress did not make; `detail` names it, and the site is left as it was.",
  413: `The body is larger than ${BODY_LIMIT / 1024} KiB.`,
  415: "The body is not declared as `application/json`.",
  422: "Valid JSON that breaks a rule; `errors: [{ path, message }]` names every invalid field. Also an `Idempotency-Key` reused with a different body.",
  429: "The key's rate limit, concurrency limit or daily word quota is spent (with `Retry-After` and `RateLimit` headers).",
  431: "The request headers are too large.",
  500: "An unexpected failure; it is logged on the server and the answer carries no detail.",
  502:
    "With `--backend`: the inference server could not be reached, answered with an error, or cut the answer off; `detail` says which. With `publish`: " +
    "the publishing target refused (credentials, capability), could not be reached, or failed TLS; `detail` names the target.",
  503:
    "Every generation slot busy and the queue full, or the server shutting down (with `Retry-After`), or the model failed to load, or the inference " +
    "server busy, or the shared state (Redis) unreachable.",
  504: "The article was not finished within the deadline, or the inference server stayed silent too long; the generation stopped.",
};

/** A status that has a problem type. */
export type ProblemStatus = keyof typeof PROBLEM_TYPES;

const PROBLEM_HEADERS: Partial<Record<ProblemStatus, Json>> = {
  401: { "WWW-Authenticate": { schema: { type: "string", const: 'ApiKey header="x-api-key"' } } },
  405: { Allow: { schema: { type: "string", const: "POST" } } },
  429: { "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait." } },
  503: { "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait (queue full or shutting down)." } },
};

function problemResponse(status: ProblemStatus): Json {
  const headers = PROBLEM_HEADERS[status];
  return {
    description: `${STATUS_CODES[status]} (\`/docs#${PROBLEM_TYPES[status]}\`): ${PROBLEM_NOTES[status]}`,
    ...(headers ? { headers } : {}),
    content: { "application/problem+json": { schema: ref(status === 422 ? "ValidationProblem" : "Problem") } },
  };
}

/**
 * What any request can be answered with, whatever its route: HTTP that cannot be parsed or
 * no Host header (400), headers not received in time (408) or too large (431).
 */
const ANY_REQUEST: readonly ProblemStatus[] = [400, 408, 431];

/** An operation's problem answers, those of {@link ANY_REQUEST} included: references to the shared responses. */
export function problemRefs(statuses: readonly ProblemStatus[] = []): Json {
  return Object.fromEntries(
    [...ANY_REQUEST, ...statuses].map((status) => [status, { $ref: `#/components/responses/${PROBLEM_TYPES[status]}` }]),
  );
}

/** The problem schemas of `components.schemas`. */
export function problemSchemas(): Json {
  return { Problem: answerSchema(ProblemSchema), ValidationProblem: answerSchema(ValidationProblemSchema) };
}

/** One reusable response per problem type, for `components.responses`. */
export function problemResponses(): Json {
  const statuses = Object.keys(PROBLEM_TYPES).map(Number) as ProblemStatus[];
  return Object.fromEntries(statuses.map((status) => [PROBLEM_TYPES[status], problemResponse(status)]));
}
