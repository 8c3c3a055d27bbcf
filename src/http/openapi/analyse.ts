/**
 * The existing-articles part of the document: `POST /api/v1/analyse` and `POST /api/v1/refresh`,
 * their requests and answers, converted from the valibot schemas that validate and type them.
 */
import { AnalyseRequestSchema, AnalysisResponseSchema, EXAMPLE_ANALYSE_REQUEST } from "../../contract/analyse.js";
import { EXAMPLE_REFRESH_REQUEST, RefreshRequestSchema, RefreshResponseSchema } from "../../contract/refresh.js";
import { VoiceRequestSchema, VoiceResponseSchema } from "../../contract/voice.js";
import { answerSchema, ref, requestSchema, type Json } from "./convert.js";
import { KEYED, type PathGroup } from "./group.js";
import { problemRefs } from "./problems.js";

const REQUEST_NOTE =
  "An article as it is, with the targets a generate request would give. `markdown` or `html`, exactly one. " +
  "Targets the request leaves open are read from the page: its front matter (`title`, `description`, `keywords`, `language`, `slug`) or its HTML head, the " +
  "title from its H1 last. " +
  "An unknown field is a 422 naming it (with the field it was likely meant to be), and so is a field of the wrong type.";

/** The refresh request body's schema (also a refresh job's). */
export function refreshRequestSchema(): Json {
  return { title: "RefreshRequest", ...requestSchema(RefreshRequestSchema) };
}

/** `POST /api/v1/voice`: a house voice learnt from example articles. */
const VOICE_PATH = {
  post: {
    operationId: "learnVoice",
    tags: ["analysis"],
    summary: "Learn a house voice",
    description:
      "A house voice learnt from the team's own Markdown articles: sentence length, person, contractions, spelling variant, heading case, reading ease, " +
      "lists, questions, exclamations, numbers, recurring phrases, common words never used and up to three excerpts, each with the band the examples " +
      "allow. Send its `profile` as `style.voice` to generate, stream, jobs, refresh, batch or analyse: the writer steers towards it and the report's " +
      "`voice-…` checks measure against it. Fewer than 150 words of prose in all is a 422 naming `articles`. No model: it counts against the key's " +
      "rate limit only.",
    security: KEYED,
    requestBody: {
      required: true,
      content: { "application/json": { schema: { title: "VoiceRequest", ...requestSchema(VoiceRequestSchema) } } },
    },
    responses: {
      200: { description: "The voice.", content: { "application/json": { schema: ref("VoiceResponse") } } },
      ...problemRefs([400, 401, 405, 408, 413, 415, 422, 429, 500]),
    },
  },
};

/** The analysis path group. */
export function analyseGroup(): PathGroup {
  return {
    tag: "analysis",
    description: "Existing articles: the SEO report of any Markdown or HTML (without a model), and a refresh that mends only what fails.",
    paths: {
      "/api/v1/analyse": {
        post: {
          operationId: "analyseArticle",
          tags: ["analysis"],
          summary: "Check an article",
          description:
            "The SEO report of any article, measured by the same checks as a written one. No model and no generation slot: it counts against the key's rate " +
            "limit, not its daily words. Checks that need a record of the writing (`sources-cited`, `internal-links` when sources or links are given) and " +
            "checks whose target is missing are `passed: null`, with a message saying why.",
          security: KEYED,
          requestBody: { $ref: "#/components/requestBodies/AnalyseRequest" },
          responses: {
            200: { description: "The report.", content: { "application/json": { schema: ref("AnalysisResponse") } } },
            ...problemRefs([400, 401, 405, 408, 413, 415, 422, 429, 500]),
          },
        },
      },
      "/api/v1/refresh": {
        post: {
          operationId: "refreshArticle",
          tags: ["analysis"],
          summary: "Refresh an article",
          description:
            "An article measured as analyse measures it, then mended only where its checks fail: the model rewrites the sentences holding a banned phrase, " +
            "the introduction's opening that lacks the keyword, a failing title or description (through the outline grammars), extends a section too " +
            "short for `length`, writes a subheading into a run too long, and places links on sentences that fit; code splits an over-long paragraph " +
            "between sentences and adds citation markers for the given sources. Every other byte stays as it was. A change that would lower the " +
            "score, or remove a link, citation or heading, is not kept: `after.score` is never below `before.score`. Like generate it takes a " +
            "generation slot and counts against the key's rate limit, concurrency and daily words (the words the model wrote). Also as a job " +
            '(`kind: "refresh"`).',
          security: KEYED,
          requestBody: { $ref: "#/components/requestBodies/RefreshRequest" },
          responses: {
            200: {
              description: "The refreshed article, the report before and after, the changes and the diff.",
              content: { "application/json": { schema: ref("RefreshResponse") } },
            },
            ...problemRefs([400, 401, 405, 408, 413, 415, 422, 429, 500, 503, 504]),
          },
        },
      },
      "/api/v1/voice": VOICE_PATH,
    },
    requestBodies: {
      RefreshRequest: {
        required: true,
        description: "An article as Markdown, with its targets.",
        content: { "application/json": { schema: refreshRequestSchema(), example: EXAMPLE_REFRESH_REQUEST } },
      },
      AnalyseRequest: {
        required: true,
        description: "An article as it is, with its targets.",
        content: {
          "application/json": {
            schema: { title: "AnalyseRequest", ...requestSchema(AnalyseRequestSchema), description: REQUEST_NOTE },
            example: EXAMPLE_ANALYSE_REQUEST,
          },
        },
      },
    },
    schemas: {
      AnalysisResponse: answerSchema(AnalysisResponseSchema),
      RefreshResponse: answerSchema(RefreshResponseSchema),
      VoiceResponse: answerSchema(VoiceResponseSchema),
    },
  };
}
