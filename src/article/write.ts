import type { Writer } from "../model/backend.js";
import type { ArticleDocument } from "./document.js";
import type { Outline } from "./outline.js";
import type { Plan, PlannedSection } from "./plan.js";
import { MIN_SENTENCE_WORDS, cleanProse, finishSentence, splitLongSentence } from "./sentences.js";
import { capitalise, countPhrase, countWords, endsSentence, firstWords, hasPhrase, normaliseSentence, splitSentences } from "./text.js";

/** What the body pass needs besides the plan and the outline. */
export interface WriteBodyOptions {
  writer: Writer;
  document: ArticleDocument;
  seed: number;
  signal?: AbortSignal;
  /** The running totals of body words and tokens, after every sentence. */
  onWords?: (words: number, tokens: number) => void;
}

/** Share of the requested length the pass aims at: the ±10 % rule has room above, "at least N words" none below. */
const LENGTH_AIM = 1.02;
/** Paragraphs close at the first sentence end past this many words (the limit is 150). */
const PARAGRAPH_WORDS = 90;
/** A paragraph break the model writes is kept once the paragraph has this many words. */
const MODEL_BREAK_WORDS = 25;
/** Most words of prose between two visible headings (the report's limit is 300). */
const RUN_WORDS = 270;
/** How much further past its budget than short of it a passage may end. */
const OVERSHOOT = 1.5;
/** Steps in a row that add no sentence before a passage gives up (the report then shows the shortfall). */
const IDLE_STEPS = 6;
/** Most primary keyword uses per word the model may add on its own (the density limit is 2.5 %). */
const PRIMARY_CAP = 0.02;
/** A sentence opened with a keyword must say something: stock phrases ("X was happy.") repeat across articles. */
const KEYWORD_SENTENCE_WORDS = 6;
/** After a prefilled keyword the model's next token must not glue onto it ("coffeewith"). */
const BOUNDARY = "root ::= [ ,.;:!?'\u2019)] [^\\n]*";

/** What `take` says of a sentence: refuse it, end before it, or keep it and say what comes next. */
type Verdict = "reject" | "stop" | "full" | "paragraph" | "item" | "keyword" | "more";
/** Why a generation step ended. */
type Outcome = "full" | "paragraph" | "item" | "keyword" | "ended" | "rejected" | "length";

/** One passage of prose: its budget and the keywords it owes. */
interface Passage {
  budget: number;
  primaryUses: number;
  secondary: string[];
  /** List items instead of paragraph sentences (key takeaways), at most this many. */
  items?: number;
  /** The article's first passage: its first sentence must open with the keyword, however often the model fails it. */
  opening?: boolean;
}

/**
 * The body, in one continuing generation that sees the outline and all text before it.
 * At a section's budget, at a sentence end, code appends the next heading to the
 * answer (forced tokens, not a new prompt) and the model goes on. The model writes
 * every sentence; code only decides which ones the article keeps: whole sentences, no
 * repeats, no keyword twice in one, never three openings alike, each passage near its
 * word budget. A rejected sentence is cut from the answer and the model writes another.
 * The primary keyword is placed by prefilling it as the opening of a sentence the model
 * completes.
 */
export async function writeBody(plan: Plan, outline: Outline, options: WriteBodyOptions): Promise<void> {
  await new BodyPass(plan, outline, options).run();
}

class BodyPass {
  private step = 0;
  /** Keyword uses a passage could not place: the next prose passage takes them over. */
  private owed = { primary: 0, secondary: [] as string[] };
  private tokensPerWord = 2;
  private readonly seen = new Set<string>();
  /** First words of the last two sentences, in document order. */
  private starts: string[] = [];
  private readonly language: string;
  private readonly writer: Writer;
  private readonly doc: ArticleDocument;
  /** Whether headings become heading nodes. */
  private readonly visible: boolean;

  constructor(
    private readonly plan: Plan,
    private readonly outline: Outline,
    private readonly options: WriteBodyOptions,
  ) {
    this.language = plan.request.language;
    this.writer = options.writer;
    this.doc = options.document;
    this.visible = plan.headings && plan.preset !== "paragraphs";
  }

  async run(): Promise<void> {
    const { plan, outline, doc } = this;
    this.writer.append(`# ${outline.title}\n\n`);
    if (plan.headings) doc.addTitle(outline.title);
    let remaining = Math.round(plan.request.length * LENGTH_AIM) - this.fixedWords();
    let shares = plan.sections.reduce((n, s) => n + s.share, 0);
    for (const [i, section] of plan.sections.entries()) {
      const budget = Math.max(8, Math.round((remaining * section.share) / shares));
      shares -= section.share;
      remaining -= await this.section(section, outline.sections[i]!, budget);
    }
    doc.finish();
  }

