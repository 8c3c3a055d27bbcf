import {
  LlamaGrammarEvaluationState,
  TokenBias,
  type Llama,
  type LlamaContextSequence,
  type LlamaGrammar,
  type LlamaModel,
  type Token,
} from "node-llama-cpp";
import { LRUCache } from "lru-cache";
import type { GenerateOptions, Prompt, StopReason, Usage, Writer } from "./backend.js";
import { afterLead, FORCED_LEAD } from "./forced-text.js";
import { SAMPLING } from "./sampling.js";

/** Preceding tokens the detokenizer sees, enough for any leading-space or merge rule. */
const CONTEXT_TOKENS = 8;

/** Grammars most recently used, per runtime: the same grammar text (a keyword boundary) is compiled once. */
const grammars = new WeakMap<Llama, LRUCache<string, Promise<LlamaGrammar>>>();
const GRAMMAR_CACHE = 32;

function grammarFor(llama: Llama, text: string): Promise<LlamaGrammar> {
  let cache = grammars.get(llama);
  if (!cache) grammars.set(llama, (cache = new LRUCache({ max: GRAMMAR_CACHE })));
  let grammar = cache.get(text);
  if (!grammar) cache.set(text, (grammar = llama.createGrammar({ grammar: text })));
  return grammar;
}

/** The biases of grammar steps built so far, per model, by the source of the step's `impossible` pattern. */
const biases = new WeakMap<LlamaModel, Map<string, TokenBias>>();
/** Every token's text, per model: detokenized once, read by every pattern. */
const texts = new WeakMap<LlamaModel, string[]>();

function tokenTexts(model: LlamaModel): string[] {
  let found = texts.get(model);
  if (!found) {
    found = [];
    for (const token of model.iterateAllTokens()) found[token] = model.detokenize([token]);
    texts.set(model, found);
  }
  return found;
}

/**
 * The bias of a grammar step: it forbids every control token but end-of-generation (and the
 * unknown token), and every token whose text matches the step's `impossible` pattern. A grammar
 * built from request text may hold `<|im_start|>` as characters, and llama.cpp's grammar sampler
 * accepts the control token whose text matches: request text would become a control token in the
 * answer, and in every later prompt. The model still writes those characters as text; it can still
 * end. Tokens the grammar can never take are never sampled, so none makes the sampler run the
 * grammar over the whole vocabulary. Built once per model and pattern (the engine's patterns are few).
 */
export function grammarBias(model: LlamaModel, impossible?: RegExp): TokenBias {
  let cache = biases.get(model);
  if (!cache) biases.set(model, (cache = new Map()));
  const key = impossible?.source ?? "";
  let bias = cache.get(key);
  if (bias) return bias;
  bias = new TokenBias(model.tokenizer);
  const text = impossible ? tokenTexts(model) : [];
  for (const token of model.iterateAllTokens()) {
    const attributes = model.getTokenAttributes(token);
    // End of generation stays, whatever its text: where a grammar is complete it is the only token left.
    if (model.isEogToken(token)) continue;
    if (attributes.control || attributes.unknown || impossible?.test(text[token]!)) bias.set(token, "never");
  }
  cache.set(key, bias);
  return bias;
}

/** What the in-process writer needs from the loaded model. */
export interface LlamaWriterOptions {
  llama: Llama;
  model: LlamaModel;
  sequence: LlamaContextSequence;
  /**
   * Tokens of the latest unpinned answer the model keeps in view; 0: all the context holds.
   * Attention over the view is much of a small model's cost per token: a bounded view keeps it flat.
   * @default 0
   */
  window?: number;
  /** Formats the instructions in the model's chat format, or as plain completion text. */
  tokenizePrompt: (prompt: Prompt) => Token[];
  /** Gives the sequence back to the pool. */
  release: () => void;
}

