/**
 * The OpenAPI 3.1 document of the API, served at `GET /api/v1/openapi.json` and rendered
 * as the reference page (`GET /docs`) and the playground form (`GET /`), so the three
 * cannot drift apart.
 *
 * The request body schema is not written by hand: it is converted from the valibot
 * `GenerateRequestSchema` (src/article/request.ts, the one source of truth) by
 * `@valibot/to-json-schema`. What JSON Schema cannot express (custom checks, rules
 * on the value after a type-changing transform) is named in the field's `description`,
 * generated from the valibot messages themselves. The answer's schemas are converted from
 * the valibot schemas that type the engine's output (src/article/response.ts); only the
 * HTTP layer's own shapes (problems, health) are written here.
 */
import { readFileSync } from "node:fs";
import { STATUS_CODES } from "node:http";
import { toJsonSchema, type JsonSchema, type OverrideActionContext } from "@valibot/to-json-schema";
import { GenerateRequestSchema } from "../article/request.js";
import { ArticleResponseSchema, NormalisedRequestSchema, StreamDeltaSchema, StreamMetaSchema, StreamOutlineSchema } from "../article/response.js";
import { ARTICLE_FORMATS, type ArticleFormat } from "./negotiate.js";
import { IDEMPOTENCY_KEY, jobPaths, jobSchemas, jobWebhooks, type OpenApiParts } from "./openapi-jobs.js";
import { PROBLEM_TYPES } from "./problem.js";

/** Where the document is served; public, like `/docs` and `/`. */
export const OPENAPI_PATH = "/api/v1/openapi.json";

/** A JSON object of the document. */
type Json = Record<string, unknown>;

// --- the request body, converted from valibot ----------------------------------------------

/** What the conversion learns while it walks one pipe; kept on the schema under a symbol, dropped at the end. */
interface PipeState {
  /** How the server normalises a string before it checks its bounds, in order. */
  normalised: ("cleaned" | "trimmed" | "lower-cased")[];
  /** Set once a transformation changed the type: the input shape up to there. Later actions check the output. */
  inputShape?: JsonSchema;
  /** Rules the server checks that this schema does not express (valibot's own messages). */
  unexpressed: string[];
}

const STATE = Symbol("conversion state");
type Stateful = JsonSchema & { [STATE]?: PipeState };

const stateOf = (schema: Stateful): PipeState => schema[STATE] ?? { normalised: [], unexpressed: [] };
const withState = (schema: JsonSchema, state: PipeState): Stateful => ({ ...schema, [STATE]: state });

/** The message a valibot action answers with, as the server would word it. */
function messageOf(action: OverrideActionContext["valibotAction"]): string {
  const { message, requirement } = action as { message?: unknown; requirement?: unknown };
  if (typeof message === "string") return message;
  return `${action.type.replaceAll("_", " ")}${requirement === undefined ? "" : ` ${String(requirement)}`}`;
}

/** A string-to-string transformation (clean-up) keeps the input type; anything else (split, parse) ends it. */
function keepsStrings(action: OverrideActionContext["valibotAction"]): boolean {
  const operation = (action as { operation?: (input: string) => unknown }).operation;
  if (typeof operation !== "function") return false;
  try {
    return ["A b, c\u0001", " x "].every((sample) => typeof operation(sample) === "string");
  } catch {
    return false;
  }
}

/**
 * How the valibot actions the converter does not know become JSON Schema. The converter
 * runs with `typeMode: "output"` only for where that mode starts a pipe: at its last
 * schema, which skips the JSON-object guard (`custom`) in front of each `object` — a guard
 * JSON Schema's `type: "object"` already expresses exactly. This override then keeps the
 * result an INPUT shape:
 *
 * - `trim`, `to_lower_case` and transforms that map strings to strings (the text clean-up)
 *   keep the type; they are noted, and a `min_length` after trimming also gets a `pattern`
 *   so a blank string is refused as the server refuses it;
 * - a transform that changes the type (keywords: a string split into a list; the final
 *   request normalisation) ends the input shape: later actions check the output, so their
 *   rule goes into the description instead;
 * - a `check` (a custom predicate, such as the ISO 639-1 list) cannot be expressed: its
 *   message goes into the description.
 *
 * Anything else the converter cannot convert throws (`errorMode: "throw"`), so a new kind
 * of rule in the valibot schema cannot silently drop out of the document.
 */
