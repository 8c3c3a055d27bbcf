import { defineHandler } from "h3";
import { GenerateRequestSchema } from "../../article/wire/request.js";
import type { GenerationService } from "../../generation/service.js";
import { outlineCharge } from "../../planning/outline.js";
import { assertJson, readJson } from "../body.js";
import { problem } from "../problem.js";
import { validationProblem } from "../validation.js";

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
  return defineHandler(async (event) => {
    if (event.req.method !== "POST") {
      throw problem(405, `${event.req.method} is not allowed here; use POST.`, { headers: { allow: "POST" } });
    }
    assertJson(event);
    const body = await readJson(event, bodyTimeoutMs);
    const validated = await GenerateRequestSchema["~standard"].validate(body);
    if (validated.issues) throw validationProblem(validated);
    const { stream: _stream, ...request } = validated.value;
    const key = event.context.apiKey!;
    const admission = await generations.admit(outlineCharge(request), { key, headers: event.context.rateLimitHeaders });
    const response = await admission.outline(request, { signal: event.req.signal });
    event.context.produced = { words: 0, tokens: response.usage.promptTokens + response.usage.completionTokens };
    return response;
  });
}
