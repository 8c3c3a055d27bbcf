import type { HTTPError } from "h3";
import type { StandardSchemaV1 } from "@standard-schema/spec";
import { fieldErrors } from "../article/wire/fields.js";
import { problem } from "./problem.js";

/** A 422 naming every invalid field, for `readValidatedBody`'s `onError`. */
export function validationProblem(result: StandardSchemaV1.FailureResult): HTTPError {
  const errors = fieldErrors(result);
  const fields = errors.length === 1 ? "an invalid field" : `${errors.length} invalid fields`;
  return problem(422, `The request has ${fields}: ${errors.map((e) => e.path).join(", ")}.`, { extensions: { errors } });
}
