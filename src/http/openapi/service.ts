/** The service part of the document: health, metrics and the document itself, none needing a key. */
import { HealthSchema } from "../../contract/health.js";
import { answerSchema } from "./convert.js";
import type { PathGroup } from "./group.js";
import { problemRefs } from "./problems.js";

/** Where the document is served; public, like `/docs` and `/`. */
export const OPENAPI_PATH = "/api/v1/openapi.json";

const PUBLIC: never[] = [];
const health = { "application/json": { schema: { $ref: "#/components/schemas/Health" } } };

/** The service path group. */
export function serviceGroup(): PathGroup {
  return {
    tag: "service",
    description: "Running the server: health, metrics and this document, none needing a key.",
    paths: {
      "/healthz": {
        get: {
          operationId: "health",
          tags: ["service"],
          summary: "Health and load",
          description:
            "No key needed. 200 once the model is loaded (or the inference server reached), with its name, how it is prompted, where it runs and how busy " +
            "the queue is.",
          security: PUBLIC,
          responses: {
            200: { description: "Ready.", content: health },
            503: { description: "The model is still loading.", content: health },
            ...problemRefs(),
          },
        },
      },
      "/metrics": {
        get: {
          operationId: "metrics",
          tags: ["service"],
          summary: "Prometheus metrics",
          description:
            "No key needed; no secrets. Requests by route and status, articles, tokens, queue depth, time to first token and decode rate, in the Prometheus " +
            "text format.",
          security: PUBLIC,
          responses: { 200: { description: "The metrics.", content: { "text/plain": { schema: { type: "string" } } } }, ...problemRefs() },
        },
      },
      [OPENAPI_PATH]: {
        get: {
          operationId: "openapi",
          tags: ["service"],
          summary: "This document",
          description: "No key needed.",
          security: PUBLIC,
          responses: {
            200: { description: "The OpenAPI 3.1 document.", content: { "application/json": { schema: { type: "object" } } } },
            ...problemRefs(),
          },
        },
      },
    },
    schemas: { Health: answerSchema(HealthSchema) },
  };
}
