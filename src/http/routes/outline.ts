import { GenerateRequestSchema } from "../../contract/request.js";
import type { GenerationService } from "../../generation/service.js";
import { outlineCharge } from "../../article/index.js";
import { sourceTexts, type TextPool } from "../../text-pool.js";
import { jsonRoute } from "../validation.js";

/** What the outline route serves with. */
export interface OutlineRouteOptions {
  generations: GenerationService;
  /** Time a client has to send its body. */
  bodyTimeoutMs: number;
  /** Reads the sources off the event loop before the outline is admitted. */
  texts: TextPool;
}

/**
 * `POST /api/v1/outline`: the plan generate would write from, for the user to edit and send
 * back; a generate request's body, admitted like one (rate limit, concurrency, a slot) and
 * charged a quarter of its length. Its sources are read on a worker thread first, within the
 * analyse limit.
 */
export function outlineRoute({ generations, bodyTimeoutMs, texts }: OutlineRouteOptions) {
  return jsonRoute("/api/v1/outline", { body: GenerateRequestSchema, bodyTimeoutMs, onlyPost: true }, async (event) => {
    const { stream: _stream, ...body } = await event.req.json();
    const key = event.context.apiKey!;
    const request = generations.accept(body, key);
    await texts.read(sourceTexts(request.sources), key.id);
    const admission = await generations.admit(outlineCharge(request), { key, headers: event.context.rateLimitHeaders });
    const response = await admission.outline(request, { signal: event.req.signal });
    event.context.produced = { words: 0, tokens: response.usage.promptTokens + response.usage.completionTokens };
    return response;
  });
}
