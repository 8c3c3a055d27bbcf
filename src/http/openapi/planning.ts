/** The planning part of the document: `POST /api/v1/outline`, the plan a user edits before the article is written. */
import { PlanRequestSchema, PlanResponseSchema } from "../../contract/site-plan.js";
import { OutlineResponseSchema } from "../../contract/outline-response.js";
import { answerSchema, ref, requestSchema } from "./convert.js";
import { KEYED, type PathGroup } from "./group.js";
import { problemRefs } from "./problems.js";

/** The planning path group. */
export function planningGroup(): PathGroup {
  return {
    tag: "planning",
    description: "Plan before writing: the outline the engine would write from, edited and sent back to generate.",
    paths: {
      "/api/v1/outline": {
        post: {
          operationId: "outlineArticle",
          tags: ["planning"],
          summary: "Plan an article",
          description:
            "The plan generate would write from, for the same request body: the title and description with two alternatives each, the H2 and H3 headings in " +
            "order with the prose words under each, the keyword and source each section carries. Send `outline`, edited (headings reworded, added, " +
            "removed or reordered, budgets changed, a title chosen), back as generate's, a job's or a batch row's `outline`: the article then has " +
            "exactly those headings, each section within ±25 % of its budget. Takes a generation slot like generate and counts a quarter of `length` " +
            "against the key's daily words.",
          security: KEYED,
          requestBody: { $ref: "#/components/requestBodies/GenerateRequest" },
          responses: {
            200: { description: "The plan.", content: { "application/json": { schema: ref("OutlineResponse") } } },
            ...problemRefs([400, 401, 405, 408, 413, 415, 422, 429, 500, 503, 504]),
          },
        },
      },
      "/api/v1/plan": {
        post: {
          operationId: "planSite",
          tags: ["planning"],
          summary: "Plan a topic cluster",
          description:
            "Keywords grouped by word forms and shared terms into a pillar and cluster articles: each group's primary keyword is its most searched, the " +
            "pillar links every cluster article, each cluster article links the pillar and two siblings. A group whose primary keyword one of `existing` " +
            "targets is left to that page (`covered`). Each article is a batch row (`inkpress batch` takes `topic`, `keywords`, `url` and `links` as " +
            "they are). No model: it counts against the key's rate limit only.",
          security: KEYED,
          requestBody: {
            required: true,
            content: { "application/json": { schema: { title: "PlanRequest", ...requestSchema(PlanRequestSchema) } } },
          },
          responses: {
            200: { description: "The plan.", content: { "application/json": { schema: ref("PlanResponse") } } },
            ...problemRefs([400, 401, 405, 408, 413, 415, 422, 429, 500]),
          },
        },
      },
    },
    schemas: { OutlineResponse: answerSchema(OutlineResponseSchema), PlanResponse: answerSchema(PlanResponseSchema) },
  };
}