  /** Words outside the prose: visible headings and FAQ questions (they count as body words). */
  private fixedWords(): number {
    let words = 0;
    for (const [i, section] of this.plan.sections.entries()) {
      const written = this.outline.sections[i]!;
      const heading = this.headingText(section, written.heading);
      if (this.visible && heading) words += countWords(heading, this.language);
      if (this.visible || section.kind === "faq") words += written.subheadings.reduce((n, h) => n + countWords(h, this.language), 0);
    }
    return words;
  }

  /** The heading a section shows: its label, or the model's heading (numbered in lists and how-tos). */
  private headingText(section: PlannedSection, written: string | null): string | null {
    if (section.label) return section.label;
    if (!written) return null;
    return section.number === null ? written : `${section.number}. ${written}`;
  }

  /** Write one section's prose within `budget` words; returns the prose words it added. */
  private async section(section: PlannedSection, written: Outline["sections"][number], budget: number): Promise<number> {
    const heading = this.headingText(section, written.heading);
    if (heading) this.block(`## ${heading}`, () => this.visible && this.doc.addHeading(2, heading));
    else if (section.kind !== "introduction") this.block("", () => this.doc.close());
    const keywords = { primaryUses: section.primaryUses, secondary: section.secondary };

    if (section.kind === "takeaways") {
      this.writer.append("- ");
      return this.passage({ budget, primaryUses: 0, secondary: [], items: section.items });
    }
    if (written.subheadings.length === 0) return this.passage({ budget, ...keywords, opening: section.kind === "introduction" });
    // Subsections (or questions) share the budget; the first carries the section's keywords.
    let used = 0;
    for (const [j, sub] of written.subheadings.entries()) {
      this.block(`### ${sub}`, () => {
        if (this.visible) this.doc.addHeading(3, sub);
        // A question shown without headings is a paragraph of its own, and a sentence of the body.
        else if (section.kind === "faq") this.keep(sub, true);
      });
      const share = Math.round((budget - used) / (written.subheadings.length - j));
      used += await this.passage(j === 0 ? { budget: share, ...keywords } : { budget: share, primaryUses: 0, secondary: [] });
    }
    return used;
  }

  /** Start a new block in the answer (a blank line, then `markdown`) and in the document. */
  private block(markdown: string, add: () => void): void {
    const text = this.writer.text;
    this.writer.truncate(text.trimEnd().length);
    this.writer.append(`\n\n${markdown}${markdown ? "\n\n" : ""}`);
    this.doc.close();
    add();
  }

