/**
 * Keywords matched through their word forms: "compost bins" is a use of "compost bin", as
 * Yoast counts one. Each word compares by its stem (stem.ts, the stemmer relevance uses), in
 * every language the stemmer covers; other languages match words as written. Words follow
 * each other as in the phrase, with the same separators (as {@link countPhrase} requires).
 */
import { stem, stems } from "./stem.js";
import { countPhrase, wordSpans } from "./text.js";

const separator = (s: string) => s.replace(/\s+/gu, " ");

/** A text's words as compared, and the separators between them. */
function formsOf(text: string, language: string): { words: string[]; separators: string[] } {
  const spans = wordSpans(text, language);
  return {
    words: spans.map((span) => stem(span.word.toLocaleLowerCase(language), language)),
    separators: spans.slice(1).map((span, i) => separator(text.slice(spans[i]!.index + spans[i]!.word.length, span.index))),
  };
}

/**
 * Occurrences of a phrase in a text, any word form of each of its words (case-insensitive, on
 * word boundaries); exact words ({@link countPhrase}) in a language without a stemmer.
 */
export function countForms(text: string, phrase: string, language: string): number {
  if (!stems(language)) return countPhrase(text, phrase, language);
  const want = formsOf(phrase, language);
  const n = want.words.length;
  if (n === 0) return 0;
  const have = formsOf(text, language);
  let count = 0;
  for (let i = 0; i + n <= have.words.length; i++) {
    let match = true;
    for (let j = 0; j < n && match; j++)
      match = have.words[i + j] === want.words[j] && (j === 0 || have.separators[i + j - 1] === want.separators[j - 1]);
    if (!match) continue;
    count++;
    i += n - 1;
  }
  return count;
}

/** How keywords are matched in a language, for a check's message. */
export function formsNote(language: string): string {
  return stems(language) ? "word forms counted" : `matched as written: no stemmer for “${language}”`;
}
