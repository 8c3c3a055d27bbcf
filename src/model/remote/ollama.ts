import * as v from "valibot";
import type { Prompt } from "../backend.js";
import { ModelLoadError } from "../errors.js";
import { DEFAULT_CONTEXT } from "../runtime.js";
import { LLAMA_SERVER_SAMPLING } from "../sampling.js";
import { UpstreamError } from "./errors.js";
import { ollamaChatFormat } from "./ollama-template.js";
import { grammarSchema } from "./pattern.js";
import { breakTags, promptPrefix, type PartTokenizers } from "./prompt.js";
import type { Complete, CompletionStep, PromptPrefix, RemoteServer } from "./server.js";
import { QuotedText, RepeatRun, TextTokens } from "./text-tokens.js";
import type { Upstream } from "./upstream.js";

const Version = v.object({ version: v.string() });
const Tags = v.object({ models: v.array(v.object({ name: v.string() })) });
const Show = v.object({
  template: v.optional(v.string()),
  parameters: v.optional(v.string()),
  model_info: v.optional(v.record(v.string(), v.unknown())),
  capabilities: v.optional(v.array(v.string())),
});
/** One line of `/api/generate`'s or `/api/chat`'s NDJSON stream: a piece of the answer, the last one with the counts, or an error. */
const Line = v.object({
  response: v.optional(v.string()),
  message: v.optional(v.object({ content: v.optional(v.string()) })),
  done: v.optional(v.boolean()),
  done_reason: v.optional(v.string()),
  prompt_eval_count: v.optional(v.number()),
  eval_count: v.optional(v.number()),
  error: v.optional(v.string()),
});

/** How to use an Ollama server. */
export interface OllamaOptions {
  /**
   * The model to write with, as `ollama list` names it.
   * @default the only model installed
   */
  model?: string;
}

/**
 * Ollama, from `/api/version` (it is Ollama), `/api/tags` (the model), `/api/show` (its context,
 * chat template and capabilities); undefined where the server is another kind. Steps go to
 * `/api/generate` with `raw: true`: the prompt in the model's chat format, written by inkpress, then
 * the answer so far, which Ollama's prompt cache mostly holds already. A model whose chat format
 * inkpress does not know is written through `/api/chat` instead: the turns as messages, the answer
 * so far as a last assistant message, which Ollama's template leaves open to continue. A grammar
 * step is sent as a `format` schema whose pattern is the grammar (`pattern.ts`), which Ollama's
 * runner turns back into a grammar. Ollama has no tokenizer to ask, so token counts are estimated from text.
 */
export async function ollamaServer(upstream: Upstream, options: OllamaOptions = {}): Promise<RemoteServer | undefined> {
  const origin = upstream.base.origin;
  let version: unknown;
  try {
    version = await upstream.json("/api/version");
  } catch (error) {
    if (error instanceof UpstreamError && error.answered !== undefined && error.answered < 500) return undefined;
    throw error;
  }
  if (!v.is(Version, version)) return undefined;
  upstream.named("Ollama");
  const model = chooseModel(
    v.parse(Tags, await upstream.json("/api/tags")).models.map((m) => m.name),
    options.model,
    origin,
  );
  const show = v.parse(Show, await upstream.json("/api/show", { model }));
  if (show.capabilities && !show.capabilities.includes("completion"))
    throw new ModelLoadError(`Ollama at ${origin}: ${model} does not write text (its capabilities: ${show.capabilities.join(", ")})`);
  // A format inkpress does not know: Ollama applies the model's own template to messages.
  const format = ollamaChatFormat(show.template ?? "", origin);
  const contextSize = contextOf(show);
  const tokens = new TextTokens();
  const estimate = async (text: string) => tokens.ids(text);
  const tokenizers: PartTokenizers = { start: estimate, piece: estimate };
  return {
    kind: "ollama",
    name: model,
    prompting: format && !format.parts ? "completion" : "chat-template",
    contextSize,
    slots: undefined,
    pinsSlots: false,
    prompts: format ? "text" : "messages",
    countsCached: true,
    healthPath: "/api/version",
    promptPrefix: async (prompt, signal) =>
      format ? promptPrefix(prompt, format.parts, tokenizers, signal) : messagesPrefix(prompt, tokens),
    tokenize: estimate,
    complete: ollamaComplete(
      upstream,
      { model, contextSize, thinks: show.capabilities?.includes("thinking") ?? false },
      tokens,
      format ? "/api/generate" : "/api/chat",
    ),
  };
}

/**
 * The turns as messages, their tags broken as in a raw prompt (Ollama parses control tokens in the
 * text its template makes); `text` stands for them in counts.
 */
function messagesPrefix(prompt: Prompt, tokens: TextTokens): PromptPrefix {
  const turns = { system: breakTags(prompt.system), user: breakTags(prompt.user) };
  const text = `${turns.system}\n${turns.user}\n`;
  return { tokens: tokens.ids(text), text, turns };
}

