import type { AvoidList, BannedMatch } from "../plan/avoid.js";
import { freeTextGrammar } from "../gbnf/free-text.js";
import type { DiscardReason, TokenLedger } from "../ledger.js";
import type { Refusal } from "./sentence-gate.js";
import { classOf, QUOTATION_ENDS, TERMINATORS } from "../text/scripts.js";
import { splitLongSentence } from "../text/sentences.js";
import { capitalise, countWords, wordSpans } from "../text/text.js";
import { nextUnit } from "./units.js";
import { hasSlotWords, isQuestionKeyword, isSlotWord, slotWords } from "../text/slot-words.js";
import { sentenceWords } from "../plan/limits.js";
import { lengthInterrupt, type LengthInterrupt } from "./sentence-length.js";
import type { SentenceSpan } from "../plan/voice.js";

/** A kept sentence that ends the step: the passage is full, or a paragraph or list item ends with it. */
export type Ending = "full" | "paragraph" | "item";
/**
 * The passage's verdict on a sentence (its `take`): refuse it (and why), end before it, or keep it and
 * say what comes next. Declared here, where the step asks for it: the passage imports the step.
 */
export type Verdict = Refusal | "stop" | Ending | "more";
/** Why a generation step ended: a sentence ended it, the model ended, a sentence was rejected, or the tokens ran out. */
export type Outcome = Ending | "ended" | "rejected" | "length";

/** What one step of the body pass needs. */
export interface StepOptions {
  /** The article's writer: what a step cuts from the answer is counted by why. */
  writer: TokenLedger;
  language: string;
  /** Whether the language parts words with spaces (false for Japanese, Chinese, Thai…). */
  spaced: boolean;
  avoid: AvoidList;
  /** Offset in the answer where the step's text starts (the end of the last sentence kept). */
  mark: number;
  maxTokens: number;
  /** A fresh sampling seed for each generation call. */
  seed: () => number;
  /** Stops the work between two tokens. @default none */
  signal?: AbortSignal;
  /**
   * What to place inside the next sentence, asked at each point where it could go (undefined
   * once the model wrote it itself, or when nothing is owed): a keyword, forced, or a link's
   * anchor phrases, of which the model writes one under a grammar.
   * @default no steering
   */
  steer?: () => Steered | undefined;
  /**
   * Whether the owed keyword has waited so long that a sentence whose lead reached its most words
   * without a slot word takes one the model chooses under a grammar, the keyword after it (a model
   * that writes none of its language's slot words, English in a French article, still places it).
   * @default never
   */
  bridge?: () => boolean;
  /**
   * The keyword the answer ends with, forced as the first sentence's opening (the introduction's):
   * steering starts with the next sentence, and the model's first token keeps it a word of its own.
   * @default none
   */
  opened?: string;
  /**
   * The word the next sentence may not open with (the two before it opened with it), asked at
   * each sentence start: a call that just kept such a pair ends there, and the next call's
   * grammar refuses the word, so no third sentence alike is written and then cut.
   * @default none
   */
  notOpening?: () => string | undefined;
  /**
   * The words a sentence holds (a house voice's, or the few an article has left), asked at each
   * piece: one that reaches the most ends there, one the model ends short of the least goes on
   * (the long-sentence split waits for the first span's most).
   * @default the model's own lengths
   */
  sentence?: () => SentenceSpan | undefined;
  /** Judge a whole sentence; `breakBefore`: the model started a new line before it. */
  take: (sentence: string, breakBefore: boolean) => Verdict;
}

/** How a step went. */
export interface StepResult {
  outcome: Outcome;
  /** Sentences kept. */
  accepted: number;
  /** Tokens generated, kept or not. */
  tokens: number;
  /** Words of the sentences kept. */
  words: number;
  /** Why the step's last sentence was refused, when it was. */
  refusal?: Refusal;
}

/** Verdicts that keep the sentence. */
const KEEPS: ReadonlySet<Verdict> = new Set<Ending | "more">(["full", "paragraph", "item", "more"]);
/** Whether a verdict keeps the sentence. */
const keeps = (verdict: Verdict): verdict is Ending | "more" => KEEPS.has(verdict);
/** Words of its own the model writes before a steered keyword, at least and at most. */
const LEAD = { min: 2, max: 5 } as const;
/** Refusals of banned phrases at one place before the sentence is dropped and written again (refusals further on are progress). */
const MAX_REFUSALS = 6;

