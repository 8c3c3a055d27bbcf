import { eastAsianWidth } from "get-east-asian-width";
import { LRUCache } from "lru-cache";
import { classOf, SEGMENTED_TERMINATORS, TERMINATORS, TRAILING, UNSPACED_TERMINATORS } from "./scripts.js";

/**
 * Counting and matching text the way the whole engine counts it:
 * words are `Intl.Segmenter` word segments with `isWordLike`, in the article's language,
 * so CJK text counts sensibly. Plan, generate and analyse all use these helpers, so a
 * budget and a measurement can never disagree.
 */

/** One segmenter per language and granularity, built once. */
const segmenters = new LRUCache<string, Intl.Segmenter>({ max: 64 });

function segmenter(language: string, granularity: "word" | "sentence"): Intl.Segmenter {
  const key = `${language}:${granularity}`;
  let found = segmenters.get(key);
  if (!found) {
    found = new Intl.Segmenter(language, { granularity });
    segmenters.set(key, found);
  }
  return found;
}

/** One word of a text with where it stands. */
export interface WordSpan {
  word: string;
  index: number;
}

/** A text's words, and their lower-case forms once a phrase is matched against them. */
class Reading {
  private lowered: readonly string[] | undefined;

  constructor(
    readonly spans: readonly WordSpan[],
    private readonly language: string,
  ) {}

  /** Each word lower-cased on its own, as a phrase's words are. */
  get lower(): readonly string[] {
    return (this.lowered ??= this.spans.map((s) => s.word.toLocaleLowerCase(this.language)));
  }
}

/**
 * A few values per language, keyed by text (no key is built per look-up): the engine's one
 * bounded cache, lru-cache's, whose least recently used entry goes once it is full.
 */
class Recent<V extends {}> {
  private readonly byLanguage = new Map<string, LRUCache<string, V>>();

  constructor(private readonly max: number) {}

  get(language: string, text: string): V | undefined {
    return this.byLanguage.get(language)?.get(text);
  }

  set(language: string, text: string, value: V): void {
    let values = this.byLanguage.get(language);
    if (!values) this.byLanguage.set(language, (values = new LRUCache({ max: this.max })));
    values.set(text, value);
  }
}

/**
 * The sentences read last: one sentence is read by several rules in a row (its length, each
 * keyword, its opening, its case), and by the document and the step after the gate, so it is
 * segmented (and lower-cased) once.
 */
const recent = new Recent<Reading>(512);
/** Longer texts (a whole article read by the report) are segmented each time, never kept. */
const RECENT_CHARS = 2000;

function read(text: string, language: string): Reading {
  const cached = recent.get(language, text);
  if (cached) return cached;
  const spans: WordSpan[] = [];
  for (const [offset, part] of parts(text)) {
    for (const s of segmenter(language, "word").segment(part)) {
      if (s.isWordLike) spans.push(Object.freeze({ word: s.segment, index: offset + s.index }));
    }
  }
  if (text.length > RECENT_CHARS) return new Reading(spans, language);
  const reading = new Reading(Object.freeze(spans), language);
  recent.set(language, text, reading);
  return reading;
}

/** The word-like segments of a text, with their offsets (shared between callers: never changed). */
export function wordSpans(text: string, language: string): readonly WordSpan[] {
  return read(text, language).spans;
}

/** Number of words in a text. */
export function countWords(text: string, language: string): number {
  // A sentence is counted by several readers in a row: its segmentation is kept for them.
  if (text.length <= RECENT_CHARS) return read(text, language).spans.length;
  let count = 0;
  for (const [, part] of parts(text)) for (const word of segmenter(language, "word").segment(part)) if (word.isWordLike) count++;
  return count;
}

/**
 * A character that never ends a sentence, in any language: a sentence ends only after a
 * terminator or a paragraph separator, and this allows no punctuation but commas, quotes,
 * brackets and dashes (";" ends a Greek question).
 */
const WITHIN = String.raw`(?:[^\p{P}\n\r\u0085\u2028\u2029]|[,'"\u2018\u2019\u201c\u201d()\-\u2013\u2014])`;
/** A run of terminators the segmenter breaks after. */
const BREAK = `[${classOf(SEGMENTED_TERMINATORS)}]+`;
/** The closing run of terminators (and quotes or a bracket after them) a sentence may end with. */
const CLOSING = `(?:${BREAK}[${classOf(TRAILING)}]*[ \\t]*)?`;
/** A text that is one sentence whatever the language. */
const ONE_SENTENCE = new RegExp(`^${WITHIN}*${CLOSING}$`, "u");
/**
 * Two such sentences, the second opening with a capital after a space: every language breaks
 * after the first one's terminator and its spaces. The pass meets most sentences so: whole once
 * the next one begins.
 */
