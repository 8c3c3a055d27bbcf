/**
 * Keywords matched as editors match them: "compost bins" is a use of "compost bin", as Yoast
 * counts one, and "How to Season a Cast Iron Skillet" holds "season cast iron skillet". Each
 * word compares by its stem (stem.ts, the stemmer relevance uses), in every language the
 * stemmer covers; function words (function-words.ts) may stand between the keyword's other
 * words, at most {@link GAP} in a row, and the keyword's own function words may be left out.
 * Words the text writes next to each other keep the keyword's separator ("seo, tools" is no
 * use of "seo tools"); a gap of function words is spaces only. Languages without a stemmer
 * match words as written ({@link countPhrase}).
 */
import { isFunctionWord } from "./function-words.js";
import { stem, stems } from "./stem.js";
import { countPhrase, wordSpans } from "./text.js";

/** Most function words that may stand between two of a keyword's words. */
const GAP = 2;

const separator = (s: string) => s.replace(/\s+/gu, " ");

/** A text's words as compared, whether each is a function word, and the separators between them. */
interface Forms {
  words: string[];
  function: boolean[];
  separators: string[];
}

function formsOf(text: string, language: string): Forms {
  const spans = wordSpans(text, language);
  const lower = spans.map((span) => span.word.toLocaleLowerCase(language));
  return {
    words: lower.map((word) => stem(word, language)),
    function: lower.map((word) => isFunctionWord(word, language)),
    separators: spans.slice(1).map((span, i) => separator(text.slice(spans[i]!.index + spans[i]!.word.length, span.index))),
  };
}

/** The keyword's words a text must hold, and the separator that joins each to the one before when the text writes them side by side. */
function wanted(phrase: Forms): { words: string[]; joins: string[] } {
  const keep = phrase.words.map((_, i) => i).filter((i) => !phrase.function[i]);
  // A keyword of function words alone is matched word for word.
  const indices = keep.length ? keep : phrase.words.map((_, i) => i);
  return {
    words: indices.map((i) => phrase.words[i]!),
    joins: indices.map((i, k) => (k > 0 && indices[k - 1] === i - 1 ? phrase.separators[i - 1]! : " ")),
  };
}

/** The end (exclusive word index) of a match of `want` from the text's `i`-th word on, or -1. */
function matchAt(have: Forms, want: { words: string[]; joins: string[] }, i: number): number {
  if (have.words[i] !== want.words[0]) return -1;
  let at = i;
  for (let k = 1; k < want.words.length; k++) {
    let next = at + 1;
    while (next - at - 1 < GAP && next < have.words.length && have.function[next] && have.words[next] !== want.words[k]) next++;
    if (have.words[next] !== want.words[k]) return -1;
    const between = have.separators.slice(at, next);
    const ok = next === at + 1 ? between[0] === want.joins[k] : between.every((s) => s === " ");
    if (!ok) return -1;
    at = next;
  }
  return at + 1;
}

/**
 * Occurrences of a phrase in a text as editors count them (see the module's note):
 * case-insensitive, on word boundaries; exact words ({@link countPhrase}) in a language without a stemmer.
 */
export function countForms(text: string, phrase: string, language: string): number {
  if (!stems(language)) return countPhrase(text, phrase, language);
  const want = wanted(formsOf(phrase, language));
  if (want.words.length === 0) return 0;
  const have = formsOf(text, language);
  let count = 0;
  for (let i = 0; i + want.words.length <= have.words.length; i++) {
    const end = matchAt(have, want, i);
    if (end < 0) continue;
    count++;
    i = end - 1;
  }
  return count;
}

/** How keywords are matched in a language, for a check's message. */
export function formsNote(language: string): string {
  if (!stems(language)) return `matched as written: no stemmer for “${language}”`;
  return "word forms counted, function words between the keyword's words ignored";
}