/** A piece holding one of these may complete a sentence or a line: only then is the pending text read again. */
const PIECE_ENDS = new RegExp(`[${classOf(TERMINATORS + QUOTATION_ENDS)}\\n]`, "u");
/** Pending text holding one of these may become a whole sentence with the next piece. */
const SENTENCE_END = new RegExp(`[${classOf(TERMINATORS)}\\n]`, "u");
/** Pending text without an end is still read after this many more characters (a run-on sentence). */
const RUN_ON_CHARS = 120;

/**
 * Generate from the answer's end and hand each whole sentence after `mark` to `take`.
 * On the way it keeps two promises while the model samples: a banned phrase is refused
 * the moment it is completed (the answer is cut back to its last word and the model
 * writes on under a grammar that refuses that word there), and an owed keyword is placed
 * inside a sentence, after a few words of the model's own, never as its opening. The step
 * stops when `take` says so or the model stops; the answer is then cut back to the end of
 * the last sentence taken, so the model always sees what the article holds.
 */
export async function generateSentences(options: StepOptions): Promise<StepResult> {
  return new Step(options).run();
}

/** What a sentence is steered to hold: a keyword, forced, or phrases the model writes one of. */
export type Steered = string | { choose: readonly string[] };

/** What interrupts a generation call: a banned phrase to refuse, the spot for a steered keyword, or a sentence start whose opening word is refused. */
type Interrupt =
  | { kind: "refuse"; match: BannedMatch }
  | { kind: "steer"; at: number; keyword: Steered }
  | { kind: "reopen" }
  | LengthInterrupt;

class Step {
  private text: string;
  /** Offset in `text` up to which it is consumed: the end of the last sentence taken (or skipped). */
  private cursor = 0;
  private kept = 0;
  private accepted = 0;
  private words = 0;
  private refusals = 0;
  /** Where the last refusal cut the answer: refusals count again from one once a cut lands further on. */
  private lastCut = -1;
  /** Whether the pending sentence has its steered keyword already. */
  private steered = false;
  /** The keyword the answer ends with, forced: the next call's first character must not glue onto it. */
  private after: string | undefined;
  /** Phrases the next call opens with, one of them (a link's anchor), each with its space before it. */
  private choose: string[] | undefined;
  /** The last word of a banned phrase just cut, and the banned single words: the next call may not begin with one there. */
  private refused: string[] | undefined;
  /** The next call ends the pending sentence, or writes this many words before it may end (the voice's span). */
  private close = false;
  private lengthen: number | undefined;
  private outcome: Outcome | undefined;
  private refusal: Refusal | undefined;
  /** The last sentence read would have gone past the passage's budget. */
  private overBudget = false;
  /** Whether the pending text may hold a sentence end not read yet. */
  private unread = false;
  private readAt = 0;
  private readonly tokensBefore: number;
  /** Keywords and anchor phrases the step steered: a long sentence is never split inside one. */
  private readonly steeredPhrases: string[] = [];
  /** Words past which a sentence is split in two: the language's recommended most, or a longer voice's. */
  private readonly longest: number;

  constructor(private readonly o: StepOptions) {
    this.text = o.writer.text.slice(o.mark);
    this.tokensBefore = o.writer.usage.completionTokens;
    this.steered = o.opened !== undefined;
    this.after = o.opened;
    this.longest = Math.max(sentenceWords(o.language), o.sentence?.()?.most ?? 0);
  }

  async run(): Promise<StepResult> {
    const { writer } = this.o;
    while (this.outcome === undefined) {
      const left = this.o.maxTokens - this.tokens();
      if (left <= 0) break;
      const interrupt = await this.generate(left);
      if (this.outcome !== undefined) break;
      if (interrupt) this.apply(interrupt);
      else {
        // The model ended (or ran out of tokens): a last sentence may be whole without a follower.
        this.consume(writer.stopReason === "end");
        this.outcome ??= writer.stopReason === "end" ? "ended" : "length";
      }
    }
    if (this.outcome === undefined) {
      this.consume(false);
      this.outcome ??= "length";
    }
    writer.cut(this.o.mark + this.kept, this.leftover());
    return {
      outcome: this.outcome,
      accepted: this.accepted,
      tokens: this.tokens(),
      words: this.words,
      ...(this.refusal ? { refusal: this.refusal } : {}),
    };
  }

  /** Why the text after the last sentence kept goes, when the step ends. */
  private leftover(): DiscardReason {
    if (this.refusal) return this.refusal;
    if (this.overBudget) return "over-budget";
    if (this.outcome === "rejected") return "heading";
    return this.outcome === "ended" || this.outcome === "length" ? "unfinished" : "step-end";
  }

  private tokens(): number {
    return this.o.writer.usage.completionTokens - this.tokensBefore;
  }

