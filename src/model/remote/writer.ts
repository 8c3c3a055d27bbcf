import type { GenerateOptions, Prompt, StopReason, Usage, Writer } from "../backend.js";
import type { RemoteServer, StepReport } from "./server.js";
import { Transcript } from "./transcript.js";

/** Tokens of slack when estimating a prompt's size from its bytes (re-tokenized text may merge differently). */
const MARGIN = 16;

/**
 * One article on an inference server. Each step sends the whole prompt, instructions then
 * the visible answer; the server's prompt cache (on the article's own slot) keeps what it has
 * read, so only new text is evaluated. Past the context, the oldest unpinned prose is dropped
 * from what is sent, never from `text`.
 */
export class RemoteWriter implements Writer {
  readonly usage: Usage = { promptTokens: 0, completionTokens: 0 };
  stopReason: StopReason = "end";
  private prefix = "";
  private readonly transcript = new Transcript();
  /** Tokens of the last prompt (and answer) whose size the server told, and UTF-8 bytes added since: a token holds at least one byte. */
  private measured = { tokens: 0, bytesSince: 0 };
  /** Until the first step, the slot's cache holds another article. */
  private fresh = true;
  private released = false;

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
    this.prefix = await this.server.promptPrefix(prompt, this.ended);
    this.transcript.truncate(0);
    this.measured = { tokens: 0, bytesSince: Buffer.byteLength(this.prefix) };
  }

  append(text: string): void {
    this.transcript.append(text);
    this.measured.bytesSince += Buffer.byteLength(text);
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
    // "caller" unless the server ends the step: the consumer may also stop iterating at any yield.
    this.stopReason = "caller";
    try {
      signal.throwIfAborted();
      const maxTokens = await this.fit(options.maxTokens, signal);
      if (maxTokens <= 0) {
        this.stopReason = "length";
        return;
      }
      const step = { prompt: this.prefix + this.transcript.visible(), maxTokens, seed: options.seed, grammar: options.grammar, slot: this.slot, fresh: this.fresh, signal };
      this.fresh = false;
      for await (const piece of this.server.complete(step, report)) {
        this.append(piece);
        yield piece;
      }
      // The endpoint ends an aborted step quietly (a cut stream throws).
      signal.throwIfAborted();
      this.stopReason = report.stopReason ?? "caller";
      if (report.promptTotal !== undefined) this.measured = { tokens: report.promptTotal + report.completionTokens, bytesSince: 0 };
    } finally {
      this.usage.promptTokens += report.promptTokens;
      this.usage.completionTokens += report.completionTokens;
    }
  }

  async dispose(): Promise<void> {
    if (this.released) return;
    this.released = true;
    this.release();
  }

  /** Make room for `maxTokens` after the prompt, dropping old prose if needed; returns the tokens that fit. */
  private async fit(maxTokens: number, signal: AbortSignal): Promise<number> {
    const { contextSize } = this.server;
    const budget = contextSize - maxTokens - 1;
    if (this.measured.tokens + this.measured.bytesSince + MARGIN <= budget) return maxTokens;
    let prompt = this.prefix + this.transcript.visible();
    let tokens = await this.server.countTokens(prompt, signal);
    // Everything after a cut is evaluated again, so drop a quarter of the context more than needed: shifts stay rare.
    const target = budget - Math.floor(contextSize / 4);
    while (tokens > budget) {
      const dropped = this.transcript.drop(Math.ceil(((tokens - target) * prompt.length) / tokens));
      if (!dropped) break;
      prompt = this.prefix + this.transcript.visible();
      tokens = await this.server.countTokens(prompt, signal);
    }
    this.measured = { tokens, bytesSince: 0 };
    return Math.min(maxTokens, contextSize - tokens - 1);
  }
}
