import * as v from "valibot";
import { described } from "./schema.js";

/**
 * The problem+json answers (RFC 9457) as valibot schemas: they type what clients receive
 * and are converted into the OpenAPI document.
 */

const FieldErrorSchema = v.object({
  path: described(v.string(), "Dotted path of the field, such as `seo.keywords`; `body` for the request as a whole."),
  message: v.string(),
});

const PROBLEM_ENTRIES = {
  type: described(v.string(), "`/docs#<name>`: the entry of this problem in the API reference."),
  title: described(v.string(), "The HTTP status text."),
  status: v.pipe(v.number(), v.integer(), v.minValue(400)),
  detail: described(v.string(), "What went wrong, for a person."),
  instance: v.optional(described(v.string(), "The path of the request.")),
};

/** Every problem answer. */
export const ProblemSchema = described(
  v.object({ ...PROBLEM_ENTRIES, errors: v.optional(described(v.array(FieldErrorSchema), "422 only: every invalid field.")) }),
  "RFC 9457 problem details.",
);

/** A 422 for invalid fields: `errors` names each. */
export const ValidationProblemSchema = described(
  v.object({ ...PROBLEM_ENTRIES, errors: described(v.pipe(v.array(FieldErrorSchema), v.minLength(1)), "Every invalid field.") }),
  "RFC 9457 problem details of invalid fields.",
);

/** A problem+json body, as {@link ProblemSchema} types it. */
export type Problem = v.InferOutput<typeof ProblemSchema>;