  /** One generation call, until the model stops, the pass has its outcome, or something interrupts. */
  private async generate(maxTokens: number): Promise<Interrupt | undefined> {
    const { writer, seed, signal, avoid } = this.o;
    const pending = this.text.slice(this.cursor);
    const notOpening = pending.trim() === "" ? this.o.notOpening?.() : undefined;
    const grammar = freeTextGrammar({
      pending,
      spaced: this.o.spaced,
      ...(notOpening === undefined ? {} : { notOpening }),
      ...(this.after === undefined ? {} : { after: this.after }),
      ...(this.choose === undefined ? {} : { choose: this.choose }),
      ...(this.refused === undefined ? {} : { refuse: this.refused }),
      ...(this.close ? { close: true } : {}),
      ...(this.lengthen === undefined ? {} : { lengthen: this.lengthen }),
    });
    this.after = this.refused = this.choose = this.lengthen = undefined;
    this.close = false;
    for await (const piece of writer.generate({ maxTokens, seed: seed(), signal, grammar })) {
      const at = this.text.length;
      this.text += piece;
      const match = avoid.completedIn(this.text, at);
      if (match && match.start >= this.cursor) return { kind: "refuse", match };
      const span = this.o.sentence?.();
      const length = span && lengthInterrupt(this.text, this.cursor, at, piece, span, this.o.language);
      if (length) return length;
      if (PIECE_ENDS.test(piece)) this.unread = true;
      const kept = this.kept;
      if (this.unread || this.text.length - this.readAt > RUN_ON_CHARS) this.consume(false);
      if (this.outcome !== undefined) return undefined;
      if (this.kept > kept && this.reopens()) return { kind: "reopen" };
      const steer = this.steerAt(at, piece);
      if (steer) return steer;
    }
    return undefined;
  }