const TWO_SENTENCES = new RegExp(`^(${WITHIN}*${BREAK} +)(\\p{Lu}${WITHIN}*${CLOSING})$`, "u");
/** Characters Intl.Segmenter is given at once: its time grows with the square of the text's length. */
const SEGMENT_CHARS = 1000;
/** Where a long text is cut before segmenting: after a terminator and its spaces (or one that needs none). */
const CHUNK_END = new RegExp(`[${classOf(SEGMENTED_TERMINATORS)}][${classOf(TRAILING)}]*\\s+|[${classOf(UNSPACED_TERMINATORS)}]`, "gu");

/**
 * Sentences of a text, trimmed, empty ones dropped: the one sentence reader. A text longer
 * than {@link SEGMENT_CHARS} is segmented in parts of about that size, each cut after a
 * sentence terminator and its spaces (a boundary the segmenter would also find) or, with
 * none in reach, at a space.
 */
export function splitSentences(text: string, language: string): string[] {
  if (text.length <= SEGMENT_CHARS) return segmentSentences(text, language);
  const out: string[] = [];
  for (const [, part] of parts(text)) for (const sentence of segmentSentences(part, language)) out.push(sentence);
  return out;
}

/**
 * A text in parts of at most about {@link SEGMENT_CHARS} characters, each with its offset:
 * Intl.Segmenter's time grows with the square of what it is given, so a long text is given
 * to it part by part. A part ends after a sentence terminator and its spaces (a boundary
 * of words and sentences alike), else after a space, else (a run with neither) at the size,
 * never inside a surrogate pair.
 */
function* parts(text: string): Generator<[number, string]> {
  let from = 0;
  while (text.length - from > SEGMENT_CHARS) {
    const head = text.slice(from, from + SEGMENT_CHARS);
    const last = [...head.matchAll(CHUNK_END)].at(-1);
    let cut = last ? last.index + last[0].length : head.lastIndexOf(" ") + 1 || SEGMENT_CHARS;
    const lastUnit = head.charCodeAt(cut - 1);
    if (lastUnit >= 0xd800 && lastUnit <= 0xdbff) cut--;
    yield [from, head.slice(0, cut)];
    from += cut;
  }
  yield [from, text.slice(from)];
}

function segmentSentences(text: string, language: string): string[] {
  // The pass reads the sentence being written again and again: segmenting what is sure is waste.
  if (ONE_SENTENCE.test(text)) {
    const sentence = text.trim();
    return sentence ? [sentence] : [];
  }
  const two = TWO_SENTENCES.exec(text);
  if (two) return [two[1]!.trim(), two[2]!.trim()];
  const out: string[] = [];
  for (const s of segmenter(language, "sentence").segment(text)) {
    const sentence = s.segment.trim();
    if (sentence) out.push(sentence);
  }
  return out;
}

/** A sentence's end: a terminator of any script, then closing quotes or brackets. */
const SENTENCE_END = new RegExp(`[${classOf(TERMINATORS)}][${classOf(TRAILING)}]*$`, "u");

/** Whether a sentence ends with a terminator of any script. */
export function endsSentence(text: string): boolean {
  return SENTENCE_END.test(text.trim());
}

const separator = (s: string) => s.replace(/\s+/gu, " ");

/** A phrase as {@link countPhrase} matches it: its words lower-cased, and the separators between them. */
interface PhraseWords {
  words: readonly string[];
  separators: readonly string[];
}

/** The phrases matched lately (the article's keywords, anchors, banned phrases), each read once. */
const phrases = new Recent<PhraseWords>(64);

function phraseWords(phrase: string, language: string): PhraseWords {
  let found = phrases.get(language, phrase);
  if (found) return found;
  const want = wordSpans(phrase, language);
  found = {
    words: want.map((w) => w.word.toLocaleLowerCase(language)),
    separators: want.slice(1).map((w, i) => separator(phrase.slice(want[i]!.index + want[i]!.word.length, w.index))),
  };
  phrases.set(language, phrase, found);
  return found;
}

/**
 * Occurrences of a phrase in a text: exact, case-insensitive, on word boundaries.
 * Words must follow each other with the same separators as in the phrase
 * (so "seo tools" does not match "seo, tools").
 */
