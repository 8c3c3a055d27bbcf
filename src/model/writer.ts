import type { LlamaContextSequence, Token } from "node-llama-cpp";
import type { ModelRuntime, Prompt } from "./runtime.js";

/** Sampling for one call. */
export interface WriteOptions {
  /** Most tokens to generate. */
  maxTokens: number;
  /** Sampling seed; the same seed gives the same text on the same model and threads. */
  seed: number;
  /** Stops the generation between two tokens. */
  signal?: AbortSignal;
}

/** Tokens evaluated and generated, as reported in `usage`. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
}

const SAMPLING = { temperature: 0.8, topK: 40, topP: 0.9, minP: 0.05 } as const;
const REPEAT_WINDOW = 64;
/** Preceding tokens the detokenizer sees, enough for any leading-space or merge rule. */
const CONTEXT_TOKENS = 8;

/**
 * Generates text on one borrowed sequence. Successive prompts of one article share a
 * prefix (the same system turn, the same brief): its evaluated tokens are kept, so
 * only the part that changed is evaluated again.
 */
export class ModelWriter {
  /** Counted over every call of this writer. */
  readonly usage: Usage = { promptTokens: 0, completionTokens: 0 };
  /** Whether the last call ended because `maxTokens` ran out (its last word may be cut). */
  truncated = false;

  private constructor(
    private readonly runtime: ModelRuntime,
    private readonly sequence: LlamaContextSequence,
  ) {}

  /**
   * A writer on a borrowed sequence, emptied first: an article never depends on what
   * the sequence held before, so the same request gives the same article and usage.
   */
  static async start(runtime: ModelRuntime, sequence: LlamaContextSequence): Promise<ModelWriter> {
    await sequence.clearHistory();
    return new ModelWriter(runtime, sequence);
  }

  /** Stream the model's answer to a prompt as text pieces, ending at an end-of-generation token or `maxTokens`. */
  async *write(prompt: Prompt, options: WriteOptions): AsyncGenerator<string> {
    const promptTokens = this.runtime.tokenize(prompt);
    const room = this.sequence.contextSize - promptTokens.length - 1;
    const maxTokens = Math.min(options.maxTokens, room);
    this.truncated = true;
    if (maxTokens <= 0) return;
    const input = await this.keepCommonPrefix(promptTokens);
    this.usage.promptTokens += input.length;

    const generated: Token[] = [];
    // Tokens from here on are not out as text yet: a character split over byte tokens waits for its last byte.
    let flushed = 0;
    const model = this.runtime.model;
    const tokens = this.sequence.evaluate(input, {
      ...SAMPLING,
      seed: options.seed,
      repeatPenalty: { punishTokens: () => generated.slice(-REPEAT_WINDOW), penalty: 1.15 },
    });
    try {
      for await (const token of tokens) {
        options.signal?.throwIfAborted();
        generated.push(token);
        this.usage.completionTokens++;
        // The tokens before give the detokenizer its context (a leading space, for one).
        const context = generated.slice(Math.max(0, flushed - CONTEXT_TOKENS), flushed);
        const text = model.detokenize(generated.slice(flushed), false, context);
        if (!text.endsWith("\uFFFD")) {
          flushed = generated.length;
          if (text) yield text;
        }
        if (generated.length >= maxTokens) return;
      }
      this.truncated = false;
    } finally {
      await tokens.return(undefined);
    }
  }

  /** Erase what differs from the new prompt and return the tokens still to evaluate. */
  private async keepCommonPrefix(tokens: Token[]): Promise<Token[]> {
    const held = this.sequence.contextTokens;
    let common = 0;
    while (common < held.length && common < tokens.length - 1 && held[common] === tokens[common]) common++;
    if (common < this.sequence.nextTokenIndex) {
      await this.sequence.eraseContextTokenRanges([{ start: common, end: this.sequence.nextTokenIndex }]);
    }
    return tokens.slice(common);
  }
}