  /**
   * Whether the sentence after the one just kept may not open as it has begun to: the last two
   * opened with the same word, and the next one has no word yet or one that may still become it.
   */
  private reopens(): boolean {
    const refused = this.o.notOpening?.();
    if (refused === undefined) return false;
    const begun = /^[\s"'\u201c\u2018(\-\u2013\u2014]*([\p{L}\p{N}]*)/u.exec(this.text.slice(this.cursor))![1]!;
    return refused.startsWith(begun.toLocaleLowerCase(this.o.language));
  }

  /** Cut the answer back and force what the interrupt asks for. */
  private apply(interrupt: Interrupt): void {
    const { writer, mark, spaced } = this.o;
    // The next sentence's first letters go (usually none or one token); the next call's grammar refuses the word.
    if (interrupt.kind === "reopen") {
      this.cutTo(this.cursor, "third-alike");
      return;
    }
    if (interrupt.kind === "close" || interrupt.kind === "lengthen") {
      this.cutTo(interrupt.at, "sentence-length");
      if (interrupt.kind === "close") this.close = true;
      else this.lengthen = interrupt.words;
      return;
    }
    if (interrupt.kind === "refuse") {
      this.refusals = interrupt.match.cut > this.lastCut ? 1 : this.refusals + 1;
      this.lastCut = interrupt.match.cut;
      if (this.refusals > MAX_REFUSALS) {
        this.outcome = "rejected";
        this.refusal = "banned";
        return;
      }
      this.cutTo(interrupt.match.cut, "banned");
      this.refused = [interrupt.match.word, ...this.o.avoid.words];
      return;
    }
    this.cutTo(interrupt.at, "steering");
    const before = writer.text.at(-1) ?? "";
    // Spaced scripts part words with a space (none after a line break: a question opens a paragraph); others only after
    // a Latin letter or digit, which would glue onto the phrase ("know室内植物").
    const gap = () => ((spaced && !/\s/u.test(before)) || /[\p{Script=Latin}\p{N}]/u.test(before) ? " " : "");
    this.steered = true;
    const { keyword } = interrupt;
    // The model writes one of the phrases: the next call's grammar opens with them.
    if (typeof keyword !== "string") {
      this.choose = keyword.choose.map((phrase) => `${gap()}${phrase}`);
      this.steeredPhrases.push(...keyword.choose);
      return;
    }
    this.steeredPhrases.push(keyword);
    writer.append(`${gap()}${keyword}`);
    this.text = writer.text.slice(mark);
    this.after = keyword;
  }

  private cutTo(at: number, reason: DiscardReason): void {
    this.o.writer.cut(this.o.mark + at, reason);
    this.text = this.o.writer.text.slice(this.o.mark);
  }

  /**
   * The spot for an owed keyword, when this piece starts a new word of the pending sentence:
   * after a slot word ("the", "with") once the model wrote a few words, so a noun phrase can
   * stand there; in a language without slot words, after the most lead words. A sentence
   * without a slot word leaves the keyword owed to the next, unless it has waited long (`bridge`). A question keyword is a whole
   * sentence, steered at a sentence's start. The sentence's words are read only while a
   * keyword is owed: a free sentence costs the same per token however long it grows.
   */
  private steerAt(pieceAt: number, piece: string): Interrupt | undefined {
    if (this.steered || !this.o.steer || this.cursor > pieceAt) return undefined;
    const keyword = this.o.steer();
    if (keyword === undefined) return undefined;
    const { language, spaced } = this.o;
    const lead = this.text.slice(this.cursor, pieceAt);
    if (/\n\s*\S/u.test(lead.trimStart()) || /^\s*#/u.test(lead)) return undefined;
    if (typeof keyword === "string" && isQuestionKeyword(keyword, language)) return this.questionAt(pieceAt, piece, keyword);
    const slot = (word: string | undefined) => isSlotWord(word, language);
    // A piece that is a whole slot word (" the") takes the keyword right after it: no token of the model's is cut.
    if (spaced && /^\s\S+$/u.test(piece) && slot(piece.trim()) && wordSpans(lead, language).length + 1 >= LEAD.min)
      return { kind: "steer", at: this.text.length, keyword };
    // In a script without spaces a Latin word the model writes still starts after its space (" know").
    const opens = lead.length + /^\s*/u.exec(piece)![0].length;
    const wordStart = spaced ? /^\s/u.test(piece) : wordSpans(lead + piece, language).some((w) => w.index === opens);
    if (!wordStart) return undefined;
    const spans = wordSpans(lead, language);
    if (spans.length < LEAD.min) return undefined;
    if (slot(spans.at(-1)?.word)) return { kind: "steer", at: pieceAt, keyword };
    if (spans.length < LEAD.max) return undefined;
    if (!hasSlotWords(language)) return { kind: "steer", at: pieceAt, keyword };
    if (typeof keyword !== "string" || !this.o.bridge?.()) return undefined;
    const banned = new Set(this.o.avoid.words.map((word) => word.toLocaleLowerCase(language)));
    const choose = slotWords(language).filter((word) => !banned.has(word));
    return choose.length ? { kind: "steer", at: pieceAt, keyword: { choose: choose.map((word) => `${word} ${keyword}`) } } : undefined;
  }

  /** A question keyword's spot: a sentence's first word, where the keyword goes as the whole question. */
  private questionAt(pieceAt: number, piece: string, keyword: string): Interrupt | undefined {
    const { language, spaced } = this.o;
    const lead = this.text.slice(this.cursor, pieceAt);
    const startsWord = spaced ? /^\s*\S/u.test(piece) : true;
    if (wordSpans(lead, language).length > 0 || !startsWord) return undefined;
    const question = capitalise(keyword.replace(/[?？]\s*$/u, ""), language);
    return { kind: "steer", at: pieceAt, keyword: `${question}${spaced ? "?" : "？"}` };
  }

  /** Hand every whole sentence of the pending text to `take`, until one decides the outcome. */
  private consume(final: boolean): void {
    const { language, take } = this.o;
    this.readAt = this.text.length;
    while (this.outcome === undefined) {
      const pending = this.text.slice(this.cursor);
      const unit = nextUnit(pending, language, final, this.longest, this.steeredPhrases);
      if (!unit) break;
      const breakBefore = /\n\s*$/.test(this.text.slice(this.kept, this.cursor)) || /^\s*\n/.test(pending);
      // The model tries to start a section of its own: the passage goes on from the last sentence.
      if (unit.kind === "heading") {
        this.outcome = "rejected";
        break;
      }
      const parts = unit.kind === "sentence" ? splitLongSentence(unit.text, language, this.longest, this.steeredPhrases) : [];
      for (const part of parts) {
        const verdict = take(part, breakBefore);
        if (verdict === "stop") {
          this.outcome = "full";
          this.overBudget = true;
          return;
        }
        if (!keeps(verdict)) {
          this.outcome = "rejected";
          this.refusal = verdict;
          return;
        }
        this.accepted++;
        this.words += countWords(part, language);
        if (verdict !== "more") {
          this.outcome = verdict;
          break;
        }
      }
      this.cursor += unit.length;
      if (parts.length) {
        this.kept = this.cursor;
        // A kept sentence ends the steered one: a keyword still owed goes into the next.
        this.steered = false;
      }
    }
    this.unread = this.outcome === undefined && SENTENCE_END.test(this.text.slice(this.cursor));
  }
}
