import type { AvoidList } from "../plan/avoid.js";
import type { ArticleDocument } from "./document.js";
import { KEYWORD_DENSITY, KEYWORD_OPENINGS, LOOPS } from "../plan/limits.js";
import type { Plan } from "../plan/plan.js";
import { classOf, QUESTION_MARKS, TRAILING } from "../text/scripts.js";
import { balanced } from "../text/sentences.js";
import { countForms } from "../text/forms.js";
import { type Echo, RepeatMemory } from "../text/repeats.js";
import { hasPhrase, opensWith, splitSentences, wordSpans } from "../text/text.js";

/** A question's end: its terminator, then closing quotes or brackets. */
const QUESTION_END = new RegExp(`[${classOf(QUESTION_MARKS)}][${classOf(TRAILING)}]*$`, "u");

/** Why the gate refuses a sentence. */
export type Refusal =
  | "duplicate"
  /** The same as a sentence kept before but for a word or two (plan/limits.ts LOOPS.near). */
  | "near-duplicate"
  /** Most of its runs of words were said before: the start of a loop. */
  | "repeats"
  | "keyword-twice"
  | "third-alike"
  | "density"
  | "unbalanced"
  | "banned"
  | "keyword-case"
  | "keyword-opening"
  /** The prefilled opening the model did not make a real sentence of. */
  | "weak-opening"
  /** A question inside a FAQ answer shown without headings. */
  | "question";

/** Where a sentence would stand. */
export interface Placement {
  /** The first sentence of a section after the introduction. */
  sectionStart: boolean;
  /** The introduction's first sentence, which may (and is steered to) open with the primary keyword. */
  articleStart: boolean;
  /**
   * A FAQ answer in an article without headings, where the questions are paragraphs of their
   * own: a question here would read as the next one.
   * @default false
   */
  answer?: boolean;
}

/** Most primary keyword uses per word the model may add on its own: half a point below the density limit. */
const PRIMARY_CAP = (KEYWORD_DENSITY.max - 0.5) / 100;

/**
 * Decides which sentences the article keeps, and remembers the ones it kept. A sentence
 * is refused when it repeats one (without case or punctuation), nearly repeats one (a word or
 * two changed) or mostly repeats its runs of words (plan/limits.ts LOOPS: what the report's
 * repetition checks count), holds a keyword twice,
 * would be the third in a row to open alike, pushes the primary keyword past its density
 * cap, leaves a quotation or bracket open, holds a banned phrase, shows a keyword in a case
 * the request did not give it mid-sentence, or opens with a keyword where that would make
 * the pattern show (over 40 % of keyword sentences, over a third of the sections).
 */
export class SentenceGate {
  private readonly said: RepeatMemory;
  /** First words of the last two sentences kept, in document order. */
  private starts: string[] = [];
  private keywordSentences = 0;
  private keywordOpenings = 0;
  private sectionOpenings = 0;
  private readonly keywords: string[];
  private readonly language: string;
  private readonly sections: number;

  constructor(private readonly options: { plan: Plan; document: ArticleDocument; avoid: AvoidList }) {
    this.keywords = [options.plan.primary, ...options.plan.secondary];
    this.language = options.plan.request.language;
    this.sections = Math.max(1, options.plan.sections.length - 1);
    this.said = new RepeatMemory(this.language, LOOPS);
  }