export function countPhrase(text: string, phrase: string, language: string): number {
  const want = phraseWords(phrase, language);
  if (want.words.length === 0) return 0;
  const have = read(text, language);
  let count = 0;
  for (let i = 0; i + want.words.length <= have.spans.length; i++) {
    if (!matchesAt(text, have, want, i)) continue;
    count++;
    i += want.words.length - 1;
  }
  return count;
}

/** Whether the phrase's words, with its separators, stand in `text` from its `i`-th word on. */
function matchesAt(text: string, have: Reading, want: PhraseWords, i: number): boolean {
  const { spans, lower } = have;
  for (let j = 0; j < want.words.length; j++) {
    if (lower[i + j] !== want.words[j]) return false;
    if (j === 0) continue;
    const prev = spans[i + j - 1]!;
    if (separator(text.slice(prev.index + prev.word.length, spans[i + j]!.index)) !== want.separators[j - 1]) return false;
  }
  return true;
}

/** Whether a text holds a phrase (see {@link countPhrase}). */
export function hasPhrase(text: string, phrase: string, language: string): boolean {
  return countPhrase(text, phrase, language) > 0;
}

/** The first `n` words of a text, cut on a word end, punctuation after the last word dropped. */
export function firstWords(text: string, n: number, language: string): string {
  const spans = wordSpans(text, language);
  if (spans.length <= n) return text.trim();
  const last = spans[n - 1]!;
  return text.slice(0, last.index + last.word.length).trim();
}

/** Cut a text to at most `max` characters on a word end (never mid-word). */
export function cutAtWord(text: string, max: number, language: string): string {
  if (text.length <= max) return text;
  let cut = "";
  for (const w of wordSpans(text, language)) {
    const end = w.index + w.word.length;
    if (end > max) break;
    cut = text.slice(0, end);
  }
  return cut.replace(/[\s,;:–—-]+$/u, "");
}

/** Upper-case the first letter, leaving the rest as written. */
export function capitalise(text: string, language: string): string {
  const first = text.codePointAt(0);
  if (first === undefined) return text;
  const head = String.fromCodePoint(first);
  return head.toLocaleUpperCase(language) + text.slice(head.length);
}

/**
 * Lower-case the first letter of a phrase used mid-sentence ("Garden tips" → "garden tips"),
 * but keep acronyms ("SEO tools") and German nouns as written.
 */
export function lowerFirst(text: string, language: string): string {
  if (language === "de" || !/^\p{Lu}\p{Ll}/u.test(text)) return text;
  const head = String.fromCodePoint(text.codePointAt(0)!);
  return head.toLocaleLowerCase(language) + text.slice(head.length);
}

/** The sentences normalised last: the gate asks twice for each one (to refuse it, then to keep it). */
const normalised = new Recent<string>(8);

/**
 * A sentence as the uniqueness rule compares it: without case, punctuation or spacing
 * ("Once upon a time there was…" and "Once upon a time, there was…" are the same).
 */
export function normaliseSentence(text: string, language: string): string {
  let value = normalised.get(language, text);
  if (value === undefined)
    normalised.set(
      language,
      text,
      (value = text
        .toLocaleLowerCase(language)
        .replace(/[\p{P}\p{S}\s]+/gu, " ")
        .trim()),
    );
  return value;
}

/**
 * Columns a text takes on screen, as search results lay out titles and descriptions: a
 * wide character (Chinese, Japanese, Korean, full-width forms) counts as two.
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const c of text) width += eastAsianWidth(c.codePointAt(0)!);
  return width;
}

/**
 * Scripts whose word breaks follow rules that look no further than the next word: the words
 * of a text's first n words alone are its first n words. (Thai, Chinese or Japanese are broken
 * by a dictionary over the whole run of letters: their first words alone may break otherwise.)
 */
const RULE_BROKEN = /^[\p{scx=Latn}\p{scx=Grek}\p{scx=Cyrl}\p{scx=Zyyy}\p{scx=Zinh}]*$/u;

/** Whether a sentence's first words are the phrase (case-insensitive, as {@link countPhrase} matches). */
export function opensWith(sentence: string, phrase: string, language: string): boolean {
  const want = phraseWords(phrase, language);
  if (want.words.length === 0) return false;
  // The first words read alone; where they read as in the sentence, the sentence's own reading serves.
  if (!RULE_BROKEN.test(sentence)) return countPhrase(firstWords(sentence, want.words.length, language), phrase, language) > 0;
  const have = read(sentence, language);
  return have.spans.length >= want.words.length && matchesAt(sentence, have, want, 0);
}
