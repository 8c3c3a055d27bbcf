/**
 * The model's part of a refresh, on one writer (one generation slot): the article's prompt
 * and outline answer as generate writes them (a failing title or description written again
 * under the outline grammar, the others forced as they are), then each mend from the
 * article's own text before the spot: prose through the body pass's passage (its steps,
 * sentence gate, keyword schedule and refusal of banned phrases), headings under the
 * outline's heading grammar. The model writes every word.
 */
import { writeProse, type ProseSetup, type WrittenProse } from "../body/prose.js";
import { seedSequence } from "../plan/seeds.js";
import { headingField } from "../outline/field-words.js";
import { TokenLedger } from "../ledger.js";
import { openAnswer } from "../outline/opening.js";
import type { Outline } from "../outline/outline.js";
import type { AvoidList } from "../plan/avoid.js";
import type { Plan } from "../plan/plan.js";
import { capitalise } from "../text/text.js";
import type { Backend } from "../../model/backend.js";

/** What the refresh writer works with. */
export interface RefreshWriterOptions {
  backend: Backend;
  /** The article's plan: its language, keywords, length and the sections the grounding reads. */
  plan: Plan;
  avoid: AvoidList;
  /** Stops the work between two tokens. @default none */
  signal?: AbortSignal;
  /** Tokens written so far, after every sentence. @default none */
  onTokens?: (tokens: number) => void;
  /** Words the model wrote so far in every passage, kept or not, after every sentence. @default none */
  onWords?: (words: number) => void;
}

/** Prose asked for at a spot of the article. */
export interface ProseAsk extends Pick<ProseSetup, "passage" | "grounding" | "seen" | "room"> {
  /** The article's Markdown before the spot, as the model reads it (the title first). */
  context: string;
}

/** Heading generation calls per heading before it is given up (a banned phrase or a repeated heading each time). */
const HEADING_TRIES = 3;

/** One refresh's conversation with the model. */
export class RefreshWriter {
  private base = 0;
  /** Words of the passages written before the one under way. */
  private wordsBefore = 0;
  /** One sequence of sampling seeds for every generation call of the refresh: the same seed gives the same refresh. */
  private readonly seed: () => number;

  private constructor(
    private readonly writer: TokenLedger,
    private readonly o: RefreshWriterOptions,
  ) {
    this.seed = seedSequence(o.plan.request.seed);
  }

  /** A writer on a free slot of the backend (waiting in its queue). */
  static async open(options: RefreshWriterOptions): Promise<RefreshWriter> {
    return new RefreshWriter(TokenLedger.of(await options.backend.writer(options.signal)), options);
  }

  /**
   * Tokens evaluated and generated, and those cut, by why; a whole mend cut from the answer is not among them (its text went into the
   * article, or was turned down as a whole).
   */
  get usage() {
    const { mended: _kept, ...discarded } = this.writer.discarded;
    return { ...this.writer.usage, discardedTokens: discarded };
  }

  /**
   * The prompt and the outline answer: the plan's given title and description are forced as they
   * are, a missing one is written under the outline grammar (its rules and rewrites).
   */
  async outline(): Promise<Outline> {
    const { plan, backend, avoid, signal } = this.o;
    const outline = await openAnswer({ plan, writer: this.writer, prompting: backend.prompting, seed: plan.request.seed, avoid, signal });
    this.base = this.writer.text.length;
    return outline;
  }

  /** Prose at a spot, sentence by sentence, as the body pass writes it; empty when the model wrote nothing the gate kept. */
  async prose(ask: ProseAsk): Promise<WrittenProse> {
    const { plan, avoid, signal } = this.o;
    this.reset(ask.context);
    const written = await writeProse({
      plan,
      writer: this.writer,
      avoid,
      grounding: ask.grounding,
      // The plan asks for no headings in the outline answer, but the article mended shows its own
      // whenever headings are on: a run of prose between two is capped as in a written article.
      visible: plan.headings,
      seed: this.seed,
      signal,
      onWords: (words, tokens) => {
        this.o.onTokens?.(tokens);
        this.o.onWords?.(this.wordsBefore + words);
      },
      passage: ask.passage,
      seen: ask.seen,
      room: ask.room,
    });
    this.wordsBefore += written.words;
    return written;
  }

  /**
   * A heading of `depth` at a spot, under the outline's heading grammar (the keyword in its first
   * words when `keyword`); undefined when every try held a banned phrase or one `taken` refuses.
   */
  async heading(ask: {
    context: string;
    depth: number;
    keyword: boolean;
    taken: (heading: string) => boolean;
  }): Promise<string | undefined> {
    const { plan, avoid, signal } = this.o;
    const { grammar, read } = headingField(plan, ask.keyword, avoid.words);
    for (let attempt = 0; attempt < HEADING_TRIES; attempt++) {
      this.reset(`${ask.context}${"#".repeat(ask.depth)} `);
      const start = this.writer.text.length;
      for await (const _piece of this.writer.generate({ grammar, maxTokens: 80, seed: this.seed(), ...(signal ? { signal } : {}) }));
      const written = read(this.writer.text.slice(start));
      if (written && !avoid.holds(written) && !ask.taken(written)) return capitalise(written, plan.request.language);
    }
    return undefined;
  }

  /** Give the slot back as the `await using` scope that holds the writer ends. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.writer.dispose();
  }

  /** The answer back to the end of the outline, then the article's text before the spot. */
  private reset(context: string): void {
    this.writer.cut(this.base, "mended");
    this.writer.append(context);
  }
}