function overrideAction({ valibotAction: action, jsonSchema }: OverrideActionContext): JsonSchema | undefined {
  const state = stateOf(jsonSchema);
  if (state.inputShape) {
    if (action.kind === "validation") state.unexpressed.push(messageOf(action));
    return withState(state.inputShape, state);
  }
  switch (action.type) {
    case "trim":
      return withState(jsonSchema, { ...state, normalised: [...state.normalised, "trimmed"] });
    case "to_lower_case":
      return withState(jsonSchema, { ...state, normalised: [...state.normalised, "lower-cased"] });
    case "transform":
      if (jsonSchema.type === "string" && keepsStrings(action)) {
        return withState(jsonSchema, { ...state, normalised: [...state.normalised, "cleaned"] });
      }
      return withState(jsonSchema, { ...state, inputShape: { ...jsonSchema } });
    case "check":
      return withState(jsonSchema, { ...state, unexpressed: [...state.unexpressed, messageOf(action)] });
    case "min_length": {
      const min = (action as { requirement?: unknown }).requirement;
      if (jsonSchema.type !== "string" || !state.normalised.includes("trimmed") || typeof min !== "number" || min < 1) return undefined;
      if (jsonSchema.pattern) throw new Error("A trimmed string with a pattern cannot also get a non-blank pattern.");
      // At least `min` characters between the first and the last non-blank one: not blank once trimmed.
      return withState({ ...jsonSchema, pattern: min === 1 ? "\\S" : `\\S[\\s\\S]{${min - 2},}\\S` }, state);
    }
    default:
      return undefined;
  }
}

/** The sentence saying how the server normalises a string before it checks it. */
function normalisation(state: PipeState): string | undefined {
  const steps = [...new Set(state.normalised)].map(
    (step) =>
      ({
        cleaned: "cleans it up",
        trimmed: "trims it",
        "lower-cased": "lower-cases it",
      })[step],
  );
  if (!steps.length) return undefined;
  const list = steps.length > 1 ? `${steps.slice(0, -1).join(", ")} and ${steps.at(-1)}` : steps[0];
  return `Checked after the server ${list}.`;
}

/** Hand-written prose of each field, by dotted path; the rules themselves come from valibot. */
const FIELD_NOTES: Record<string, string> = {
  topic: "What the article is about. Without keywords it is also the primary keyword.",
  length: "Target length of the body in words (the title is not counted); the article lands within ±10% of it.",
  tone: "Free-text tone of voice, passed to the model, such as `conversational` or `formal`.",
  language: "ISO 639-1 code of the article's language, any case; answered lower-case.",
  structure:
    "`paragraphs`, `sections`, `detailed`, `listicle` or `how-to`, or free words mapped to the nearest of them (`steps`, `tutorial` → how-to; `list`, `top 10`, `tips` → listicle; `essay`, `story` → paragraphs; `guide`, `faq` → detailed; anything else → sections).",
  seed: "Seed of the sampler: the same request with the same seed gives the same article on the same model. Random when absent; echoed in `request.seed`.",
  seo: "Search-engine settings.",
  "seo.keywords": "Comma-separated keywords; the first is the primary keyword. Each is trimmed; empties and case-insensitive duplicates are dropped.",
  "seo.title": "Title used verbatim instead of a generated one (even when it breaks a rule; the SEO report then says so). Empty means generated.",
  "seo.description": "Meta description used verbatim instead of a generated one. Empty means generated.",
  "seo.headingTags": "`false`: no heading nodes at all; the title stays `article.title` and the HTML `<title>`.",
  stream: "Answer with Server-Sent Events, like `Accept: text/event-stream`.",
  webhook: "Jobs only: where the job's end is announced, signed with the key's webhook secret.",
  "webhook.url": "Checked when the job is submitted and before every attempt: an address that is loopback, private, link-local or a metadata service is refused unless the server's `--webhook-allow` lists it.",
};

/** Turn the conversion state into descriptions, add the prose, and drop the symbols (a JSON round trip). */
function finishField(schema: Stateful, path: string): Json {
  const state = stateOf(schema);
  const parts = [FIELD_NOTES[path], normalisation(state)];
  if (state.unexpressed.length) parts.push(`Also checked by the server (not expressible in JSON Schema): ${state.unexpressed.join("; ")}.`);
  const out: Json = JSON.parse(JSON.stringify(schema));
  const description = parts.filter(Boolean).join(" ");
  if (description) out.description = description;
  const properties = schema.properties as Record<string, Stateful> | undefined;
  if (properties) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([key, child]) => [key, finishField(child, path ? `${path}.${key}` : key)]),
    );
    if (Array.isArray(out.required) && out.required.length === 0) delete out.required;
  }
  return out;
}