/** What every request to the model carries. */
interface RequestBase {
  model: string;
  contextSize: number;
  /** The model can think before it answers (`thinking` in its capabilities): on `/api/chat` it is told not to, or its answer would start as thoughts. */
  thinks: boolean;
}

/** A step's request body: a raw prompt for `/api/generate`, or messages for `/api/chat` ending on the answer so far, which the model continues. */
function requestBody(step: CompletionStep, { model, contextSize, thinks }: RequestBase): object {
  const { grammar, turns } = step;
  const shared = {
    model,
    stream: true,
    ...(grammar === undefined ? {} : { format: grammarSchema(grammar) }),
    options: { seed: step.seed, num_predict: step.maxTokens, num_ctx: contextSize, ...LLAMA_SERVER_SAMPLING },
  };
  if (!turns) return { ...shared, prompt: step.prompt, raw: true };
  const messages = [
    ...(turns.system ? [{ role: "system", content: turns.system }] : []),
    { role: "user", content: turns.user },
    // No answer yet: the template opens the assistant's turn itself.
    ...(turns.answer ? [{ role: "assistant", content: turns.answer }] : []),
  ];
  // `think` is refused by a model that cannot think, so it is sent only to one that can.
  return { ...shared, messages, ...(thinks ? { think: false } : {}) };
}

/** The model named, or the only one installed; else one line listing them. */
function chooseModel(installed: string[], wanted: string | undefined, origin: string): string {
  const listed = installed.length ? installed.join(", ") : "none";
  if (wanted !== undefined) {
    const found = installed.find((name) => name === wanted || name === `${wanted}:latest`);
    if (!found)
      throw new ModelLoadError(`Ollama at ${origin} has no model ${wanted} (installed: ${listed}); pull it with ollama pull ${wanted}`);
    return found;
  }
  if (installed.length !== 1)
    throw new ModelLoadError(
      `Ollama at ${origin} has ${installed.length ? "several models" : "no model"} (${listed}): name one with --backend-model`,
    );
  return installed[0]!;
}

/**
 * The context inkpress asks for (`num_ctx`): the model's own `num_ctx` parameter where its
 * Modelfile sets one, else the in-process default, never more than the model was trained on.
 * Ollama's own default is a few thousand tokens whatever the model supports, and a `num_ctx` that
 * changes between requests reloads the model, so every request sends the same one.
 */
function contextOf(show: v.InferOutput<typeof Show>): number {
  const info = show.model_info ?? {};
  const architecture = info["general.architecture"];
  const trained = typeof architecture === "string" ? info[`${architecture}.context_length`] : undefined;
  const set = /^num_ctx\s+(\d+)/mu.exec(show.parameters ?? "")?.[1];
  const wanted = set ? Number(set) : DEFAULT_CONTEXT;
  return typeof trained === "number" && trained > 0 ? Math.min(trained, wanted) : wanted;
}

/** Steps on `/api/generate` (raw) or `/api/chat`, streamed as NDJSON; a grammar step under its `format` schema. */
function ollamaComplete(upstream: Upstream, model: RequestBase, tokens: TextTokens, path: "/api/generate" | "/api/chat"): Complete {
  return async function* (step, report) {
    if (typeof step.prompt !== "string") throw new UpstreamError(502, `Ollama at ${upstream.base.origin} takes no token ids`);
    const quoted = step.grammar === undefined ? undefined : new QuotedText();
    const run = new RepeatRun();
    for await (const raw of upstream.lines(path, requestBody(step, model), step.signal)) {
      const line = upstream.parseEvent(Line, raw);
      if (line.error !== undefined) throw new UpstreamError(502, `Ollama at ${upstream.base.origin} failed mid-answer: ${line.error}`);
      const piece = line.response ?? line.message?.content ?? "";
      if (piece) {
        // The cache holds the string's quotes, which the answer leaves out: the next prompt differs from the first one on.
        if (quoted) report.held = (report.held ?? step.prompt) + piece;
        run.add(piece);
        // One token a line until the last line counts them.
        report.completionTokens++;
        const text = quoted ? quoted.take(piece) : piece;
        if (text) yield { text, ids: undefined };
      }
      if (line.done) {
        const byItself = line.done_reason === "stop";
        const rest = quoted?.finish(byItself) ?? "";
        if (rest) yield { text: rest, ids: undefined };
        // A stop the grammar was not complete at, or on a run of one text, is Ollama's guard or a stop word: the step ran out, the model did not end.
        const ended = byItself && !run.guarded && (quoted === undefined || quoted.closed);
        report.stopReason = ended ? "end" : "length";
        report.completionTokens = line.eval_count ?? report.completionTokens;
        if (line.prompt_eval_count !== undefined) {
          report.promptTotal = line.prompt_eval_count;
          report.promptTokens = line.prompt_eval_count;
          tokens.learn(step.prompt.length, line.prompt_eval_count);
        }
        return;
      }
    }
    if (!step.signal?.aborted) throw new UpstreamError(502, `Ollama at ${upstream.base.origin} ended the stream mid-answer`);
  };
}
