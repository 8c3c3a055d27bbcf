import type { AvoidList } from "../plan/avoid.js";
import type { ArticleDocument } from "./document.js";
import type { Grounding } from "../grounding/grounding.js";
import { KeywordSchedule } from "./keyword-schedule.js";
import type { TokenLedger } from "../ledger.js";
import { PARAGRAPH_WORDS, RUN_BUDGET, sentenceWords } from "../plan/limits.js";
import { MIN_SENTENCE_WORDS } from "../text/sentences.js";
import type { Plan } from "../plan/plan.js";
import { SentenceGate, type Placement } from "./sentence-gate.js";
import { generateSentences, type Steered, type StepResult, type Verdict } from "./step.js";
import { capitalise, countWords, hasPhrase } from "../text/text.js";
import { sentenceSpan, type SentenceSpan } from "../plan/voice.js";

/** What every passage of one article shares. */
export interface PassageContext {
  plan: Plan;
  writer: TokenLedger;
  document: ArticleDocument;
  gate: SentenceGate;
  schedule: KeywordSchedule;
  avoid: AvoidList;
  grounding: Grounding;
  /** Whether headings become heading nodes (a run of prose between two is then capped). */
  visible: boolean;
  /** A fresh sampling seed for each generation call. */
  seed: () => number;
  /** Stops the work between two tokens. @default none */
  signal?: AbortSignal;
  /**
   * The running totals of body words and tokens, after every sentence.
   * @default none
   */
  onWords?: (words: number, tokens: number) => void;
  /** The words a paragraph sentence holds, from the house voice. @default the model's own lengths */
  span?: SentenceSpan;
  /** Tokens the model spends per word, as last measured: sizes each step's token allowance. */
  tokensPerWord: number;
  /**
   * Body words the article may still keep within its length promise, headings still to come
   * set aside: a sentence that does not fit ends the passage before it.
   */
  wordsLeft: () => number;
}

/** What one writing or mending session gives its passages; the gate and keyword schedule are made here. */
export type PassageSetup = Pick<
  PassageContext,
  "plan" | "writer" | "document" | "avoid" | "grounding" | "visible" | "seed" | "signal" | "onWords" | "wordsLeft"
>;

/** The one context every passage is written in, for the body pass, a refresh's mending and the tests alike. */
export function passageContext(setup: PassageSetup): PassageContext {
  const { plan, document, avoid, signal, onWords } = setup;
  const span = plan.spaced ? sentenceSpan(plan.style.profile, plan.request.language) : undefined;
  return {
    plan,
    writer: setup.writer,
    document,
    gate: new SentenceGate({ plan, document, avoid }),
    schedule: new KeywordSchedule({ primary: plan.primary, language: plan.request.language }),
    avoid,
    grounding: setup.grounding,
    visible: setup.visible,
    seed: setup.seed,
    ...(signal ? { signal } : {}),
    ...(onWords ? { onWords } : {}),
    ...(span ? { span } : {}),
    tokensPerWord: 2,
    wordsLeft: setup.wordsLeft,
  };
}

/** One passage of prose (or the items of a list): its budget and the keywords it owes. */
export interface Passage {
  budget: number;
  primaryUses: number;
  secondary: string[];
  /** List items instead of paragraph sentences (key takeaways), at most this many. */
  items?: number;
  /** The article's first passage: it opens with the primary keyword and is never left empty. */
  opening?: boolean;
  /** A passage that must hold a sentence (an FAQ answer): it tries as long as the opening does. */
  required?: boolean;
  /** The first passage of a section after the introduction. */
  sectionStart?: boolean;
  /** The planned section it belongs to (its links). */
  section: number;
  /** The article's last passage: it goes a little past its budget while a keyword is still owed. */
  final?: boolean;
  /** Most words it may hold, whatever is owed (an edited outline's budget and its tolerance). @default the overshoot rules alone */
  most?: number;
}

/** Paragraphs close at the first sentence end past this many words: three fifths of the limit, so a long last sentence stays within it. */
const PARAGRAPH_CLOSE = (PARAGRAPH_WORDS * 3) / 5;
/** A paragraph break the model writes is kept once the paragraph has this many words. */
const MODEL_BREAK_WORDS = 25;
/** Words each step of a passage still needing its first sentence has room for, within the article's most: a long sentence. */
const FIRST_SENTENCE_WORDS = 30;
/** How much further past its budget than short of it a passage may end. */
const OVERSHOOT = 1.5;
/**
 * Words past its budget a passage may always end, as a share of the article's length, at most
 * OVERSHOOT_WORDS: a sentence the model has written is kept rather than cut (the next sections'
 * budgets take the words back, and the last passage stays within the ±10 % the article promises).
 */
