import type { GenerateOptions, Prompt, StopReason, Usage, Writer } from "../model/backend.js";
import type { Refusal } from "./body/sentence-gate.js";

/**
 * Why generated tokens were cut from the answer: a sentence the gate refused (its reason),
 * or one of the engine's own cuts.
 * - `outline`: outline fields written again (a rule broken, a banned phrase, an answer cut short), and a word begun past a field's most;
 * - `steering`: the model's token at the spot where an owed keyword was placed (in a sentence or an outline field);
 * - `over-budget`: the sentence that would have taken a passage past its budget;
 * - `step-end`: the next sentence the model had begun when a step ended on a whole one;
 * - `unfinished`: a sentence left unfinished when the model stopped or a step ran out of tokens;
 * - `heading`: a heading the model began on its own;
 * - `sentence-length`: a house voice's sentence cut at its most words, or its terminator cut short of its least;
 * - `mended`: a refresh's mend, cut from the answer before the next one (the article took its text, or the refresh turned it down);
 * - `other`: whitespace and anything else.
 */
export type DiscardReason =
  | Refusal
  | "outline"
  | "steering"
  | "over-budget"
  | "step-end"
  | "unfinished"
  | "heading"
  | "sentence-length"
  | "mended"
  | "other";

/**
 * The article's writer, counting what the engine throws away: every completion token generated
 * and then cut from the answer, by why. It remembers how many tokens had been generated at the
 * end of each piece, so a cut back to an offset knows the tokens it drops. What it counts is
 * the answer's `usage.discardedTokens`: the price of each rule the engine keeps by refusing.
 */
export class TokenLedger implements Writer {
  /** Completion tokens cut from the answer, by why. */
  readonly discarded: Partial<Record<DiscardReason, number>> = {};
  /** Answer length, and completion tokens not yet counted as discarded, at the end of each piece, in order. */
  private ends: number[] = [];
  private counts: number[] = [];
  /** Discarded tokens, all reasons together. */
  private dropped = 0;

  private constructor(private readonly inner: Writer) {
    this.recordEnd();
  }

  /** The ledger over `writer` (itself when it is one already). */
  static of(writer: Writer): TokenLedger {
    return writer instanceof TokenLedger ? writer : new TokenLedger(writer);
  }

  get usage(): Usage {
    return this.inner.usage;
  }
  get text(): string {
    return this.inner.text;
  }
  get stopReason(): StopReason {
    return this.inner.stopReason;
  }
  begin(prompt: Prompt): Promise<void> {
    return this.inner.begin(prompt);
  }
  append(text: string): void {
    this.inner.append(text);
    this.recordEnd();
  }
  pin(): void {
    this.inner.pin();
  }
  dispose(): Promise<void> {
    return this.inner.dispose();
  }
  /** Give the slot back as an `await using` scope ends: the engine's entries hold their writer so. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }
  async *generate(options: GenerateOptions): AsyncGenerator<string, void, undefined> {
    for await (const piece of this.inner.generate(options)) {
      this.recordEnd();
      yield piece;
    }
  }

  /** A cut the engine does not account for by name (whitespace before forced text). */
  truncate(length: number): void {
    this.cut(length, "other");
  }

  /** Cut the answer back to its first `length` characters; the generated tokens it drops count as `reason`. */
  cut(length: number, reason: DiscardReason): void {
    if (length >= this.inner.text.length) return;
    // The first end recorded is where the ledger started: nothing before it is counted.
    let i = this.ends.length;
    while (i > 1 && this.ends[i - 1]! > length) i--;
    // A piece that straddles the cut is lost whole: the model evaluates the kept part again as forced text.
    const tokens = this.usage.completionTokens - this.dropped - this.counts[i - 1]!;
    this.ends.length = i;
    this.counts.length = i;
    this.inner.truncate(length);
    this.dropped += tokens;
    this.recordEnd();
    if (tokens > 0) this.discarded[reason] = (this.discarded[reason] ?? 0) + tokens;
  }

  /** Record the answer's length, and the completion tokens not yet counted as discarded, as a piece's end. */
  private recordEnd(): void {
    this.ends.push(this.inner.text.length);
    this.counts.push(this.usage.completionTokens - this.dropped);
  }
}
