import { clusterKeywords, planSite } from "../../planning/clusters.js";
import { PlanRequestSchema } from "../../article/wire/site-plan.js";
import { jsonRoute } from "../validation.js";

/** `POST /api/v1/plan`: keywords grouped into a pillar and cluster articles with their links; no model, no generation slot. */
export function planRoute({ bodyTimeoutMs }: { bodyTimeoutMs: number }) {
  return jsonRoute("/api/v1/plan", { body: PlanRequestSchema, bodyTimeoutMs, onlyPost: true }, async (event) => {
    const { topic, language, keywords, existing } = await event.req.json();
    const plan = planSite(clusterKeywords(keywords, { topic, language }), { topic, language, ...(existing ? { existing } : {}) });
    return { object: "plan" as const, ...plan };
  });
}