const OVERSHOOT_SHARE = 0.04;
const OVERSHOOT_WORDS = 12;
/** Steps in a row that add no sentence before a passage gives up (the report then shows the shortfall). */
const IDLE_STEPS = 6;
/** Steps the introduction may take to get its first sentence: an article never opens on a heading. */
const OPENING_STEPS = 30;
/** The opening sentence must say something: stock phrases ("X was happy.") repeat across articles. */
const OPENING_WORDS = 6;
/** Words the article's last passage may write past its budget to place a keyword still owed. */
const OWED_WORDS = 20;
/**
 * Words an owed keyword waits for a slot word of the model's own before a sentence that reached its
 * most lead words without one takes a slot word the model chooses (step.ts `bridge`): an English
 * model writes one within a sentence or two, a model writing another language than asked never.
 */
const BRIDGE_WORDS = 60;

/**
 * Prose of about `budget` words, sentence by sentence, from one continuing generation.
 * Ends when the budget is met, or when the model keeps failing to add a sentence; returns
 * the words written. Only the introduction's first sentence is opened with the primary
 * keyword (prefilled); every other owed keyword is steered into the middle of a sentence.
 */
export async function writePassage(ctx: PassageContext, passage: Passage): Promise<number> {
  const { plan, writer, schedule } = ctx;
  // A run of prose between visible headings is capped, but for an edited outline's budget (`most`):
  // the user's long section is written whole, and the report's subheading distribution says so.
  const budget = ctx.visible && passage.most === undefined ? Math.min(RUN_BUDGET, passage.budget) : passage.budget;
  const prose = passage.items === undefined;
  if (prose) schedule.open({ primaryUses: passage.primaryUses, secondary: passage.secondary, budget });
  const state = { words: 0, sentences: 0, newParagraph: true };
  // Nothing after it could place what is owed: the last passage writes on a little for it.
  const owing = () => passage.final === true && prose && schedule.owing && state.words < budget + OWED_WORDS;
  let idle = 0;
  const needsOne = () => (passage.opening === true || passage.required === true) && state.sentences === 0;
  while (idle < (needsOne() ? OPENING_STEPS : IDLE_STEPS)) {
    if (prose ? state.words >= budget - 2 && !owing() : state.sentences >= passage.items!) break;
    // The opening is prefilled until the model has failed it a few times; then the keyword is steered into
    // the first sentence the model writes, and only after as many failures again will any first sentence do.
    const opening = passage.opening === true && needsOne() && idle < IDLE_STEPS;
    const keyworded = passage.opening === true && needsOne() && idle < 3 * IDLE_STEPS;
    const mark = writer.text.length;
    if (opening) prefillOpening(ctx, mark);
    // A short budget must not keep a needed sentence from ending: the step has room for a long one.
    // A step for a keyword still owed past the budget has room for a whole sentence: one of a few tokens cannot hold the
    // lead words, the keyword and the sentence's end (the sentence kept is still bounded by the passage's words past its budget).
    const room = owing() ? Math.max(OWED_WORDS, budget + OWED_WORDS - state.words) : budget - state.words;
    const left = !prose ? 40 : needsOne() ? Math.max(budget, Math.min(FIRST_SENTENCE_WORDS, ctx.wordsLeft())) : room;
    const result = await generateSentences({
      writer,
      language: plan.request.language,
      spaced: plan.spaced,
      avoid: ctx.avoid,
      mark,
      maxTokens: Math.max(24, Math.ceil(left * ctx.tokensPerWord * 1.3) + 16),
      seed: ctx.seed,
      signal: ctx.signal,
      notOpening: () => ctx.gate.repeatedOpening(),
      ...(prose
        ? {
            steer: () => schedule.due(state.words) ?? owedAnchor(ctx, passage, state.sentences),
            // The introduction's first sentence, and the last passage's words past its budget, cannot wait for a slot word.
            bridge: () => keyworded || (owing() && state.words >= budget - 2) || schedule.waited(state.words) >= BRIDGE_WORDS,
            ...(opening ? { opened: plan.primary } : {}),
            sentence: () => sentenceSpanNow(ctx, owing()),
          }
        : {}),
      take: (sentence, breakBefore) => take(ctx, { passage, budget, state, opening, keyworded, sentence, breakBefore, owing }),
    });
    if (result.tokens > 0 && result.words > 0) ctx.tokensPerWord = Math.min(6, Math.max(1, result.tokens / result.words));
    idle = result.accepted > 0 ? 0 : idle + 1;
    if (result.outcome === "full") break;
    if (startsBlock(writer, result, idle)) state.newParagraph = true;
  }
  if (prose) schedule.close(state.words);
  return state.words;
}

/**
 * The words the pending sentence may hold: the house voice's span, and for a keyword still owed where the
 * article has fewer words left than a sentence may take, at most those words: the sentence that holds
 * the keyword ends in time (the model picks its terminator) rather than run past the article's length and be dropped.
 */
