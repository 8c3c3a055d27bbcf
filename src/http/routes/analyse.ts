import { defineHandler } from "h3";
import type { AnalysisPool } from "../../article/index.js";
import { AnalyseRequestSchema } from "../../article/wire/analyse.js";
import { assertJson, readJson } from "../body.js";
import type { Metrics } from "../metrics.js";
import { problem } from "../problem.js";
import { validationProblem } from "../validation.js";

/** What the analyse route serves with. */
export interface AnalyseRouteOptions {
  /** Time a client has to send its body. */
  bodyTimeoutMs: number;
  metrics: Metrics;
  /** Where the analysis runs: worker threads, within their time limit. */
  analysis: AnalysisPool;
}

/**
 * `POST /api/v1/analyse`: the SEO report of an article given as it is. No model and no
 * generation slot: the key's rate limit applies (the auth step counts the request), its
 * daily words do not. The analysis runs on a worker thread, so no article holds the event loop.
 */
export function analyseRoute({ bodyTimeoutMs, metrics, analysis: pool }: AnalyseRouteOptions) {
  return defineHandler(async (event) => {
    if (event.req.method !== "POST") {
      throw problem(405, `${event.req.method} is not allowed here; use POST.`, { headers: { allow: "POST" } });
    }
    assertJson(event);
    const body = await readJson(event, bodyTimeoutMs);
    const validated = await AnalyseRequestSchema["~standard"].validate(body);
    if (validated.issues) throw validationProblem(validated);
    const analysis = await pool.analyse({
      request: validated.value,
      options: event.context.apiKey?.style ? { keyStyle: event.context.apiKey.style } : {},
    });
    metrics.analysis(validated.value.markdown === undefined ? "html" : "markdown");
    return analysis;
  });
}
