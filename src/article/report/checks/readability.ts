/**
 * Readability checks, with Yoast SEO's published thresholds: sentence and paragraph
 * length, varied openings and no repeats for every language; transition words and the
 * passive voice for English only (the lists are English), not applicable elsewhere.
 */
import { LONG_SENTENCE_SHARE, PARAGRAPH_WORDS, sentenceWords } from "../../plan/limits.js";
import { differsAt } from "../../text/repeats.js";
import { countWords, wordSpans } from "../../text/text.js";
import { hasTransition, isPassive } from "./english.js";
import type { CheckId } from "../../../contract/checks.js";
import { type Measure, na, percent, plural, quote, round, verdict } from "./article.js";

/** Yoast checks transition words only in a text of at least 200 words. */
const TRANSITION_MIN_WORDS = 200;

/** The readability checks by id. */
export const readabilityChecks = {
  "paragraph-length": (article) => {
    const longest = Math.max(0, ...article.prose.map((paragraph) => paragraph.words));
    return verdict(longest <= PARAGRAPH_WORDS, `The longest paragraph has ${plural(longest, "word")} (target at most ${PARAGRAPH_WORDS}).`);
  },

  // Yoast: at most 25% of sentences over 20 words (25 for Spanish, Italian and Portuguese, 15 for Russian, Hebrew and Turkish).
  "sentence-length": (article) => {
    const limit = sentenceWords(article.input.language);
    const long = article.sentences.filter((sentence) => countWords(sentence, article.input.language) > limit).length;
    const share = percent(long, article.sentences.length);
    return verdict(
      share <= LONG_SENTENCE_SHARE,
      `${round(share, 1)}% of sentences (${long} of ${article.sentences.length}) have more than ${limit} words (target at most ${LONG_SENTENCE_SHARE}%).`,
    );
  },

  "consecutive-sentence-starts": (article) => {
    const { word, run } = longestSameStart(article.sentences, article.input.language);
    return verdict(
      run < 3,
      `The longest run of sentences starting with the same word is ${run}${word && ` (“${word}”)`} (target fewer than 3).`,
    );
  },

  "duplicate-sentences": (article) => {
    const { language } = article.input;
    const { echoes } = article.repetition;
    const first = echoes[0];
    if (first === undefined) return verdict(true, `No sentence appears twice (${plural(article.sentences.length, "sentence")} checked).`);
    const nearly = echoes.filter((echo) => echo.how === "nearly").length;
    // A near repeat is quoted up to its change, and so is the sentence it repeats.
    const words = first.how === "nearly" ? Math.max(8, differsAt(first.sentence, first.of!, language) + 3) : 8;
    return verdict(
      false,
      `Found ${plural(echoes.length, "sentence")} repeating an earlier one` +
        `${nearly ? `, ${nearly} of them with a word or two changed` : ""} (first: ${quote(first.sentence, language, words)}` +
        `${first.how === "nearly" ? `, nearly ${quote(first.of!, language, words)}` : ""}).`,
    );
  },

  // Yoast: at least 30% of sentences hold a transition word, in texts of 200 words or more.
  "transition-words": (article) => {
    if (article.input.language !== "en") return na("Transition words are checked in English articles only.");
    if (article.wordCount < TRANSITION_MIN_WORDS) return na(`Transition words are checked from ${TRANSITION_MIN_WORDS} words on.`);
    const linked = article.sentences.filter(hasTransition).length;
    const share = percent(linked, article.sentences.length);
    return verdict(
      share >= 30,
      `${round(share, 1)}% of sentences (${linked} of ${article.sentences.length}) hold a transition word (target at least 30%).`,
    );
  },

  // Yoast: at most 10% of sentences in the passive voice.
  "passive-voice": (article) => {
    if (article.input.language !== "en") return na("The passive voice is checked in English articles only.");
    const passive = article.sentences.filter(isPassive);
    const share = percent(passive.length, article.sentences.length);
    return verdict(
      share <= 10,
      `${round(share, 1)}% of sentences (${passive.length} of ${article.sentences.length}) are in the passive voice (target at most 10%` +
        `${passive[0] === undefined ? "" : `; first: ${quote(passive[0], "en")}`}).`,
    );
  },
} satisfies Partial<Record<CheckId, Measure>>;

/** The longest run of consecutive sentences whose first words match, lower-cased. */
function longestSameStart(sentences: readonly string[], language: string): { word: string; run: number } {
  let best = { word: "", run: 0 };
  let current = { word: "", run: 0 };
  for (const sentence of sentences) {
    const word = wordSpans(sentence, language)[0]?.word.toLocaleLowerCase(language);
    // A sentence without words (a lone symbol) starts nothing, so it breaks the run.
    current = word === undefined ? { word: "", run: 0 } : { word, run: word === current.word ? current.run + 1 : 1 };
    if (current.run > best.run) best = current;
  }
  return best;
}