function sentenceSpanNow(ctx: PassageContext, owing: boolean): SentenceSpan | undefined {
  const room = ctx.wordsLeft();
  const most = ctx.span?.most ?? sentenceWords(ctx.plan.request.language);
  // Fewer words than a sentence's shortest: nothing more fits, and the passage's take stops it.
  if (!owing || !ctx.plan.spaced || room >= most || room < MIN_SENTENCE_WORDS) return ctx.span;
  const least = Math.min(ctx.span?.least ?? MIN_SENTENCE_WORDS, room);
  return { least, most: Math.max(least, room) };
}

/** Open the next paragraph or list item the step asked for; true when a paragraph was opened. */
function startsBlock(writer: TokenLedger, result: StepResult, idle: number): boolean {
  if (result.outcome === "item") writer.append("\n- ");
  // A model that keeps ending its answer gets a new paragraph to continue in.
  const paragraph = result.outcome === "paragraph" || (result.outcome === "ended" && idle >= 2);
  if (paragraph) writer.append("\n\n");
  return paragraph;
}

/**
 * The anchor phrases of a link the section owes, of which the model writes one, once the
 * paragraph may take one: never in the article's first sentence, one a paragraph.
 */
function owedAnchor(ctx: PassageContext, passage: Passage, sentences: number): Steered | undefined {
  if ((passage.opening && sentences === 0) || ctx.document.paragraphLinked) return undefined;
  const anchors = ctx.grounding.owedAnchors(passage.section);
  return anchors && { choose: anchors };
}

/** The introduction's first words: the primary keyword (the step's first token keeps it a word of its own). */
function prefillOpening(ctx: PassageContext, mark: number): void {
  const { writer, plan } = ctx;
  const atStart = /(^|\n)(- )?$/.test(writer.text.slice(Math.max(0, mark - 3)));
  writer.append(`${atStart ? "" : " "}${capitalise(plan.primary, plan.request.language)}`);
}

/** Judge one whole sentence of the passage, and keep it in the document when it passes. */
function take(
  ctx: PassageContext,
  s: {
    passage: Passage;
    budget: number;
    state: { words: number; sentences: number; newParagraph: boolean };
    opening: boolean;
    /** The article's first sentence must hold the primary keyword. */
    keyworded: boolean;
    sentence: string;
    breakBefore: boolean;
    /** Whether the passage goes past its budget for an owed keyword. */
    owing: () => boolean;
  },
): Verdict {
  const { plan, document, gate, schedule, writer } = ctx;
  const { passage, budget, state, sentence } = s;
  const language = plan.request.language;
  const n = countWords(sentence, language);
  const items = passage.items;
  const allowance = Math.max(
    OVERSHOOT * (budget - state.words),
    Math.min(OVERSHOOT_WORDS, Math.floor(OVERSHOOT_SHARE * plan.request.length)),
  );
  if (items === undefined && state.words > 0 && !s.owing() && state.words + n - budget > allowance) return "stop";
  if (passage.most !== undefined && state.words + n > passage.most) return "stop";
  if (n > ctx.wordsLeft()) return "stop";
  const first = state.sentences === 0;
  const answer = !ctx.visible && plan.sections[passage.section]?.kind === "faq";
  const placement: Placement = {
    articleStart: passage.opening === true && first,
    sectionStart: passage.sectionStart === true && first,
    answer,
  };
  const refusal = gate.refuse(sentence, placement);
  if (refusal) return refusal;
  if (s.keyworded && first && ((s.opening && n < OPENING_WORDS) || !hasPhrase(sentence, plan.primary, language))) return "weak-opening";
  if (items !== undefined) document.addListItem(sentence);
  else {
    const newParagraph = state.newParagraph || (s.breakBefore && document.paragraphWords >= MODEL_BREAK_WORDS);
    const mayLink = !placement.articleStart && (newParagraph || !document.paragraphLinked);
    const link = mayLink ? ctx.grounding.place(passage.section, sentence) : undefined;
    const citation = ctx.grounding.cite(sentence);
    document.addSentence(sentence, newParagraph, { ...(link ? { link } : {}), ...(citation ? { citation } : {}) });
  }
  gate.keep(sentence, placement);
  if (items === undefined) schedule.record(sentence);
  state.newParagraph = false;
  state.words += n;
  state.sentences++;
  ctx.onWords?.(document.wordCount, writer.usage.promptTokens + writer.usage.completionTokens);
  if (items !== undefined) return state.sentences >= items ? "full" : "item";
  if (state.words >= budget - 2 && !s.owing()) return "full";
  return document.paragraphWords >= PARAGRAPH_CLOSE ? "paragraph" : "more";
}
