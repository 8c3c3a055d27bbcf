import type { GenerateOptions, Prompt, StopReason, Usage, Writer } from "../backend.js";
import type { PromptPrefix, RemoteServer, StepReport, Turns } from "./server.js";
import { breakTags } from "./prompt.js";
import { Transcript } from "./transcript.js";

/** Tokens of slack for a server that takes text: it tokenizes the whole prompt at once, which may merge pieces differently. */
const TEXT_MARGIN = 16;

/**
 * One article on an inference server. The answer is kept as the server's token ids: generated ids
 * as it sampled them, forced text tokenized on its own before the step that reads it. Each step
 * sends the whole prompt, instructions then the visible answer, as those ids, so the server's
 * prompt cache (on the article's own slot) always matches and only new tokens are evaluated. Past
 * the context, the oldest unpinned prose is dropped from what is sent, never from `text`.
 */
export class RemoteWriter implements Writer {
  readonly usage: Usage = { promptTokens: 0, completionTokens: 0 };
  stopReason: StopReason = "end";
  private prefix: PromptPrefix = { tokens: [], text: "" };
  private readonly transcript = new Transcript();
  /** Until the first step, the slot's cache holds another article. */
  private fresh = true;
  /** The tokens the article's slot holds after the last step, where the writer knows them (a pinned slot, a step that ended by itself). */
  private held: number[] | undefined;
  private released = false;
  /** The text a server that counts its cache (`countsCached`) was last sent, with what it generated: what its cache holds, as far as the writer knows. */
  private sent = "";

  constructor(
    private readonly server: RemoteServer,
    /** The server slot this writer runs on; -1 for any. */
    private readonly slot: number,
    private readonly release: () => void,
    /** Aborts every step: the backend shuts down, or the request holding the writer ends. */
    private readonly ended: AbortSignal,
  ) {}

  get text(): string {
    return this.transcript.text;
  }

  async begin(prompt: Prompt): Promise<void> {
    this.fresh = true;
    this.held = undefined;
    this.prefix = await this.server.promptPrefix(prompt, this.ended);
    this.transcript.truncate(0);
  }

  append(text: string): void {
    this.transcript.append(text);
  }

  truncate(length: number): void {
    this.transcript.truncate(length);
  }

  pin(): void {
    this.transcript.pin();
  }

  /** As in-process: an abort (the step's, the request's, or the backend's shutdown) ends the step with its reason thrown, the text so far kept. */
  async *generate(options: GenerateOptions): AsyncGenerator<string, void, undefined> {
    const signal = options.signal ? AbortSignal.any([options.signal, this.ended]) : this.ended;
    const report: StepReport = { promptTokens: 0, completionTokens: 0 };
    let own: number | undefined;
    // A text prompt to a server that counts its cache, with the writer's own count of its tokens; and the text generated.
    let counted: { prompt: string; tokens: number } | undefined;
    let written = "";
    // "caller" unless the server ends the step: the consumer may also stop iterating at any yield.
    this.stopReason = "caller";
    try {
      signal.throwIfAborted();
      await this.resolve(signal);
      const maxTokens = this.fit(options.maxTokens);
      if (maxTokens <= 0) {
        this.stopReason = "length";
        return;
      }
      const { prompt, turns } = this.stepPrompt();
      // A grammar may hold request text: the sampler must not satisfy it with a control token.
      const banned =
        options.grammar === undefined
          ? undefined
          : this.server.bans
            ? await this.server.bans(options.impossible, signal)
            : this.server.controlIds;
      const step = {
        prompt,
        turns,
        maxTokens,
        seed: options.seed,
        grammar: options.grammar,
        banned,
        slot: this.slot,
        fresh: this.fresh,
        signal,
      };
      this.fresh = false;
      own = this.evaluates(prompt);
      if (typeof prompt === "string" && this.server.countsCached)
        counted = { prompt, tokens: this.prefix.tokens.length + this.transcript.visibleCount() };
      this.held = undefined;
      const generated: number[] = [];
      let known = true;
      for await (const piece of this.server.complete(step, report)) {
        known &&= piece.ids !== undefined;
        if (piece.ids) {
          this.transcript.add(piece.ids, piece.text);
          if (known) generated.push(...piece.ids);
        } else this.transcript.append(piece.text);
        written += piece.text;
        if (piece.text) yield piece.text;
      }
      // The endpoint ends an aborted step quietly (a cut stream throws).
      signal.throwIfAborted();
      this.stopReason = report.stopReason ?? "caller";
      // The last token sampled is not evaluated, unless it was the end of generation (never part of the answer).
      if (known && typeof prompt !== "string") this.held = [...prompt, ...(this.stopReason === "end" ? generated : generated.slice(0, -1))];
    } finally {
      // A step stopped before the server's count came is counted by the writer's own estimate.
      if (counted) {
        own = uncached(this.sent, counted.prompt, report.promptTotal ?? counted.tokens);
        this.sent = report.held ?? counted.prompt + written;
      }
      this.usage.promptTokens += own ?? report.promptTokens;
      this.usage.completionTokens += report.completionTokens;
    }
  }

