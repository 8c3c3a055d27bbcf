/**
 * The articles part of the document: `POST /api/v1/generate`, its request (converted from
 * `GenerateRequestSchema`, the one source of truth), its formats and its stream's events.
 */
import { GenerateRequestSchema } from "../../contract/request.js";
import {
  ArticleResponseSchema,
  NormalisedRequestSchema,
  StreamDeltaSchema,
  StreamMetaSchema,
  StreamOutlineSchema,
} from "../../contract/response.js";
import { ARTICLE_FORMATS, type ArticleFormat } from "../negotiate.js";
import { answerSchema, ref, requestSchema, type Json } from "./convert.js";
import { IDEMPOTENCY_KEY, KEYED, type PathGroup } from "./group.js";
import { problemRefs } from "./problems.js";

/** What each response format of the generate endpoint carries. */
export const FORMATS: Record<ArticleFormat, string> = {
  "application/json": "The article with its metadata, SEO report and usage (the default).",
  "text/markdown": "The Markdown of the article alone.",
  "text/html":
    "A full HTML document with its language (`html` `lang`), `title`, meta description, and the structured data of `article.jsonLd` in a JSON-LD " +
    "(`application/ld+json`) script element.",
  "text/event-stream": 'Server-Sent Events as the article is written (also with `"stream": true` in the body).',
};

/** The events of a stream, in the order they come. */
export const STREAM_EVENTS = [
  { event: "meta", schema: "StreamMeta", data: "`{ id, model, request }`, as soon as the request is accepted, before any model call." },
  { event: "outline", schema: "StreamOutline", data: "`{ title, outline }`, once the outline is planned." },
  {
    event: "delta",
    schema: "StreamDelta",
    data: '`{ "text": "…" }`: Markdown in document order; the deltas concatenated equal the final `article.markdown`.',
  },
  { event: "done", schema: "ArticleResponse", data: "The full JSON answer, exactly as the non-streaming call returns it." },
  {
    event: "error",
    schema: "Problem",
    data: "A problem+json body, when generation fails after the stream started (504 past the deadline, 503 on shutdown, 502 when the inference server fails).",
  },
] as const;

const REQUEST_NOTE =
  "A generation request. An unknown field is a 422 naming it (with the field it was likely meant to be), and so is a field of the wrong type, inside " +
  "`seo` too. " +
  "Text is cleaned up before it is checked (Unicode NFC; control characters become spaces; bidirectional overrides " +
  "and invisible marks are removed) and trimmed, so `maxLength`, which counts the raw string, is slightly stricter " +
  "than the server for a value with surrounding whitespace. Lengths count UTF-16 code units, as JavaScript does: " +
  "a character outside the Basic Multilingual Plane (most emoji) counts as two, where JSON Schema counts one.";

const EXAMPLE_REQUEST = {
  topic: "Home composting for beginners",
  length: 800,
  tone: "conversational",
  language: "en",
  structure: "sections",
  seed: 42,
  seo: { keywords: "compost bin, garden waste", headingTags: true },
};

/** The problem statuses the generate operation can answer with. */
const GENERATE_PROBLEMS = [400, 401, 403, 404, 405, 406, 409, 413, 415, 422, 429, 500, 502, 503, 504] as const;

/**
 * One event of a stream: its name and its data (the JSON its `data` lines carry), one
 * variant per event, each data shape a schema of its own.
 */
function streamEventSchema(): Json {
  const variants = STREAM_EVENTS.map(({ event, schema, data }) => ({
    type: "object",
    properties: { event: { const: event }, data: ref(schema) },
    required: ["event", "data"],
    description: data,
  }));
  return { oneOf: variants, description: "One Server-Sent Event of a generate stream, its `data` parsed as JSON." };
}

function formatContent(format: ArticleFormat): Json {
  if (format === "application/json") return { schema: ref("ArticleResponse") };
  if (format !== "text/event-stream") return { schema: { type: "string", description: FORMATS[format] } };
  const events = STREAM_EVENTS.map((e) => `\`${e.event}\` (${e.schema}): ${e.data}`).join(" ");
  // The body is text; `contentSchema` describes the events it decodes to (JSON Schema 2020-12).
  return {
    schema: {
      type: "string",
      contentMediaType: "text/event-stream",
      contentSchema: { type: "array", items: ref("StreamEvent") },
      description: `${FORMATS[format]} Events: ${events} Comment lines (\`: keep-alive\`) every 15 s.`,
    },
  };
}

/** The generate request's schema, converted from `GenerateRequestSchema`; the jobs body holds it too. */
export function generateRequestSchema(): Json {
  return { title: "GenerateRequest", ...requestSchema(GenerateRequestSchema), description: REQUEST_NOTE };
}

/** The articles path group. */
export function articlesGroup(): PathGroup {
  return {
    tag: "articles",
    description: "Writing an article: at once as JSON, Markdown or HTML, or streamed as it is written.",
    paths: {
      "/api/v1/generate": {
        post: {
          operationId: "generateArticle",
          tags: ["articles"],
          summary: "Write an article",
          description:
            'Plans, writes and measures one article. The format follows `Accept`; `text/event-stream` (or `"stream": true`) streams it as it is written.',
          security: KEYED,
          parameters: [IDEMPOTENCY_KEY],
          requestBody: { $ref: "#/components/requestBodies/GenerateRequest" },
          responses: {
            200: {
              description: "The article, in the negotiated format.",
              content: Object.fromEntries(ARTICLE_FORMATS.map((format) => [format, formatContent(format)])),
            },
            ...problemRefs(GENERATE_PROBLEMS),
          },
        },
      },
    },
    requestBodies: {
      GenerateRequest: {
        required: true,
        description: "A generation request.",
        content: { "application/json": { schema: generateRequestSchema(), example: EXAMPLE_REQUEST } },
      },
    },
    schemas: {
      NormalisedRequest: answerSchema(NormalisedRequestSchema),
      ArticleResponse: answerSchema(ArticleResponseSchema),
      StreamMeta: answerSchema(StreamMetaSchema),
      StreamOutline: answerSchema(StreamOutlineSchema),
      StreamDelta: answerSchema(StreamDeltaSchema),
      StreamEvent: streamEventSchema(),
    },
  };
}
