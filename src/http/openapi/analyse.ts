/**
 * The analysis part of the document: `POST /api/v1/analyse`, its request and answer,
 * converted from the valibot schemas that validate and type them.
 */
import { AnalyseRequestSchema, AnalysisResponseSchema, EXAMPLE_ANALYSE_REQUEST } from "../../article/wire/analyse.js";
import { answerSchema, ref, requestSchema } from "./convert.js";
import { KEYED, type PathGroup } from "./group.js";
import { problemRefs } from "./problems.js";

const REQUEST_NOTE =
  "An article as it is, with the targets a generate request would give. `markdown` or `html`, exactly one. " +
  "Targets the request leaves open are read from the page: its front matter (`title`, `description`, `keywords`, `language`, `slug`) or its HTML head, the title from its H1 last. " +
  "Unknown fields are ignored; a field of the wrong type is a 422.";

/** The analysis path group. */
export function analyseGroup(): PathGroup {
  return {
    tag: "analysis",
    description: "Checking an article as it is: the SEO report of any Markdown or HTML, without a model.",
    paths: {
      "/api/v1/analyse": {
        post: {
          operationId: "analyseArticle",
          tags: ["analysis"],
          summary: "Check an article",
          description:
            "The SEO report of any article, measured by the same checks as a written one. No model and no generation slot: it counts against the key's rate limit, not its daily words. Checks that need a record of the writing (`sources-cited`, `internal-links` when sources or links are given) and checks whose target is missing are `passed: null`, with a message saying why.",
          security: KEYED,
          requestBody: { $ref: "#/components/requestBodies/AnalyseRequest" },
          responses: {
            200: { description: "The report.", content: { "application/json": { schema: ref("AnalysisResponse") } } },
            ...problemRefs([400, 401, 405, 408, 413, 415, 422, 429, 500]),
          },
        },
      },
    },
    requestBodies: {
      AnalyseRequest: {
        required: true,
        description: "An article as it is, with its targets.",
        content: { "application/json": { schema: { title: "AnalyseRequest", ...requestSchema(AnalyseRequestSchema), description: REQUEST_NOTE }, example: EXAMPLE_ANALYSE_REQUEST } },
      },
    },
    schemas: {
      AnalysisResponse: answerSchema(AnalysisResponseSchema),
    },
  };
}
