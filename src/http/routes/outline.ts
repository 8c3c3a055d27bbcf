import { GenerateRequestSchema } from "../../article/wire/request.js";
import type { GenerationService } from "../../generation/service.js";
import { outlineCharge } from "../../planning/outline.js";
import { jsonRoute } from "../validation.js";

/** What the outline route serves with. */
export interface OutlineRouteOptions {
  generations: GenerationService;
  /** Time a client has to send its body. */
  bodyTimeoutMs: number;
}

/**
 * `POST /api/v1/outline`: the plan generate would write from, for the user to edit and send
 * back; a generate request's body, admitted like one (rate limit, concurrency, a slot) and
 * charged a quarter of its length.
 */
export function outlineRoute({ generations, bodyTimeoutMs }: OutlineRouteOptions) {
  return jsonRoute("/api/v1/outline", { body: GenerateRequestSchema, bodyTimeoutMs, onlyPost: true }, async (event) => {
    const { stream: _stream, ...request } = await event.req.json();
    const key = event.context.apiKey!;
    const admission = await generations.admit(outlineCharge(request), { key, headers: event.context.rateLimitHeaders });
    const response = await admission.outline(request, { signal: event.req.signal });
    event.context.produced = { words: 0, tokens: response.usage.promptTokens + response.usage.completionTokens };
    return response;
  });
}