/** The JSON Schema (2020-12) of a request body, converted from its valibot schema. */
function inputSchema(valibot: Parameters<typeof toJsonSchema>[0]): Json {
  const converted = toJsonSchema(valibot, { target: "draft-2020-12", typeMode: "output", errorMode: "throw", overrideAction });
  const { $schema: _dialect, ...schema } = finishField(converted, "");
  return schema;
}

/** The JSON Schema (2020-12) of the request body, converted from `GenerateRequestSchema`. */
export function requestBodySchema(): Json {
  const schema = inputSchema(GenerateRequestSchema);
  return {
    title: "GenerateRequest",
    ...schema,
    description:
      "A generation request. Unknown fields are ignored; a field of the wrong type is a 422, inside `seo` too. " +
      "Text is cleaned up before it is checked (Unicode NFC; control characters become spaces; bidirectional overrides " +
      "and invisible marks are removed) and trimmed, so `maxLength`, which counts the raw string, is slightly stricter " +
      "than the server for a value with surrounding whitespace. Lengths count UTF-16 code units, as JavaScript does: " +
      "a character outside the Basic Multilingual Plane (most emoji) counts as two, where JSON Schema counts one.",
  };
}

// --- hand-written output schemas --------------------------------------------------------------

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const string = (description?: string) => ({ type: "string", ...(description ? { description } : {}) });
const integer = (description?: string, minimum?: number) => ({
  type: "integer",
  ...(minimum === undefined ? {} : { minimum }),
  ...(description ? { description } : {}),
});
const object = (properties: Record<string, unknown>, optional: string[] = []) => ({
  type: "object",
  properties,
  required: Object.keys(properties).filter((key) => !optional.includes(key)),
});

/** Schemas other schemas hold, kept once in components and referenced. */
const SHARED = { NormalisedRequest: NormalisedRequestSchema, ArticleResponse: ArticleResponseSchema };

/** An output schema converted from valibot; the shared schemas it holds are referenced, not repeated. */
function outputSchema(schema: Parameters<typeof toJsonSchema>[0]): Json {
  const shared = Object.fromEntries(Object.entries(SHARED).filter(([, held]) => held !== schema));
  const { $schema: _dialect, $defs: _shared, ...converted } = toJsonSchema(schema, {
    target: "draft-2020-12",
    typeMode: "output",
    errorMode: "throw",
    definitions: shared,
  }) as Json;
  // The converter points at its own $defs; the document keeps the shared schemas in components.
  let text = JSON.stringify(converted);
  for (const name of Object.keys(shared)) text = text.replaceAll(`"#/$defs/${name}"`, `"#/components/schemas/${name}"`);
  return JSON.parse(text);
}

const FIELD_ERROR = object({
  path: string("Dotted path of the field, such as `seo.keywords`; `body` for the request as a whole."),
  message: string(),
});

const PROBLEM = {
  ...object(
    {
      type: string("`/docs#<name>`: the entry of this problem in the API reference."),
      title: string("The HTTP status text."),
      status: integer(undefined, 400),
      detail: string("What went wrong, for a person."),
      instance: string("The path of the request."),
      errors: { type: "array", items: ref("FieldError"), description: "422 only: every invalid field." },
    },
    ["instance", "errors"],
  ),
  description: "RFC 9457 problem details.",
};

const HEALTH = {
  oneOf: [
    object({
      status: { const: "ok" },
      model: string(),
      prompting: { type: "string", enum: ["chat-template", "completion"] },
      backend: {
        description: "Where the model runs: in-process (the compute backend and the layers offloaded), or an inference server (its state from its last health check, cached a few seconds).",
        oneOf: [
          object(
            {
              kind: { const: "in-process" },
              gpu: { type: "string", enum: ["cpu", "cuda", "vulkan", "metal"] },
              gpuLayers: integer("Layers offloaded to the GPU.", 0),
              layers: integer("Layers of the model.", 0),
              fallback: string("Why `--gpu auto` runs on the CPU."),
            },
            ["fallback"],
          ),
          object({ kind: { type: "string", enum: ["llama-server", "vllm"] }, url: string(), state: { type: "string", enum: ["ok", "unavailable", "unreachable"] }, prompts: { type: "string", enum: ["token-ids", "text"] } }),
        ],
      },
      queue: object({ running: integer(undefined, 0), waiting: integer(undefined, 0), capacity: integer(undefined, 0) }),
    }),
    object({ status: { const: "loading" } }),
  ],
};

// --- formats, streaming, errors: prose shared by the document and the pages ------------------

