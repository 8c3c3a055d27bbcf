/** What each path group of the document (articles, jobs, service) brings to it. */
import type { Json } from "./convert.js";

/** One path group: its tag, paths, component schemas and request bodies, and the webhooks it sends. */
export interface PathGroup {
  tag: string;
  /** What the tag's operations are for, in a sentence. */
  description: string;
  paths: Json;
  schemas: Json;
  /**
   * Request bodies, kept in `components.requestBodies` rather than `components.schemas`: a
   * field with a default is optional to send, and generators (openapi-typescript) read a
   * default in a schema component as "always present".
   */
  requestBodies?: Json;
  webhooks?: Json;
}

/** `Idempotency-Key`, on `POST /api/v1/generate` and `POST /api/v1/jobs`. */
export const IDEMPOTENCY_KEY = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  schema: { type: "string", minLength: 1, maxLength: 255 },
  description:
    "draft-ietf-httpapi-idempotency-key-header: the same key with the same body gives the same answer (generate: kept 24 h; jobs: the same job, as long as " +
    "it is kept), marked `Idempotent-Replayed: true`; the same key with another body is a 422; while the first request runs, a 409. Keys are per API key.",
};

/** The security of an operation that needs a key. */
export const KEYED = [{ apiKey: [] }];
