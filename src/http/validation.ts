import type { StandardSchemaV1 } from "@standard-schema/spec";
import { defineHandler, defineRoute, type H3Plugin, type HTTPError, type Middleware, type RouteDefinition } from "h3";
import { fieldErrors } from "../contract/fields.js";
import { jsonBody } from "./body.js";
import { problem } from "./problem.js";

/** A 422 naming every invalid field: the `onError` of h3's validation, for bodies and queries alike. */
export function validationProblem(result: StandardSchemaV1.FailureResult): HTTPError {
  const errors = fieldErrors(result);
  const fields = errors.length === 1 ? "an invalid field" : `${errors.length} invalid fields`;
  return problem(422, `The request has ${fields}: ${errors.map((e) => e.path).join(", ")}.`, { extensions: { errors } });
}

/** How a JSON route takes its body. */
export interface JsonRouteOptions<Body extends StandardSchemaV1> {
  /** The wire schema the body must pass; its output is what the handler's `event.req.json()` gives. */
  body: Body;
  /** Time a client has to send its body. */
  bodyTimeoutMs: number;
  /**
   * Checks that answer before the body is read (the generate route's 406).
   * @default none
   */
  before?: Middleware[];
  /**
   * Whether any other method answers 405 with `Allow: POST`, as the OpenAPI document says of the
   * route; otherwise another method finds no route (404).
   * @default false
   */
  onlyPost?: boolean;
}

/** Any other method than POST on a route that takes only POST. */
const methodNotAllowed = defineHandler((event) => {
  throw problem(405, `${event.req.method} is not allowed here; use POST.`, { headers: { allow: "POST" } });
});

/**
 * `POST route` through h3's own tools: `defineRoute` registers it for POST, the body is read within
 * the limits ({@link jsonBody}: 415, 413, 408, 400), then h3 validates it against the wire schema
 * and answers a failure with {@link validationProblem}. Register it with `app.register`.
 */
export function jsonRoute<Body extends StandardSchemaV1>(
  route: string,
  { body, bodyTimeoutMs, before = [], onlyPost = false }: JsonRouteOptions<Body>,
  handler: RouteDefinition<Body>["handler"],
): H3Plugin {
  const post = defineRoute({
    method: "POST",
    route,
    middleware: [...before, jsonBody(bodyTimeoutMs)],
    validate: { body, onError: validationProblem },
    handler,
  });
  return (app) => {
    post(app);
    if (onlyPost) app.all(route, methodNotAllowed);
  };
}