/** What each response format of the generate endpoint carries. */
export const FORMATS: Record<ArticleFormat, string> = {
  "application/json": "The article with its metadata, SEO report and usage (the default).",
  "text/markdown": "The Markdown of the article alone.",
  "text/html": "A full HTML document with `<html lang>`, `<title>`, `<meta name=\"description\">` and the structured data of `article.jsonLd` in a `<script type=\"application/ld+json\">`.",
  "text/event-stream": "Server-Sent Events as the article is written (also with `\"stream\": true` in the body).",
};

/** The events of a stream, in the order they come. */
export const STREAM_EVENTS = [
  { event: "meta", schema: "StreamMeta", data: "`{ id, model, request }`, as soon as the request is accepted, before any model call." },
  { event: "outline", schema: "StreamOutline", data: "`{ title, outline }`, once the outline is planned." },
  { event: "delta", schema: "StreamDelta", data: "`{ \"text\": \"…\" }`: Markdown in document order; the deltas concatenated equal the final `article.markdown`." },
  { event: "done", schema: "ArticleResponse", data: "The full JSON answer, exactly as the non-streaming call returns it." },
  { event: "error", schema: "Problem", data: "A problem+json body, when generation fails after the stream started (504 past the deadline, 503 on shutdown, 502 when the inference server fails)." },
] as const;

/** When each problem type happens. */
export const PROBLEM_NOTES: Record<keyof typeof PROBLEM_TYPES, string> = {
  400: "The body is empty, not valid JSON, or nested too deeply.",
  401: "No `x-api-key` header, or an empty, unknown, revoked or doubled one: the same answer for each, with `WWW-Authenticate: ApiKey header=\"x-api-key\"`. Keys in the query string are not read.",
  404: "No such path, or no job of that id for this key (another key's jobs are not found either).",
  405: "Another method than POST on `/api/v1/generate` (the answer has `Allow: POST`).",
  406: "`Accept` names no format the endpoint serves.",
  408: "The request was not received in time.",
  409: "A request with the same `Idempotency-Key` is still being processed; retry once it has finished.",
  413: "The body is larger than 64 KiB.",
  415: "The body is not declared as `application/json`.",
  422: "Valid JSON that breaks a rule; `errors: [{ path, message }]` names every invalid field. Also an `Idempotency-Key` reused with a different body.",
  429: "The key's rate limit, concurrency limit or daily word quota is spent (with `Retry-After` and `RateLimit` headers).",
  431: "The request headers are too large.",
  500: "An unexpected failure; it is logged on the server and the answer carries no detail.",
  502: "With `--backend`: the inference server could not be reached, answered with an error, or cut the answer off; `detail` says which.",
  503: "Every generation slot busy and the queue full, or the server shutting down (with `Retry-After`), or the model failed to load, or the inference server busy, or the shared state (Redis) unreachable.",
  504: "The article was not finished within the deadline, or the inference server stayed silent too long; the generation stopped.",
};

/** The problem statuses the generate operation can answer with. */
const GENERATE_PROBLEMS = [400, 401, 404, 405, 406, 409, 413, 415, 422, 429, 500, 502, 503, 504] as const;

const PROBLEM_HEADERS: Partial<Record<number, Record<string, unknown>>> = {
  401: { "WWW-Authenticate": { schema: { type: "string", const: 'ApiKey header="x-api-key"' } } },
  405: { Allow: { schema: { type: "string", const: "POST" } } },
  429: { "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait." } },
  503: { "Retry-After": { schema: { type: "integer" }, description: "Seconds to wait (queue full or shutting down)." } },
};

function problemResponse(status: keyof typeof PROBLEM_TYPES): Json {
  const headers = PROBLEM_HEADERS[status];
  return {
    description: `${STATUS_CODES[status]} (\`/docs#${PROBLEM_TYPES[status]}\`): ${PROBLEM_NOTES[status]}`,
    ...(headers ? { headers } : {}),
    content: { "application/problem+json": { schema: ref(status === 422 ? "ValidationProblem" : "Problem") } },
  };
}

function version(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version?: string };
    return pkg.version ?? "0.0.0";
  } catch {
    return "0.0.0";
  }
}

const EXAMPLE_REQUEST = {
  topic: "Home composting for beginners",
  length: 800,
  tone: "conversational",
  language: "en",
  structure: "sections",
  seed: 42,
  seo: { keywords: "compost bin, garden waste", headingTags: true },
};

