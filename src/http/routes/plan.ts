import { defineHandler } from "h3";
import { clusterKeywords, planSite } from "../../planning/clusters.js";
import { PlanRequestSchema } from "../../planning/plan-schema.js";
import { assertJson, readJson } from "../body.js";
import { problem } from "../problem.js";
import { validationProblem } from "../validation.js";

/** `POST /api/v1/plan`: keywords grouped into a pillar and cluster articles with their links; no model, no generation slot. */
export function planRoute({ bodyTimeoutMs }: { bodyTimeoutMs: number }) {
  return defineHandler(async (event) => {
    if (event.req.method !== "POST") {
      throw problem(405, `${event.req.method} is not allowed here; use POST.`, { headers: { allow: "POST" } });
    }
    assertJson(event);
    const validated = await PlanRequestSchema["~standard"].validate(await readJson(event, bodyTimeoutMs));
    if (validated.issues) throw validationProblem(validated);
    const { topic, language, keywords, existing } = validated.value;
    const plan = planSite(clusterKeywords(keywords, { topic, language }), { topic, language, ...(existing ? { existing } : {}) });
    return { object: "plan" as const, ...plan };
  });
}
