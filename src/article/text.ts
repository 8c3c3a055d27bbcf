import { eastAsianWidth } from "get-east-asian-width";

/**
 * Counting and matching text the way the whole engine counts it:
 * words are `Intl.Segmenter` word segments with `isWordLike`, in the article's language,
 * so CJK text counts sensibly. Plan, generate and analyse all use these helpers, so a
 * budget and a measurement can never disagree.
 */

const segmenters = new Map<string, Intl.Segmenter>();

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

/** The sentences segmented last: one sentence is read by several rules in a row (each keyword, its opening, its case). */
const recentSpans = new Map<string, readonly WordSpan[]>();
const RECENT_SPANS = 32;
/** Longer texts (a whole article read by the report) are segmented each time, never kept. */
const RECENT_CHARS = 2000;

/** The word-like segments of a text, with their offsets (shared between callers: never changed). */
export function wordSpans(text: string, language: string): readonly WordSpan[] {
  const key = `${language}\u0000${text}`;
  const cached = recentSpans.get(key);
  if (cached) return cached;
  const spans: WordSpan[] = [];
  for (const s of segmenter(language, "word").segment(text)) {
    if (s.isWordLike) spans.push(Object.freeze({ word: s.segment, index: s.index }));
  }
  if (text.length > RECENT_CHARS) return spans;
  recentSpans.set(key, Object.freeze(spans));
  if (recentSpans.size > RECENT_SPANS) recentSpans.delete(recentSpans.keys().next().value!);
  return spans;
}

/** Number of words in a text. */
export function countWords(text: string, language: string): number {
  let count = 0;
  for (const word of segmenter(language, "word").segment(text)) if (word.isWordLike) count++;
  return count;
}

/** Sentences of a text, trimmed, empty ones dropped. */
export function splitSentences(text: string, language: string): string[] {
  const out: string[] = [];
  for (const s of segmenter(language, "sentence").segment(text)) {
    const sentence = s.segment.trim();
    if (sentence) out.push(sentence);
  }
  return out;
}

/** Whether a sentence ends with a terminator of any script. */
export function endsSentence(text: string): boolean {
  return /[.!?。！？।؟…]["'”’»)\]]*$/u.test(text.trim());
}

const separator = (s: string) => s.replace(/\s+/gu, " ");

/**
 * Occurrences of a phrase in a text: exact, case-insensitive, on word boundaries.
 * Words must follow each other with the same separators as in the phrase
 * (so "seo tools" does not match "seo, tools").
 */
export function countPhrase(text: string, phrase: string, language: string): number {
  const want = wordSpans(phrase, language);
  if (want.length === 0) return 0;
  const wantWords = want.map((w) => w.word.toLocaleLowerCase(language));
  const wantSeps = want.slice(1).map((w, i) => separator(phrase.slice(want[i]!.index + want[i]!.word.length, w.index)));
  const have = wordSpans(text, language);
  let count = 0;
  for (let i = 0; i + want.length <= have.length; i++) {
    let match = true;
    for (let j = 0; j < want.length && match; j++) {
      const span = have[i + j]!;
      match = span.word.toLocaleLowerCase(language) === wantWords[j];
      if (match && j > 0) {
        const prev = have[i + j - 1]!;
        match = separator(text.slice(prev.index + prev.word.length, span.index)) === wantSeps[j - 1];
      }
    }
    if (match) {
      count++;
      i += want.length - 1;
    }
  }
  return count;
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

/**
 * A sentence as the uniqueness rule compares it: without case, punctuation or spacing
 * ("Once upon a time there was…" and "Once upon a time, there was…" are the same).
 */
export function normaliseSentence(text: string, language: string): string {
  return text.toLocaleLowerCase(language).replace(/[\p{P}\p{S}]+/gu, " ").replace(/\s+/gu, " ").trim();
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

/** Whether a sentence's first words are the phrase (case-insensitive, as {@link countPhrase} matches). */
export function opensWith(sentence: string, phrase: string, language: string): boolean {
  const words = wordSpans(phrase, language).length;
  return words > 0 && countPhrase(firstWords(sentence, words, language), phrase, language) > 0;
}