/**
 * A {@link Writer} on one context sequence. It keeps the tokens the model should see
 * (instructions, then the answer) and, before each step, evaluates only what the
 * sequence does not hold yet: forced text, or the last token after a cut. An answer
 * longer than the context (or than its window) drops its oldest unpinned tokens from the
 * sequence (the KV cache is shifted, not re-evaluated), so instructions and outline always
 * stay in view.
 */
export class LlamaWriter implements Writer {
  readonly usage: Usage = { promptTokens: 0, completionTokens: 0 };
  stopReason: StopReason = "end";
  text = "";
  private prompt: Token[] = [];
  /** The answer's tokens, and the length of `text` after each of them. */
  private tokens: Token[] = [];
  private ends: number[] = [];
  /** Answer tokens [pinned, droppedTo) are out of the model's view after a context shift. */
  private pinned = 0;
  private droppedTo = 0;
  /** Index of a sampled token the sequence has not evaluated yet (evaluating it is generation, not prompt). */
  private unevaluated = -1;
  private readonly contextSize: number;
  private leadTokens: Token[] | undefined;

  constructor(private readonly options: LlamaWriterOptions) {
    this.contextSize = options.sequence.contextSize;
  }

  async begin(prompt: Prompt): Promise<void> {
    // An article never depends on what the sequence held before: same request, same article and usage.
    await this.options.sequence.clearHistory();
    this.prompt = this.options.tokenizePrompt(prompt);
  }

  append(text: string): void {
    if (!text) return;
    this.text += text;
    const { model } = this.options;
    const tokens =
      afterLead(this.lead(), model.tokenize(`${FORCED_LEAD}${text}`, false)) ?? model.tokenize(text, false, "trimLeadingSpace");
    // Every token of a forced piece ends with the piece: a cut inside it re-tokenizes what is kept.
    for (const token of tokens) {
      this.tokens.push(token);
      this.ends.push(this.text.length);
    }
  }

  truncate(length: number): void {
    if (length >= this.text.length) return;
    let keep = this.ends.length;
    while (keep > 0 && this.ends[keep - 1]! > length) keep--;
    const keptEnd = keep > 0 ? this.ends[keep - 1]! : 0;
    const rest = this.text.slice(keptEnd, length);
    this.tokens.length = keep;
    this.ends.length = keep;
    this.text = this.text.slice(0, keptEnd);
    this.droppedTo = Math.min(this.droppedTo, keep);
    this.pinned = Math.min(this.pinned, keep);
    if (this.unevaluated >= keep) this.unevaluated = -1;
    this.append(rest);
  }

  pin(): void {
    this.pinned = this.droppedTo = this.tokens.length;
  }

  async *generate(options: GenerateOptions): AsyncGenerator<string, void, undefined> {
    const { model, llama, sequence } = this.options;
    const grammarEvaluationState = options.grammar
      ? new LlamaGrammarEvaluationState({ model, grammar: await grammarFor(llama, options.grammar) })
      : undefined;
    const generated: Token[] = [];
    let produced = 0;
    while (produced < options.maxTokens) {
      await this.makeRoom();
      const input = await this.sync();
      const iterator = sequence.evaluate(input, {
        temperature: SAMPLING.temperature,
        topK: SAMPLING.topK,
        topP: SAMPLING.topP,
        minP: SAMPLING.minP,
        seed: (options.seed + produced) >>> 0,
        grammarEvaluationState,
        ...(grammarEvaluationState ? { tokenBias: grammarBias(model, options.impossible) } : {}),
        repeatPenalty: { punishTokens: () => generated.slice(-SAMPLING.repeatLastN), penalty: SAMPLING.repeatPenalty },
      });
      let flushed = this.tokens.length;
      // "caller" unless the loop below ends by itself: the consumer may stop iterating at any yield.
      let outcome: StopReason | "room" = "caller";
      try {
        for await (const token of iterator) {
          options.signal?.throwIfAborted();
          generated.push(token);
          this.tokens.push(token);
          this.ends.push(this.text.length);
          this.unevaluated = this.tokens.length - 1;
          this.usage.completionTokens++;
          produced++;
          const text = model.detokenize(
            this.tokens.slice(flushed),
            false,
            this.tokens.slice(Math.max(0, flushed - CONTEXT_TOKENS), flushed),
          );
          // A character split over byte tokens waits for its last byte.
          if (!text.endsWith("\uFFFD")) {
            this.text += text;
            for (let i = flushed; i < this.tokens.length; i++) this.ends[i] = this.text.length;
            flushed = this.tokens.length;
            if (text) yield text;
          }
          if (produced >= options.maxTokens) {
            outcome = "length";
            break;
          }
          if (this.viewLength() >= this.contextSize - 1 || this.outgrown()) {
            outcome = "room";
            break;
          }
        }
        if (outcome === "caller") outcome = "end";
      } finally {
        this.stopReason = outcome === "room" ? "length" : outcome;
        // Tokens whose bytes never made a whole character are not part of the answer.
        this.tokens.length = Math.min(this.tokens.length, flushed);
        this.ends.length = this.tokens.length;
        if (this.unevaluated >= this.tokens.length) this.unevaluated = -1;
        await iterator.return(undefined);
      }
      if (outcome !== "room") return;
    }
  }

