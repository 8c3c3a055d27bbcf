/**
 * The limits the SEO report measures an article against (Yoast SEO's published
 * thresholds), held once: the plan and the body pass steer below them, and the report's
 * checks measure them, from these same constants.
 */

/** How far, in percent, an article's body may land from the requested length, either way. */
export const LENGTH_TOLERANCE = 10;

/** Most body words an article of `length` may have: the engine never keeps a sentence past it. */
export function mostWords(length: number): number {
  return Math.floor((length * (100 + LENGTH_TOLERANCE)) / 100);
}

/** How far, in percent, a section of an edited outline may land from its word budget, either way. */
export const SECTION_TOLERANCE = 25;

/** Fewest prose words the playground's outline editor leaves each half of a heading it splits: a sentence or two. */
export const SECTION_MIN_WORDS = 20;

/** Most words in one paragraph. */
export const PARAGRAPH_WORDS = 150;

/** Most words of text without a subheading between them. */
export const RUN_WORDS = 300;

/** Most words of prose between two visible headings the engine plans: the limit less room for a last sentence that ends past the budget. */
export const RUN_BUDGET = RUN_WORDS - 30;

/**
 * How many keyword openings read as stuffing (the sentence gate refuses past them, the report's
 * keyword-openings check measures them): at most `sentences` percent of the sentences that hold a
 * keyword open with one (the introduction's first apart, which may), and at most one section in
 * `sectionsPer` (the introduction apart) opens its prose with one.
 */
export const KEYWORD_OPENINGS = { sentences: 40, sectionsPer: 3 } as const;

/** The band the primary keyword's density must fall in, in percent of the body's words. */
export const KEYWORD_DENSITY = { min: 0.5, max: 2.5 } as const;

/** Most sentences, in percent, that may be longer than {@link sentenceWords}. */
export const LONG_SENTENCE_SHARE = 25;

/** The longest recommended sentence, in words, where a language differs from {@link SENTENCE_WORDS}. */
const SENTENCE_WORDS_BY_LANGUAGE: Readonly<Record<string, number>> = { es: 25, it: 25, pt: 25, ru: 15, he: 15, tr: 15 };

/** The longest recommended sentence, in words, in most languages. */
const SENTENCE_WORDS = 20;

/** The longest recommended sentence in a language, in words. */
export function sentenceWords(language: string): number {
  return SENTENCE_WORDS_BY_LANGUAGE[language] ?? SENTENCE_WORDS;
}

/**
 * What makes a loop (the sentence gate refuses a repeating sentence, the report's no-loops and
 * duplicate-sentences checks measure them). A sentence repeats an earlier one when it says it
 * again whole (without case or punctuation) or nearly: the same words with at most
 * `near.changes` of them replaced, added or dropped, and at most `near.share` percent of the
 * shorter one's words (rounded down), when the shorter holds `near.words` words or more; so a
 * sentence of 6 to 9 words may change one word, one of 10 or more two. A label (`label` words or
 * fewer, or ending in a colon) is no sentence to repeat, and a list's items or a reference
 * entry's sentences repeat only their own list's or entry's. For a loop, runs of `n` words
 * count too: a sentence of at least `words` words repeats when `sentenceShare` of its runs were
 * said before. An article loops when `run` sentences in a row each repeat one of the `window`
 * sentences before it, one sentence is said `said` times or more (whole or nearly), over
 * `repeatedSentences` percent of its sentences repeat, or over `repeatedGrams` percent of its
 * runs of words are said again. Calibrated on the READMEs of node_modules and planted loops in
 * docs/guarantees.md (`npx tsx scripts/loops-calibrate.ts`).
 */
export const LOOPS = {
  n: 3,
  words: 5,
  sentenceShare: 0.6,
  window: 8,
  run: 6,
  said: 4,
  repeatedSentences: 35,
  repeatedGrams: 40,
  label: 3,
  near: { words: 6, share: 20, changes: 2 },
} as const;

/**
 * When an article is on its topic (the report's on-topic check, by meaning): its own words
 * (keyword phrases and the words code steered in taken out) come at least `whole` standard
 * deviations closer to the subject's words than to unrelated subjects' (text/meaning.ts), and the
 * parts (the introduction, each section) that come at least `z` closer hold at least `share`
 * percent of the measured words. A part with fewer than `least` words that have a vector is too short to judge
 * alone: such parts are judged together. A source's salient words are its `salient` most frequent
 * content words said at least twice. Calibrated in docs/guarantees.md (`npx tsx scripts/calibrate-topic.ts`).
 */
export const ON_TOPIC = { whole: 2.9, z: 0.75, share: 40, least: 20, salient: 20 } as const;