function buildDocument(): Json {
  const parts: OpenApiParts = { ref, outputSchema, inputSchema };
  const formatContent = Object.fromEntries(
    ARTICLE_FORMATS.map((format) => {
      if (format === "application/json") return [format, { schema: ref("ArticleResponse") }];
      if (format === "text/event-stream") {
        const events = STREAM_EVENTS.map((e) => `\`${e.event}\` (${e.schema}): ${e.data}`).join(" ");
        return [format, { schema: { type: "string", description: `${FORMATS[format]} Events: ${events} Comment lines (\`: keep-alive\`) every 15 s.` } }];
      }
      return [format, { schema: { type: "string", description: FORMATS[format] } }];
    }),
  );
  return {
    openapi: "3.1.1",
    info: {
      title: "inkpress",
      version: version(),
      summary: "Writes SEO-optimised articles with a local GGUF language model.",
      description: "A self-hosted HTTP API: the model writes the words, deterministic code owns the structure, and every answer carries an SEO report that measures the final article. Human-readable reference: `/docs`; playground: `/`.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: "/" }],
    tags: [{ name: "articles" }, { name: "jobs" }, { name: "service" }],
    webhooks: jobWebhooks(parts),
    paths: {
      "/api/v1/generate": {
        post: {
          operationId: "generateArticle",
          tags: ["articles"],
          summary: "Write an article",
          description: "Plans, writes and measures one article. The format follows `Accept`; `text/event-stream` (or `\"stream\": true`) streams it as it is written.",
          security: [{ apiKey: [] }],
          parameters: [IDEMPOTENCY_KEY],
          requestBody: {
            required: true,
            content: { "application/json": { schema: ref("GenerateRequest"), example: EXAMPLE_REQUEST } },
          },
          responses: {
            200: { description: "The article, in the negotiated format.", content: formatContent },
            ...Object.fromEntries(GENERATE_PROBLEMS.map((status) => [status, { $ref: `#/components/responses/${PROBLEM_TYPES[status]}` }])),
          },
        },
      },
      ...jobPaths(parts),
      "/healthz": {
        get: {
          operationId: "health",
          tags: ["service"],
          summary: "Health and load",
          description: "No key needed. 200 once the model is loaded (or the inference server reached), with its name, how it is prompted, where it runs and how busy the queue is.",
          security: [],
          responses: {
            200: { description: "Ready.", content: { "application/json": { schema: ref("Health") } } },
            503: { description: "The model is still loading.", content: { "application/json": { schema: ref("Health") } } },
          },
        },
      },
      "/metrics": {
        get: {
          operationId: "metrics",
          tags: ["service"],
          summary: "Prometheus metrics",
          description:
            "No key needed; no secrets. Requests by route and status, articles, tokens, queue depth, time to first token and decode rate, in the Prometheus text format.",
          security: [],
          responses: { 200: { description: "The metrics.", content: { "text/plain": { schema: { type: "string" } } } } },
        },
      },
      [OPENAPI_PATH]: {
        get: {
          operationId: "openapi",
          tags: ["service"],
          summary: "This document",
          description: "No key needed.",
          security: [],
          responses: { 200: { description: "The OpenAPI 3.1 document.", content: { "application/json": { schema: { type: "object" } } } } },
        },
      },
    },
    components: {
      securitySchemes: {
        apiKey: { type: "apiKey", in: "header", name: "x-api-key", description: "An API key, only ever in this header (never in the query string)." },
      },
      schemas: {
        GenerateRequest: requestBodySchema(),
        NormalisedRequest: outputSchema(NormalisedRequestSchema),
        ArticleResponse: outputSchema(ArticleResponseSchema),
        StreamMeta: outputSchema(StreamMetaSchema),
        StreamOutline: outputSchema(StreamOutlineSchema),
        StreamDelta: outputSchema(StreamDeltaSchema),
        Problem: PROBLEM,
        ValidationProblem: { allOf: [ref("Problem")], type: "object", properties: { errors: { type: "array", minItems: 1 } }, required: ["errors"] },
        FieldError: FIELD_ERROR,
        Health: HEALTH,
        ...jobSchemas(parts),
      },
      responses: Object.fromEntries(
        (Object.keys(PROBLEM_TYPES).map(Number) as (keyof typeof PROBLEM_TYPES)[]).map((status) => [PROBLEM_TYPES[status], problemResponse(status)]),
      ),
    },
  };
}

let cached: Json | undefined;

/** The OpenAPI document, built on first use (a conversion failure then fails the docs routes, not the server). */
export function openApiDocument(): Json {
  cached ??= buildDocument();
  return cached;
}