  async dispose(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.release();
  }

  /** What a step sends: the instructions then the visible answer, and the same as messages where the server applies its template itself. */
  private stepPrompt(): { prompt: number[] | string; turns: Turns | undefined } {
    if (this.server.prompts === "token-ids")
      return { prompt: [...this.prefix.tokens, ...this.transcript.visibleTokens()], turns: undefined };
    // As text, the answer's tags are broken too: the server parses control tokens in text, and the answer holds request text.
    const answer = breakTags(this.transcript.visibleText());
    return { prompt: this.prefix.text + answer, turns: this.prefix.turns && { ...this.prefix.turns, answer } };
  }

  /**
   * The prompt tokens of a step that the server evaluates, counted by inkpress: those after what
   * the article's slot holds, at least one (the last is evaluated again for its logits). Undefined
   * where the writer does not know what the slot holds: the server's own count is used.
   */
  private evaluates(prompt: number[] | string): number | undefined {
    const held = this.server.pinsSlots && this.slot >= 0 && typeof prompt !== "string" ? this.held : undefined;
    if (!held) return undefined;
    let common = 0;
    while (common < held.length && common < prompt.length && held[common] === prompt[common]) common++;
    return Math.max(1, prompt.length - common);
  }

  /** Tokenize the forced text appended since the last step (and any generated text the server sent without ids), each piece on its own. */
  private async resolve(signal: AbortSignal): Promise<void> {
    const pending = this.transcript.unresolved();
    const tokens = await Promise.all(pending.map((piece) => this.server.tokenize(piece.text, signal)));
    for (const [i, piece] of pending.entries()) this.transcript.resolve(piece.index, tokens[i]!);
  }

  /** Make room for `maxTokens` after the prompt, dropping old prose if needed; returns the tokens that fit. */
  private fit(maxTokens: number): number {
    const { contextSize } = this.server;
    const margin = this.server.prompts === "token-ids" ? 0 : TEXT_MARGIN;
    const size = () => this.prefix.tokens.length + this.transcript.visibleCount() + margin;
    const budget = contextSize - maxTokens - 1;
    // Everything after a cut is evaluated again, so drop a quarter of the context more than needed: shifts stay rare.
    if (size() > budget) this.transcript.drop(size() - (budget - Math.floor(contextSize / 4)));
    return Math.min(maxTokens, contextSize - size() - 1);
  }
}

/**
 * The tokens a server that counts its cache evaluated of a step's prompt: the share of its `total`
 * past the text it was last sent (its cache holds that much, as far as the writer knows), at least one.
 */
function uncached(sent: string, prompt: string, total: number): number {
  let common = 0;
  while (common < sent.length && common < prompt.length && sent[common] === prompt[common]) common++;
  return Math.max(1, Math.round((total * (prompt.length - common)) / Math.max(1, prompt.length)));
}