  async dispose(): Promise<void> {
    this.options.release();
  }

  /** The tokens of {@link FORCED_LEAD}, once per writer. */
  private lead(): Token[] {
    return (this.leadTokens ??= this.options.model.tokenize(FORCED_LEAD, false));
  }

  private view(): Token[] {
    return [...this.prompt, ...this.tokens.slice(0, this.pinned), ...this.tokens.slice(this.droppedTo)];
  }

  private viewLength(): number {
    return this.prompt.length + this.pinned + this.tokens.length - this.droppedTo;
  }

  /**
   * Erase what the sequence holds beyond the common prefix with the view, and return the
   * tokens still to evaluate: at least one, since the next token needs fresh logits.
   */
  private async sync(): Promise<Token[]> {
    const { sequence } = this.options;
    const want = this.view();
    const held = sequence.contextTokens;
    let common = 0;
    while (common < held.length && common < want.length - 1 && held[common] === want[common]) common++;
    if (common < sequence.nextTokenIndex) await sequence.eraseContextTokenRanges([{ start: common, end: sequence.nextTokenIndex }]);
    const input = want.slice(common);
    const answerStart = common - this.prompt.length - this.pinned + this.droppedTo;
    const sampledFirst = this.unevaluated >= 0 && answerStart === this.unevaluated;
    this.usage.promptTokens += input.length - (sampledFirst ? 1 : 0);
    this.unevaluated = -1;
    return input;
  }

  /** Whether the unpinned answer has outgrown the window. */
  private outgrown(): boolean {
    const window = this.options.window ?? 0;
    return window > 0 && this.tokens.length - this.droppedTo > window;
  }

  /**
   * Shift the context when the view is about to fill it (the oldest unpinned half of the
   * answer goes), or when the unpinned answer outgrows the window (its oldest quarter goes:
   * shifts stay rare and the model keeps most of what it just read).
   */
  private async makeRoom(): Promise<void> {
    const margin = Math.max(16, Math.floor(this.contextSize / 16));
    const unpinned = this.tokens.length - this.droppedTo;
    let drop = 0;
    if (this.viewLength() + margin >= this.contextSize) drop = Math.max(1, Math.floor(unpinned / 2));
    else if (this.outgrown()) drop = unpinned - Math.floor(((this.options.window ?? 0) * 3) / 4);
    if (drop === 0) return;
    const { sequence } = this.options;
    const start = this.prompt.length + this.pinned;
    const held = Math.max(0, Math.min(sequence.nextTokenIndex, start + drop) - start);
    if (held > 0) await sequence.eraseContextTokenRanges([{ start, end: start + held }]);
    this.droppedTo += drop;
  }
}
