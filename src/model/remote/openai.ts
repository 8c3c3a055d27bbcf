import * as v from "valibot";
import { ModelLoadError } from "../errors.js";
import { UpstreamError } from "./errors.js";
import { SAMPLING } from "../sampling.js";
import type { Complete, RemoteServer, StepReport } from "./server.js";
import { banned } from "./control.js";
import { GeneratedTokens } from "./tokens.js";
import type { Upstream } from "./upstream.js";

/** What a server needs besides the prompt in every `/v1/completions` request (its sampling names, token handling). */
export type Extras = Record<string, unknown>;

/** The ways OpenAI-compatible servers take a GBNF grammar; the first that constrains the probe wins. */
const GRAMMAR_FIELDS: ((grammar: string) => Extras)[] = [
  (grammar) => ({ grammar }), // llama-server, LocalAI
  (grammar) => ({ structured_outputs: { grammar } }), // vLLM
  (grammar) => ({ guided_grammar: grammar }), // older vLLM
];

const Chunk = v.object({
  choices: v.optional(
    v.array(
      v.object({
        text: v.optional(v.string()),
        finish_reason: v.nullish(v.string()),
        /** vLLM's generated ids (`return_token_ids`). */
        token_ids: v.nullish(v.array(v.number())),
      }),
    ),
  ),
  /** llama-server's native event beside the OpenAI one (`verbose`): its token ids and count. */
  __verbose: v.optional(v.object({ tokens: v.optional(v.array(v.number())), tokens_predicted: v.optional(v.number()) })),
  usage: v.nullish(
    v.object({
      prompt_tokens: v.number(),
      completion_tokens: v.number(),
      prompt_tokens_details: v.nullish(v.object({ cached_tokens: v.optional(v.number()) })),
    }),
  ),
  error: v.optional(v.unknown()),
});

/**
 * Steps on the OpenAI-compatible `/v1/completions` (the prompt formatted by inkpress) of a server
 * described by `facts`: prompts as token ids where the server takes them (vLLM and llama-server
 * do), else as text. Fails with one line unless the server constrains output with a GBNF grammar
 * and reports token usage: without them an article would silently come out worse.
 */
export async function openaiServer(
  upstream: Upstream,
  facts: Omit<RemoteServer, "complete" | "prompts">,
  extras: Extras,
): Promise<RemoteServer> {
  for (const prompts of ["token-ids", "text"] as const) {
    for (const field of GRAMMAR_FIELDS) {
      const complete = openaiComplete(upstream, facts.name, extras, field);
      const server = { ...facts, pinsSlots: false, prompts, complete };
      if (await constrains(server)) return server;
    }
  }
  throw new ModelLoadError(`${upstream.base.origin} does not constrain /v1/completions output with a GBNF grammar, which inkpress needs`);
}

/**
 * Whether a one-word grammar decides the output (a server that refuses the field, or the prompt's
 * form, does not), and the server reports usage. Token ids must be read as one prompt of as many tokens.
 */
async function constrains(server: RemoteServer): Promise<boolean> {
  const report: StepReport = { promptTokens: 0, completionTokens: 0 };
  let text = "";
  const prefix = await server.promptPrefix({ system: "Answer in one word.", user: "Say a word.", completion: "A word:" });
  const prompt = server.prompts === "token-ids" ? prefix.tokens : prefix.text;
  try {
    for await (const piece of server.complete(
      { prompt, maxTokens: 8, seed: 1, grammar: 'root ::= "zebra"', slot: -1, fresh: true },
      report,
    ))
      text += piece.text;
  } catch (error) {
    if (error instanceof UpstreamError && error.answered !== undefined && error.answered < 500) return false;
    throw error;
  }
  if (text.trim() !== "zebra") return false;
  if (report.promptTotal === undefined)
    throw new ModelLoadError(`${server.name}: the server does not report token usage in streams, which inkpress needs`);
  return server.prompts === "text" || report.promptTotal === prefix.tokens.length;
}

function openaiComplete(upstream: Upstream, model: string, extras: Extras, grammarField: (grammar: string) => Extras): Complete {
  return async function* (step, report) {
    const body = {
      model,
      prompt: step.prompt,
      max_tokens: step.maxTokens,
      seed: step.seed,
      stream: true,
      stream_options: { include_usage: true },
      temperature: SAMPLING.temperature,
      top_p: SAMPLING.topP,
      top_k: SAMPLING.topK,
      min_p: SAMPLING.minP,
      ...extras,
      ...(step.grammar === undefined ? {} : grammarField(step.grammar)),
      // Only llama-server names its control tokens, and it takes the same logit_bias here.
      ...banned(step),
    };
    const tokens = new GeneratedTokens();
    for await (const event of upstream.events("/v1/completions", body, step.signal)) {
      if (event.data === "[DONE]") break;
      const chunk = upstream.parseEvent(Chunk, event.data);
      if (chunk.error !== undefined)
        throw new UpstreamError(502, `${upstream.base.origin} failed mid-answer: ${JSON.stringify(chunk.error)}`);
      const choice = chunk.choices?.[0];
      if (choice) {
        const ids = choice.token_ids ?? chunk.__verbose?.tokens;
        // One token per event until the usage says otherwise: an aborted step is still counted.
        report.completionTokens = chunk.__verbose?.tokens_predicted ?? report.completionTokens + (ids?.length ?? (choice.text ? 1 : 0));
        yield* tokens.take(choice.text ?? "", ids, chunk.__verbose?.tokens_predicted);
      }
      if (choice?.finish_reason) {
        report.stopReason = choice.finish_reason === "stop" ? "end" : "length";
        yield* tokens.finish(report.stopReason === "end");
      }
      if (chunk.usage) {
        const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
        report.promptTokens = chunk.usage.prompt_tokens - cached;
        report.promptTotal = chunk.usage.prompt_tokens;
        report.completionTokens = chunk.usage.completion_tokens;
      }
    }
    if (report.stopReason === undefined && !step.signal?.aborted)
      throw new UpstreamError(502, `${upstream.base.origin} ended the stream mid-answer`);
  };
}
