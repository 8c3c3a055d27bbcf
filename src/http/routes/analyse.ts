import { AnalyseRequestSchema } from "../../contract/analyse.js";
import type { TextPool } from "../../text-pool.js";
import type { Metrics } from "../metrics.js";
import { jsonRoute } from "../validation.js";

/** What the analyse route serves with. */
export interface AnalyseRouteOptions {
  /** Time a client has to send its body. */
  bodyTimeoutMs: number;
  metrics: Metrics;
  /** Where the analysis runs: worker threads, within their time limit, keys taking turns. */
  texts: TextPool;
}

/**
 * `POST /api/v1/analyse`: the SEO report of an article given as it is. No model and no
 * generation slot: the key's rate limit applies (the auth step counts the request), its
 * daily words do not. The analysis runs on a worker thread, so no article holds the event loop.
 */
export function analyseRoute({ bodyTimeoutMs, metrics, texts }: AnalyseRouteOptions) {
  return jsonRoute("/api/v1/analyse", { body: AnalyseRequestSchema, bodyTimeoutMs, onlyPost: true }, async (event) => {
    const request = await event.req.json();
    const key = event.context.apiKey;
    // A voice the key's default style names is the server's to read (serve --voices).
    const keyStyle = key?.style && event.context.voices ? event.context.voices.resolve(key.style, `key ${key.name}`) : key?.style;
    const analysis = await texts.analyse({ request, options: keyStyle ? { keyStyle } : {} }, key?.id ?? "");
    metrics.analysis(request.markdown === undefined ? "html" : "markdown");
    return analysis;
  });
}
