import { defineHandler } from "h3";
import type { GenerationService } from "../../generation/service.js";
import { RefreshRequestSchema, refreshReservation } from "../../refresh/schema.js";
import { assertJson, readJson } from "../body.js";
import { problem } from "../problem.js";
import { validationProblem } from "../validation.js";

/** What the refresh route serves with. */
export interface RefreshRouteOptions {
  generations: GenerationService;
  /** Time a client has to send its body. */
  bodyTimeoutMs: number;
}

/**
 * `POST /api/v1/refresh`: an article mended where its checks fail, through the generation
 * service like generate (the key's rate limit, concurrency, daily words and a generation slot).
 */
export function refreshRoute({ generations, bodyTimeoutMs }: RefreshRouteOptions) {
  return defineHandler(async (event) => {
    if (event.req.method !== "POST") {
      throw problem(405, `${event.req.method} is not allowed here; use POST.`, { headers: { allow: "POST" } });
    }
    assertJson(event);
    const body = await readJson(event, bodyTimeoutMs);
    const validated = await RefreshRequestSchema["~standard"].validate(body);
    if (validated.issues) throw validationProblem(validated);
    const request = validated.value;
    const key = event.context.apiKey!;
    const admission = await generations.admit(refreshReservation(request), {
      key,
      headers: event.context.rateLimitHeaders,
      ...(request.publish ? { publishTo: request.publish.target } : {}),
    });
    const { response } = await admission.refresh(request, { signal: event.req.signal });
    event.context.produced = { words: response.wordsWritten, tokens: response.usage.promptTokens + response.usage.completionTokens };
    return response;
  });
}