  /**
   * Prose of about `budget` words, sentence by sentence, from one continuing generation.
   * Ends when the budget is met, or when the model keeps failing to add a sentence; returns the words written.
   */
  private async passage(passage: Passage): Promise<number> {
    const { plan, writer, doc } = this;
    const budget = this.visible ? Math.min(RUN_WORDS, passage.budget) : passage.budget;
    let words = 0;
    let sentences = 0;
    const prose = passage.items === undefined;
    const uses = passage.primaryUses + (prose ? this.owed.primary : 0);
    let primaryLeft = uses;
    let secondaryLeft = prose ? [...this.owed.secondary, ...passage.secondary] : [];
    if (prose) this.owed = { primary: 0, secondary: [] };
    const every = budget / Math.max(1, uses);
    let newParagraph = true;
    let idle = 0;
    /** After a keyword opening the model could not complete, one free sentence comes first. */
    let rest = false;

    while (idle < IDLE_STEPS) {
      if (prose ? words >= budget - 2 : sentences >= passage.items!) break;
      // The sentence to come opens with a keyword when one is due, unless it would be a third opening alike.
      const wanted = primaryLeft > 0 && words >= every * (uses - primaryLeft)
        ? plan.primary
        : secondaryLeft.length && sentences >= 1 ? secondaryLeft[0] : undefined;
      const insist = passage.opening === true && sentences === 0;
      const due: string | undefined = wanted !== undefined && (insist || (!rest && !this.thirdAlike(wanted))) ? wanted : undefined;
      const mark = writer.text.length;
      const sentencesAtMark = sentences;
      if (due !== undefined) {
        const atStart = /(^|\n)(- )?$/.test(writer.text.slice(-3));
        writer.append(`${atStart ? "" : " "}${capitalise(due, this.language)}`);
        for await (const _ of writer.generate({ grammar: BOUNDARY, maxTokens: 1, seed: this.seed(), signal: this.options.signal })) {
          // One token that starts a new word.
        }
      }
      const left = passage.items !== undefined ? 40 : budget - words;
      const maxTokens = Math.max(24, Math.ceil(left * this.tokensPerWord * 1.3) + 16);
      const result = await this.sentences(mark, maxTokens, (sentence, breakBefore) => {
        const n = countWords(sentence, this.language);
        if (passage.items === undefined && words > 0 && words + n - budget > OVERSHOOT * (budget - words)) return "stop";
        const opensWithKeyword = due !== undefined && sentences === sentencesAtMark;
        if (!this.acceptable(sentence, !opensWithKeyword)) return "reject";
        if (opensWithKeyword && (n < KEYWORD_SENTENCE_WORDS || !hasPhrase(sentence, due, this.language))) return "reject";
        if (passage.items !== undefined) {
          doc.addListItem(sentence);
        } else {
          const paragraphBreak = newParagraph || (breakBefore && doc.paragraphWords >= MODEL_BREAK_WORDS);
          doc.addSentence(sentence, paragraphBreak);
        }
        this.track(sentence);
        newParagraph = false;
        words += n;
        sentences++;
        if (hasPhrase(sentence, plan.primary, this.language)) primaryLeft--;
        secondaryLeft = secondaryLeft.filter((k) => !hasPhrase(sentence, k, this.language));
        this.options.onWords?.(doc.wordCount, writer.usage.promptTokens + writer.usage.completionTokens);
        if (passage.items !== undefined) return sentences >= passage.items ? "full" : "item";
        if (words >= budget - 2) return "full";
        if (doc.paragraphWords >= PARAGRAPH_WORDS) return "paragraph";
        const next = primaryLeft > 0 && words >= every * (uses - primaryLeft);
        return next || (secondaryLeft.length > 0 && sentences >= 1) ? "keyword" : "more";
      });
      if (result.tokens > 0 && result.words > 0) this.tokensPerWord = Math.min(6, Math.max(1, result.tokens / result.words));
      idle = result.accepted > 0 ? 0 : idle + 1;
      rest = due !== undefined && result.accepted === 0;
      if (result.outcome === "full") break;
      if (result.outcome === "paragraph") {
        writer.append("\n\n");
        newParagraph = true;
      } else if (result.outcome === "item") {
        writer.append("\n- ");
      } else if (result.outcome === "ended" && idle >= 2) {
        // A model that keeps ending its answer gets a new paragraph to continue in.
        writer.append("\n\n");
        newParagraph = true;
      }
    }
    if (prose) this.owed = { primary: Math.max(0, primaryLeft), secondary: secondaryLeft };
    return words;
  }

  /**
   * Generate from the answer's end and hand each whole sentence after `mark` to `take`.
   * The step stops when `take` says so or the model stops; the answer is then cut back
   * to the end of the last sentence taken, so the model always sees what the article holds.
   */
  private async sentences(
    mark: number,
    maxTokens: number,
    take: (sentence: string, breakBefore: boolean) => Verdict,
  ): Promise<{ outcome: Outcome; accepted: number; tokens: number; words: number }> {
    const { writer } = this;
    const tokensBefore = writer.usage.completionTokens;
    // The text since `mark`, kept here: reading the whole answer per token would cost more as it grows.
    let text = writer.text.slice(mark);
    /** Offset in `text` up to which it is consumed: the end of the last sentence taken (or skipped). */
    let cursor = 0;
    let kept = 0;
    let accepted = 0;
    let words = 0;
    let outcome: Outcome | undefined;
    const consume = (final: boolean): void => {
      while (outcome === undefined) {
        const pending = text.slice(cursor);
        const unit = nextUnit(pending, this.language, final);
        if (!unit) return;
        const breakBefore = /\n\s*$/.test(text.slice(kept, cursor)) || /^\s*\n/.test(pending);
        if (unit.kind === "heading") {
          // The model tries to start a section of its own: the passage goes on from the last sentence.
          outcome = "rejected";
          return;
        }
        const parts = unit.kind === "sentence" ? splitLongSentence(unit.text, this.language) : [];
        for (const part of parts) {
          const verdict = take(part, breakBefore);
          if (verdict === "reject") {
            outcome = "rejected";
            return;
          }
          // Past the budget: the passage ends before this sentence, which the answer then loses too.
          if (verdict === "stop") {
            outcome = "full";
            return;
          }
          accepted++;
          words += countWords(part, this.language);
          if (verdict !== "more") outcome = verdict;
          if (outcome) break;
        }
        cursor += unit.length;
        if (parts.length) kept = cursor;
      }
    };
    for await (const piece of writer.generate({ maxTokens, seed: this.seed(), signal: this.options.signal })) {
      text += piece;
      consume(false);
      if (outcome) break;
    }
    if (!outcome) {
      // The model ended (or ran out of tokens): a last sentence may be whole without a follower.
      consume(writer.stopReason === "end");
      outcome ??= writer.stopReason === "end" ? "ended" : "length";
    }
    writer.truncate(mark + kept);
    return { outcome, accepted, tokens: writer.usage.completionTokens - tokensBefore, words };
  }

