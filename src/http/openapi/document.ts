/**
 * The OpenAPI 3.1 document of the API, served at `GET /api/v1/openapi.json` and rendered as
 * the reference page (`GET /docs`) and the playground form (`GET /`), so the three cannot
 * drift apart. Every body and answer schema is converted from the valibot schema that
 * validates or types it, its prose from the schema's descriptions; each path group
 * (articles, jobs, service) brings its paths and schemas.
 */
import { readFileSync } from "node:fs";
import { analyseGroup } from "./analyse.js";
import { planningGroup } from "./planning.js";
import { articlesGroup } from "./articles.js";
import type { Json } from "./convert.js";
import { publishGroup } from "./publish.js";
import { jobsGroup } from "./jobs.js";
import { problemResponses, problemSchemas } from "./problems.js";
import { serviceGroup } from "./service.js";

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")) as { version?: string };
    return pkg.version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

const INFO = {
  title: "inkpress",
  summary: "Writes SEO-optimised articles with a local GGUF language model.",
  description:
    "A self-hosted HTTP API: the model writes the words, deterministic code owns the structure, and every answer carries an SEO report that measures the " +
    "final article. Human-readable reference: `/docs`; playground: `/`.",
  license: { name: "MIT", identifier: "MIT" },
};

const API_KEY_SCHEME = {
  type: "apiKey",
  in: "header",
  name: "x-api-key",
  description: "An API key, only ever in this header (never in the query string).",
};

/** How a webhook's receiver knows the call came from this server: the signature a key's secret makes. */
const WEBHOOK_SIGNATURE_SCHEME = {
  type: "apiKey",
  in: "header",
  name: "webhook-signature",
  description:
    "Standard Webhooks: `v1,<base64 HMAC-SHA256 of webhook-id.webhook-timestamp.body>`, made with the `whsec_…` secret of the key that created the job. The " +
    "receiver checks it (and the timestamp's age) before it trusts the call.",
};

function buildDocument(): Json {
  const groups = [articlesGroup(), planningGroup(), analyseGroup(), publishGroup(), jobsGroup(), serviceGroup()];
  return {
    openapi: "3.1.1",
    info: { ...INFO, version: version() },
    servers: [{ url: "/" }],
    tags: groups.map((group) => ({ name: group.tag, description: group.description })),
    webhooks: Object.assign({}, ...groups.map((group) => group.webhooks ?? {})),
    paths: Object.assign({}, ...groups.map((group) => group.paths)),
    components: {
      securitySchemes: { apiKey: API_KEY_SCHEME, webhookSignature: WEBHOOK_SIGNATURE_SCHEME },
      schemas: Object.assign({}, ...groups.map((group) => group.schemas), problemSchemas()),
      requestBodies: Object.assign({}, ...groups.map((group) => group.requestBodies ?? {})),
      responses: problemResponses(),
    },
  };
}

let cached: Json | undefined;

/** The OpenAPI document, built on first use (a conversion failure then fails the docs routes, not the server). */
export function openApiDocument(): Json {
  cached ??= buildDocument();
  return cached;
}
