import type { Backend } from "../../model/backend.js";
import type { ModelHost } from "../../model/host.js";
import { clusterKeywords, planSite } from "../../planning/clusters.js";
import { placeLoneKeywords } from "../../planning/embeddings.js";
import { PlanRequestSchema } from "../../contract/site-plan.js";
import { jsonRoute } from "../validation.js";

/**
 * `POST /api/v1/plan`: keywords grouped into a pillar and cluster articles with their links; no
 * generation slot. Where the loaded model has embeddings, lone keywords are placed by them.
 */
export function planRoute({ bodyTimeoutMs, modelHost }: { bodyTimeoutMs: number; modelHost: ModelHost<Backend> }) {
  return jsonRoute("/api/v1/plan", { body: PlanRequestSchema, bodyTimeoutMs, onlyPost: true }, async (event) => {
    const { topic, language, keywords, existing } = await event.req.json();
    // A model still loading is waited for, so the same request gets the same plan; one that failed to load places nothing.
    const backend = await modelHost.ready.catch(() => undefined);
    const lexical = clusterKeywords(keywords, { topic, language });
    const { clusters, lone } = backend?.embeddings
      ? await placeLoneKeywords(lexical, (texts) => backend.embeddings!(texts))
      : { clusters: lexical, lone: [] };
    const plan = planSite(clusters, { topic, language, ...(existing ? { existing } : {}) });
    return { object: "plan" as const, ...plan, lone };
  });
}