  /**
   * Whether a sentence may join the article: new (without case or punctuation), not
   * holding a keyword twice, not a third opening alike in a row, and for the model's own
   * keyword uses, not pushing the primary keyword over its density cap.
   */
  private acceptable(text: string, fromModel: boolean): boolean {
    const { primary, secondary, request } = this.plan;
    if (this.seen.has(normaliseSentence(text, this.language))) return false;
    if ([primary, ...secondary].some((k) => countPhrase(text, k, this.language) > 1)) return false;
    if (this.thirdAlike(text)) return false;
    return !(fromModel && hasPhrase(text, primary, this.language) && this.doc.occurrences(primary) + 1 > request.length * PRIMARY_CAP);
  }

  /** Whether a sentence opening like `text` would be the third in a row to open with the same word. */
  private thirdAlike(text: string): boolean {
    const [a, b] = this.starts;
    return a !== undefined && a !== "" && a === b && b === firstWord(text, this.language);
  }

  /** Add an outline question shown as a paragraph of its own (headings off), tracked like any sentence. */
  private keep(sentence: string, newParagraph: boolean): void {
    this.doc.addSentence(sentence, newParagraph);
    this.track(sentence);
  }

  /** Remember a sentence in document order for the uniqueness and opening rules. */
  private track(text: string): void {
    this.seen.add(normaliseSentence(text, this.language));
    this.starts = [this.starts.at(-1) ?? "", firstWord(text, this.language)];
  }

  private seed(): number {
    return (this.options.seed + 1 + this.step++ * 977) >>> 0;
  }
}

/** The next whole unit of model text: a sentence, a heading line, or a line too short to be prose (skipped). */
function nextUnit(pending: string, language: string, final: boolean):
  | { kind: "sentence"; text: string; length: number }
  | { kind: "skip"; length: number }
  | { kind: "heading"; length: number }
  | undefined {
  const lead = pending.length - pending.trimStart().length;
  const body = pending.slice(lead);
  if (!body) return undefined;
  if (/^#{1,6}(\s|$)/.test(body)) return { kind: "heading", length: lead };
  const newline = body.indexOf("\n");
  const line = newline >= 0 ? body.slice(0, newline) : body;
  const segments = splitSentencesRaw(line, language);
  const whole = segments.length > 1 || newline >= 0 || (final && segments.length === 1);
  const first = segments[0];
  if (first === undefined || !whole) {
    // Models without punctuation: a run-on without an end is split once it is long.
    if (first !== undefined && countWords(first, language) > 30) {
      const clean = cleanProse(first);
      const head = splitLongSentence(clean, language)[0]!;
      return { kind: "sentence", text: finishSentence(head, language), length: lead + rawLengthOf(first, firstWords(first, countWords(head, language), language)) };
    }
    return undefined;
  }
  const clean = cleanProse(first);
  const length = lead + first.length;
  // A short line without an end is a stray heading or label.
  if (countWords(clean, language) < MIN_SENTENCE_WORDS || (!endsSentence(clean) && newline >= 0 && segments.length === 1 && countWords(clean, language) < 6)) {
    return { kind: "skip", length };
  }
  return { kind: "sentence", text: finishSentence(clean, language), length };
}

/** The sentence segments of a line, untrimmed at their ends except the last, so offsets add up. */
function splitSentencesRaw(line: string, language: string): string[] {
  const parts = splitSentences(line, language);
  const out: string[] = [];
  let at = 0;
  for (const part of parts) {
    const index = line.indexOf(part, at);
    out.push(line.slice(at, index + part.length));
    at = index + part.length;
  }
  return out;
}

/** Characters of `raw` up to the end of its first words `head`. */
function rawLengthOf(raw: string, head: string): number {
  const at = raw.indexOf(head);
  return at < 0 ? raw.length : at + head.length;
}

function firstWord(text: string, language: string): string {
  return firstWords(text, 1, language).toLocaleLowerCase(language).replace(/[^\p{L}\p{N}]+$/u, "");
}
