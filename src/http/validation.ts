import type { HTTPError } from "h3";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { fieldPath } from "../article/fields.js";
import { problem } from "./problem.js";

/** One invalid field of a request. */
export interface FieldError {
  /** Path of the field, such as `seo.keywords` or `links[2].url`; `body` for the request as a whole. */
  path: string;
  message: string;
}

type FailureResult = StandardSchemaV1.FailureResult;

/** The field errors of a failed validation, one per field, in the order found. */
export function fieldErrors(result: FailureResult): FieldError[] {
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const issue of result.issues) {
    const path = fieldPath((issue.path ?? []).map((p) => (typeof p === "object" ? p.key : p))) ?? "body";
    if (seen.has(path)) continue;
    seen.add(path);
    errors.push({ path, message: issue.message });
  }
  return errors;
}

/** A 422 naming every invalid field, for `readValidatedBody`'s `onError`. */
export function validationProblem(result: FailureResult): HTTPError {
  const errors = fieldErrors(result);
  const fields = errors.length === 1 ? "an invalid field" : `${errors.length} invalid fields`;
  return problem(422, `The request has ${fields}: ${errors.map((e) => e.path).join(", ")}.`, { extensions: { errors } });
}