  /** Why `sentence` may not join the article where it would stand, or undefined when it may. */
  refuse(sentence: string, placement: Placement): Refusal | undefined {
    const { plan, document, avoid } = this.options;
    const echo = this.echo(sentence);
    if (echo) return echo.whole ? "duplicate" : "near-duplicate";
    if (this.keywords.some((k) => countForms(sentence, k, this.language) > 1)) return "keyword-twice";
    if (this.thirdAlike(sentence)) return "third-alike";
    if (!balanced(sentence)) return "unbalanced";
    if (wordSpans(sentence, this.language).length >= LOOPS.words && this.said.runsSaid(sentence) >= LOOPS.sentenceShare) return "repeats";
    if (placement.answer && QUESTION_END.test(sentence)) return "question";
    if (avoid.holds(sentence)) return "banned";
    const lower = sentence.toLocaleLowerCase(this.language);
    if (this.keywords.some((k) => !caseKept(sentence, lower, k, this.language))) return "keyword-case";
    const primary = hasPhrase(sentence, plan.primary, this.language);
    if (primary && !placement.articleStart && document.occurrences(plan.primary) + 1 > plan.request.length * PRIMARY_CAP) return "density";
    if (!placement.articleStart && this.opensWithKeyword(sentence)) {
      if (this.keywordOpenings + 1 > (KEYWORD_OPENINGS.sentences / 100) * (this.keywordSentences + 1)) return "keyword-opening";
      if (placement.sectionStart && this.sectionOpenings + 1 > Math.floor(this.sections / KEYWORD_OPENINGS.sectionsPer))
        return "keyword-opening";
    }
    return undefined;
  }

  /** Remember a sentence the article kept. */
  keep(sentence: string, placement: Placement): void {
    this.said.remember(sentence);
    for (const part of readerParts(sentence, this.language)) this.said.remember(part);
    this.starts = [this.starts.at(-1) ?? "", firstWord(sentence, this.language)];
    if (placement.articleStart) return;
    if (this.keywords.some((k) => hasPhrase(sentence, k, this.language))) this.keywordSentences++;
    if (this.opensWithKeyword(sentence)) {
      this.keywordOpenings++;
      if (placement.sectionStart) this.sectionOpenings++;
    }
  }

  /** The word the next sentence may not open with: the last two kept opened with it. */
  repeatedOpening(): string | undefined {
    const [a, b] = this.starts;
    return a !== undefined && a !== "" && a === b ? a : undefined;
  }

  /** Whether a sentence opening like `text` would be the third in a row to open with the same word. */
  thirdAlike(text: string): boolean {
    const [a, b] = this.starts;
    return a !== undefined && a !== "" && a === b && b === firstWord(text, this.language);
  }

  /** The earlier sentence this one (or a sentence a reader sees inside it) says again, whole or nearly. */
  private echo(sentence: string): Echo | undefined {
    const whole = this.said.echo(sentence);
    if (whole) return whole;
    for (const part of readerParts(sentence, this.language)) {
      const echo = this.said.echo(part);
      if (echo) return echo;
    }
    return undefined;
  }

  private opensWithKeyword(sentence: string): boolean {
    return this.keywords.some((keyword) => opensWith(sentence, keyword, this.language));
  }
}

/**
 * The sentences a reader sees inside one the pass took whole: a quotation the segmenter split
 * ("Look, a kite! Suddenly…" she said) is one sentence to the pass, several to the report's
 * repetition checks. None when it reads as one.
 */
function readerParts(sentence: string, language: string): string[] {
  const parts = splitSentences(sentence, language);
  return parts.length > 1 ? parts : [];
}

/**
 * Whether every use of the keyword keeps the case the request gave it, apart from a use
 * that opens the sentence (its first letter is then a capital); `lower` is the sentence
 * lower-cased, once for all the keywords.
 */
function caseKept(sentence: string, lower: string, keyword: string, language: string): boolean {
  const want = keyword.toLocaleLowerCase(language);
  let at = lower.indexOf(want);
  while (at >= 0) {
    const written = sentence.slice(at, at + keyword.length);
    const opening = !/[\p{L}\p{N}]/u.test(sentence.slice(0, at));
    const boundary = !/[\p{L}\p{N}]/u.test(sentence[at - 1] ?? "") && !/[\p{L}\p{N}]/u.test(sentence[at + keyword.length] ?? "");
    if (boundary && written !== keyword && !(opening && written.slice(1) === keyword.slice(1))) return false;
    at = lower.indexOf(want, at + want.length);
  }
  return true;
}

/** The first word as a reader counts it: quotes and punctuation before it do not make another opening. */
function firstWord(text: string, language: string): string {
  return (wordSpans(text, language)[0]?.word ?? "").toLocaleLowerCase(language);
}
