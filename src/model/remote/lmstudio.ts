import * as v from "valibot";
import { ModelLoadError } from "../errors.js";
import { UpstreamError } from "./errors.js";
import type { Upstream } from "./upstream.js";

/** LM Studio's own REST API lists its models with their context size: what tells it from other OpenAI-compatible servers. */
const Models = v.object({ data: v.array(v.object({ id: v.string(), max_context_length: v.number() })) });

/**
 * Refuse LM Studio in one line, saying why: it documents structured output (a JSON schema in
 * `response_format`) only on `/v1/chat/completions`, which writes a new assistant turn from
 * messages and cannot continue the answer from the text so far, while `/v1/completions`, which
 * continues text, takes no grammar and no schema. Every step of an article continues its answer,
 * and the outline's and sentences' grammars could not be kept. Returns when the server is not LM Studio.
 */
export async function refuseLmStudio(upstream: Upstream): Promise<void> {
  let answer: unknown;
  try {
    answer = await upstream.json("/api/v0/models");
  } catch (error) {
    if (error instanceof UpstreamError && error.answered !== undefined && error.answered < 500) return;
    throw error;
  }
  if (!v.is(Models, answer)) return;
  throw new ModelLoadError(
    `${upstream.base.origin} is LM Studio, which inkpress cannot write with: its JSON-schema constraint is on /v1/chat/completions only, which cannot ` +
      `continue an answer, and /v1/completions takes no grammar, so the outline and sentence grammars could not be kept (serve the model with Ollama or ` +
      `llama-server)`,
  );
}
