import * as v from "valibot";
import { ModelLoadError } from "../errors.js";
import { UpstreamError } from "./errors.js";
import type { Extras } from "./openai.js";
import { SAMPLING } from "../sampling.js";
import type { RemoteServer } from "./server.js";
import { MARKED_TURNS, promptPrefix, tagPieces, turnsTemplate, type PartTokenizers } from "./prompt.js";
import { pieceTokenizer, type RawTokenize } from "./tokens.js";
import type { Upstream } from "./upstream.js";

const Models = v.object({ data: v.array(v.object({ id: v.string(), max_model_len: v.optional(v.number()) })) });
const Tokenized = v.object({ count: v.number(), tokens: v.array(v.number()) });

/**
 * A vLLM-compatible server, from `/v1/models` (the model, its context) and vLLM's `/tokenize` and
 * `/detokenize` (token counts, and the model's own chat template applied server-side). Servers
 * without them (Ollama, LM Studio) fail here with one line naming what is missing.
 */
export async function vllmServer(upstream: Upstream): Promise<{ facts: Omit<RemoteServer, "complete" | "prompts">; extras: Extras }> {
  const origin = upstream.base.origin;
  const models = v.safeParse(Models, await upstream.json("/v1/models"));
  const model = models.success ? models.output.data[0] : undefined;
  if (!model) throw new ModelLoadError(`${origin} lists no model at /v1/models`);
  const missing: string[] = [];
  if (!model.max_model_len) missing.push("the model's context size (max_model_len in /v1/models)");
  const tokenize = (body: object, signal?: AbortSignal) =>
    upstream.json("/tokenize", { model: model.id, ...body }, signal).then((answer) => v.parse(Tokenized, answer));
  if (!(await answers(tokenize({ prompt: "a" })))) missing.push("token counts (/tokenize)");
  if (missing.length > 0)
    throw new ModelLoadError(`${origin} is neither llama-server nor vLLM-compatible: it does not report ${missing.join(", nor ")}`);

  const chat = (messages: readonly { role: string; content: string }[]) => tokenize({ messages, add_generation_prompt: true });
  // A model without a chat template is a completion model; vLLM refuses to apply the template it lacks.
  const prompting = (await answers(
    chat([
      { role: "system", content: "" },
      { role: "user", content: "a" },
    ]),
  ))
    ? "chat-template"
    : "completion";
  // A chat template writes its own BOS where the model wants one; plain prompts get it from the tokenizer.
  const addSpecial = prompting === "completion";
  const { tokenizers, literal } = partTokenizers((prompt, bos, signal) =>
    tokenize({ prompt, add_special_tokens: bos && addSpecial }, signal).then((t) => t.tokens),
  );
  const template = turnsTemplate(async () => {
    const { tokens } = await chat(MARKED_TURNS);
    return v.parse(v.object({ prompt: v.string() }), await upstream.json("/detokenize", { model: model.id, tokens })).prompt;
  }, origin);
  // A template that hides where the turns' text goes is refused now, in one line, not at the first article.
  if (prompting === "chat-template") await template();
  return {
    facts: {
      kind: "vllm",
      name: model.id,
      prompting,
      contextSize: model.max_model_len!,
      slots: undefined,
      pinsSlots: false,
      promptPrefix: async (prompt, signal) =>
        promptPrefix(prompt, prompting === "chat-template" ? await template() : undefined, tokenizers, signal),
      tokenize: literal,
    },
    // Generated ids come back with each event (vLLM 0.10.2 and later; older ones send text, tokenized again).
    extras: { add_special_tokens: addSpecial, repetition_penalty: SAMPLING.repeatPenalty, return_token_ids: true },
  };
}

/**
 * Tokenizers for each part of a prompt on a server whose tokenizer always parses control tokens
 * written as text (vLLM's `/tokenize`, as Hugging Face tokenizers do): request text is tokenized in
 * pieces cut where a control token could begin ({@link tagPieces}), so none is ever whole in one;
 * `literal` tokenizes forced text of the answer the same way. `bos`: the tokenizer's own BOS.
 */
function partTokenizers(tokenize: (text: string, bos: boolean, signal?: AbortSignal) => Promise<number[]>): {
  tokenizers: PartTokenizers;
  literal: RawTokenize;
} {
  const piece = pieceTokenizer((text, signal) => tokenize(text, false, signal));
  const pieces = async (texts: string[], signal?: AbortSignal) => (await Promise.all(texts.map((text) => piece(text, signal)))).flat();
  const literal: RawTokenize = (text, signal) => pieces(tagPieces(text), signal);
  return {
    tokenizers: {
      start: async (text, special, signal) => {
        const [first = "", ...rest] = special ? [text] : tagPieces(text);
        return [...(await tokenize(first, true, signal)), ...(await pieces(rest, signal))];
      },
      piece: (text, special, signal) => (special ? piece(text, signal) : literal(text, signal)),
    },
    literal,
  };
}

/** Whether the request succeeds; a refusal (4xx, or an answer of another shape) is a no. */
async function answers(request: Promise<unknown>): Promise<boolean> {
  try {
    await request;
    return true;
  } catch (error) {
    if (error instanceof v.ValiError || (error instanceof UpstreamError && error.answered !== undefined && error.answered < 500))
      return false;
    throw error;
  }
}
