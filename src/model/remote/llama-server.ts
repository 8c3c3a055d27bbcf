import path from "node:path";
import * as v from "valibot";
import type { Prompt } from "../backend.js";
import { banned, controlTokenIds, stepBans } from "./control.js";
import { UpstreamError } from "./errors.js";
import { LLAMA_SERVER_SAMPLING } from "../sampling.js";
import type { Complete, RemoteServer } from "./server.js";
import { MARKED_TURNS, promptPrefix, turnsTemplate, type PartTokenizers } from "./prompt.js";
import { GeneratedTokens, pieceTokenizer, type RawTokenize } from "./tokens.js";
import type { Upstream } from "./upstream.js";

const Props = v.object({
  total_slots: v.optional(v.number()),
  model_alias: v.optional(v.string()),
  model_path: v.optional(v.string()),
  chat_template: v.optional(v.string()),
  eos_token: v.optional(v.string()),
  default_generation_settings: v.object({ n_ctx: v.number() }),
});

/** One event of a `/completion` stream (every field optional: progress events and errors carry others). */
const Chunk = v.object({
  content: v.optional(v.string()),
  /** The token ids behind `content` (llama-server sends the last of a character split over several). */
  tokens: v.optional(v.array(v.number())),
  /** Prompt progress events carry a placeholder token, not a generated one. */
  prompt_progress: v.optional(v.unknown()),
  stop: v.optional(v.boolean()),
  stop_type: v.optional(v.string()),
  tokens_predicted: v.optional(v.number()),
  tokens_evaluated: v.optional(v.number()),
  timings: v.optional(v.object({ prompt_n: v.optional(v.number()) })),
  error: v.optional(v.object({ message: v.optional(v.string()) })),
});

/**
 * What llama-server reports as the chat template of a model that has none (common/chat.cpp,
 * CHATML_TEMPLATE_SRC). Such a model is a plain completion model: ChatML would only confuse it.
 */
const FALLBACK_TEMPLATE =
  "{%- for message in messages -%}\n" +
  "  {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>\n' -}}\n" +
  "{%- endfor -%}\n" +
  "{%- if add_generation_prompt -%}\n" +
  "  {{- '<|im_start|>assistant\n' -}}\n" +
  "{%- endif -%}";

/**
 * llama.cpp's llama-server, from its `/props`; undefined when the server is another kind
 * (no `/props`). Steps go to its native `/completion` endpoint.
 */
export async function llamaServer(upstream: Upstream): Promise<RemoteServer | undefined> {
  let answer: unknown;
  try {
    answer = await upstream.json("/props");
  } catch (error) {
    if (error instanceof UpstreamError && error.answered === 404) return undefined;
    throw error;
  }
  const parsed = v.safeParse(Props, answer);
  if (!parsed.success) return undefined;
  const props = parsed.output;
  const own = props.chat_template ?? "";
  const prompting = own === "" || own === FALLBACK_TEMPLATE ? "completion" : "chat-template";
  const { tokenizers, literal } = partTokenizers(upstream);
  const template = turnsTemplate(
    async () => v.parse(v.object({ prompt: v.string() }), await upstream.json("/apply-template", { messages: MARKED_TURNS })).prompt,
    upstream.base.origin,
  );
  // A template that hides where the turns' text goes is refused now, in one line, not at the first article.
  if (prompting === "chat-template") await template();
  const controlIds = await controlTokenIds(upstream, props.eos_token);
  return {
    kind: "llama-server",
    // The alias defaults to the model's path: its file name is name enough.
    name:
      props.model_alias && props.model_alias !== props.model_path ? props.model_alias : path.basename(props.model_path ?? "llama-server"),
    prompting,
    contextSize: props.default_generation_settings.n_ctx,
    slots: props.total_slots,
    pinsSlots: true,
    prompts: "token-ids",
    controlIds,
    bans: stepBans(upstream, controlIds, props.eos_token),
    promptPrefix: async (prompt: Prompt, signal?: AbortSignal) =>
      promptPrefix(prompt, prompting === "chat-template" ? await template() : undefined, tokenizers, signal),
    tokenize: literal,
    complete: nativeComplete(upstream),
  };
}

/**
 * llama-server's `/tokenize` for each part of a prompt: what `/completion` does to a text prompt
 * (BOS added, control tokens parsed) split in two, so each part asks only for what it may have;
 * `literal` tokenizes forced text of the answer.
 */
function partTokenizers(upstream: Upstream): { tokenizers: PartTokenizers; literal: RawTokenize } {
  const Tokens = v.object({ tokens: v.array(v.number()) });
  const tokenize = async (content: string, bos: boolean, special: boolean, signal?: AbortSignal) =>
    v.parse(Tokens, await upstream.json("/tokenize", { content, add_special: bos, parse_special: special }, signal)).tokens;
  const literal = pieceTokenizer((text, signal) => tokenize(text, false, false, signal));
  const template = pieceTokenizer((text, signal) => tokenize(text, false, true, signal));
  return {
    tokenizers: {
      start: (text, special, signal) => tokenize(text, true, special, signal),
      piece: (text, special, signal) => (special ? template : literal)(text, signal),
    },
    literal,
  };
}

/** Steps on llama-server's `/completion`: pinned to a slot, prompt cache on, usage from its timings. */
function nativeComplete(upstream: Upstream): Complete {
  return async function* (step, report) {
    const body = {
      prompt: step.prompt,
      n_predict: step.maxTokens,
      seed: step.seed,
      ...(step.grammar === undefined ? {} : { grammar: step.grammar }),
      ...banned(step),
      id_slot: step.slot,
      cache_prompt: !step.fresh,
      stream: true,
      // Progress events keep a long prompt's stream alive; per-token timings count an aborted step.
      return_progress: true,
      timings_per_token: true,
      // Each event carries its token's id: the answer is kept as those ids.
      return_tokens: true,
      // The final event would echo the prompt and settings; only these are read.
      response_fields: ["content", "stop", "stop_type", "tokens_predicted", "tokens_evaluated", "timings"],
      ...LLAMA_SERVER_SAMPLING,
    };
    const tokens = new GeneratedTokens();
    for await (const event of upstream.events("/completion", body, step.signal)) {
      const chunk = upstream.parseEvent(Chunk, event.data);
      if (chunk.error) throw new UpstreamError(502, `${upstream.base.origin} failed mid-answer: ${chunk.error.message ?? "unknown error"}`);
      if (chunk.timings?.prompt_n !== undefined) report.promptTokens = chunk.timings.prompt_n;
      if (chunk.tokens_predicted !== undefined) report.completionTokens = chunk.tokens_predicted;
      if (chunk.prompt_progress === undefined && !chunk.stop) yield* tokens.take(chunk.content ?? "", chunk.tokens, chunk.tokens_predicted);
      if (chunk.stop) {
        const ended = chunk.stop_type === "eos" || chunk.stop_type === "word";
        yield* tokens.finish(ended);
        report.stopReason = ended ? "end" : "length";
        report.promptTotal = chunk.tokens_evaluated;
        return;
      }
    }
    if (!step.signal?.aborted) throw new UpstreamError(502, `${upstream.base.origin} ended the stream mid-answer`);
  };
}
