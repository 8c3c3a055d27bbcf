/**
 * The SEO analyser: measures the written article and reports what it finds. It reads the
 * document's blocks (never re-parsed Markdown). Pure (no model, no I/O), so the report
 * proves the structure the engine promised and a test can pin every figure. Counting
 * goes through text.ts, like planning and writing.
 */
import type { Block } from "./document.js";
import type { Preset } from "./presets.js";
import { slugify } from "./slug.js";
import { countPhrase, countWords, firstWords, normaliseSentence, wordSpans } from "./text.js";

/** What the analyser measures. */
export interface AnalyseInput {
  /** The body blocks in document order (the H1 title is not one of them). */
  blocks: readonly Block[];
  /** Whether the article starts with its title as H1. */
  hasTitle: boolean;
  /** Article title (also the H1 when headingTags). */
  title: string;
  metaDescription: string;
  slug: string;
  /** Normalised; the first is primary; may be empty. */
  keywords: string[];
  /** ISO 639-1, lower-case. */
  language: string;
  headingTags: boolean;
  preset: Preset;
  /** Requested words. */
  targetLength: number;
}

/** One measured check: passed null means not applicable. */
export interface SeoCheck {
  id: CheckId;
  passed: boolean | null;
  message: string;
}

/** The SEO report of one article. */
export interface Analysis {
  /** Body words: everything but the H1 (paragraphs, headings H2-H6, lists, FAQ). */
  wordCount: number;
  /** ceil(wordCount / 200), at least 1. */
  readingTimeMinutes: number;
  /** Every keyword: occurrences / body words * 100, rounded to 2 decimals. */
  keywordDensity: Record<string, number>;
  checks: SeoCheck[];
  /** 0-100 integer derived from the checks. */
  score: number;
}

/**
 * Score weight of every check, in report order. The weights follow the emphasis of the
 * two plugins users compare us with: Yoast SEO's assessments (keyphrase and length ones
 * decide the traffic light, readability ones refine it) and Rank Math's 100-point test
 * list ("Basic SEO" tests such as keyword in title, meta, URL and content length weigh
 * more than "Additional" and "Readability" tests). 3 = core on-page signal, 2 = strong
 * signal, 1 = readability polish.
 */
export const CHECK_WEIGHTS = {
  "keyword-in-title": 3,
  "keyword-in-introduction": 2,
  "keyword-in-subheadings": 1,
  "keyword-in-meta-description": 2,
  "keyword-in-slug": 2,
  "keyword-density": 2,
  "secondary-keywords": 1,
  "keyword-once-per-sentence": 1,
  "meta-description-length": 2,
  "title-length": 2,
  "text-length": 3,
  "length-target": 2,
  "single-h1": 2,
  "no-headings": 2,
  "heading-hierarchy": 1,
  "distinct-headings": 1,
  "subheading-distribution": 1,
  "paragraph-length": 1,
  "sentence-length": 1,
  "consecutive-sentence-starts": 1,
  "duplicate-sentences": 1,
} as const;

/** Id of a check; the report lists them in the order of {@link CHECK_WEIGHTS}. */
export type CheckId = keyof typeof CHECK_WEIGHTS;

type Heading = Extract<Block, { kind: "heading" }>;
type Prose = Extract<Block, { kind: "prose" }>;

/** The article as the checks see it, measured once. */
interface Article {
  input: AnalyseInput;
  primary: string | undefined;
  /** Body blocks in document order: everything but the title H1. */
  body: readonly Block[];
  headings: Heading[];
  prose: Prose[];
  sentences: string[];
  wordCount: number;
  keywordDensity: Record<string, number>;
}

type Verdict = Omit<SeoCheck, "id">;
type Measure = (article: Article) => Verdict;

/** Measure an article's final Markdown and return its SEO report. */
export function analyse(input: AnalyseInput): Analysis {
  const article = measure(input);
  const checks = (Object.keys(CHECK_WEIGHTS) as CheckId[]).map((id) => ({ id, ...CHECKS[id](article) }));
  return {
    wordCount: article.wordCount,
    readingTimeMinutes: Math.max(1, Math.ceil(article.wordCount / 200)),
    keywordDensity: article.keywordDensity,
    checks,
    score: scoreChecks(checks),
  };
}

/** round(100 × weight of passed checks ÷ weight of applicable ones); nothing applicable → 100. */
export function scoreChecks(checks: readonly { id: CheckId; passed: boolean | null }[]): number {
  const applicable = checks.filter((c) => c.passed !== null);
  const total = sum(applicable.map((c) => CHECK_WEIGHTS[c.id]));
  if (total === 0) return 100;
  return Math.round((100 * sum(applicable.filter((c) => c.passed).map((c) => CHECK_WEIGHTS[c.id]))) / total);
}

function measure(input: AnalyseInput): Article {
  const { language } = input;
  const body = input.blocks;
  const prose = body.filter((b): b is Prose => b.kind === "prose");
  const wordCount = sum(body.map((b) => b.words));
  return {
    input,
    primary: input.keywords[0],
    body,
    headings: body.filter((b): b is Heading => b.kind === "heading"),
    prose,
    sentences: prose.flatMap((p) => p.sentences),
    wordCount,
    keywordDensity: Object.fromEntries(
      input.keywords.map((k) => [k, wordCount === 0 ? 0 : round((occurrences(body, k, language) / wordCount) * 100, 2)]),
    ),
  };
}

const occurrences = (blocks: readonly Block[], phrase: string, language: string) =>
  sum(blocks.map((b) => countPhrase(b.text, phrase, language)));

// ---------------------------------------------------------------------------------------
// Checks

const CHECKS: Record<CheckId, Measure> = {
  "keyword-in-title": withKeyword((a, k) => presence(k, a.input.title, "the title", a.input.language)),

  "keyword-in-introduction": withKeyword((a, k) => {
    const opening = (a.prose[0]?.sentences ?? []).slice(0, 2).join(" ");
    return presence(k, opening, "the first two sentences of the introduction", a.input.language);
  }),

  // Yoast: the keyphrase belongs in 30–75% of subheadings; a lone subheading should hold it.
  "keyword-in-subheadings": withHeadings(
    withKeyword((a, k) => {
      const subheadings = a.headings.filter((h) => h.depth === 2 || h.depth === 3);
      if (subheadings.length === 0) return na("There are no H2 or H3 subheadings to hold the keyword.");
      const holding = subheadings.filter((h) => countPhrase(h.text, k, a.input.language) > 0).length;
      const share = (holding / subheadings.length) * 100;
      const oneOfOne = subheadings.length === 1 && holding === 1;
      return verdict(
        oneOfOne || (share >= 30 && share <= 75),
        `The primary keyword “${k}” is in ${holding} of ${plural(subheadings.length, "subheading")} (${round(share, 1)}%; target 30–75%).`,
      );
    }),
  ),

  "keyword-in-meta-description": withKeyword((a, k) =>
    presence(k, a.input.metaDescription, "the meta description", a.input.language),
  ),

  "keyword-in-slug": withKeyword((a, k) => {
    const wanted = slugify(k);
    const found = `-${a.input.slug}-`.includes(`-${wanted}-`);
    return verdict(found, `The slug “${a.input.slug}” ${found ? "contains" : "does not contain"} the keyword slug “${wanted}”.`);
  }),

  "keyword-density": withKeyword((a, k) => {
    const density = a.keywordDensity[k] ?? 0;
    const count = occurrences(a.body, k, a.input.language);
    return verdict(
      density >= 0.5 && density <= 2.5,
      `Keyword density is ${density}% (“${k}” ${plural(count, "time")} in ${plural(a.wordCount, "word")}; target 0.5–2.5%).`,
    );
  }),

  "secondary-keywords": withKeyword((a) => {
    const secondary = a.input.keywords.slice(1);
    if (secondary.length === 0) return na("There are no secondary keywords to look for.");
    const missing = secondary.filter((k) => occurrences(a.body, k, a.input.language) === 0);
    const list = missing.map((k) => `“${k}”`).join(", ");
    return verdict(
      missing.length === 0,
      `Secondary keywords found in the body: ${secondary.length - missing.length} of ${secondary.length}${list && `; missing: ${list}`}.`,
    );
  }),

  "keyword-once-per-sentence": withKeyword((a) => {
    const { keywords, language } = a.input;
    const stuffed = a.sentences.filter((s) => keywords.some((k) => countPhrase(s, k, language) > 1));
    return verdict(
      stuffed.length === 0,
      stuffed[0] === undefined
        ? `No sentence holds the same keyword twice (${plural(a.sentences.length, "sentence")} checked).`
        : `Found ${plural(stuffed.length, "sentence")} holding the same keyword twice (first: ${quote(stuffed[0], language)}).`,
    );
  }),

  // Yoast and Rank Math both cut snippets at about 156 characters; under 120 wastes the space.
  "meta-description-length": (a) => {
    const length = characters(a.input.metaDescription);
    return verdict(length >= 120 && length <= 156, `The meta description is ${plural(length, "character")} long (target 120–156).`);
  },

  // Rank Math: titles over 60 characters are truncated in results.
  "title-length": (a) => {
    const length = characters(a.input.title);
    return verdict(length >= 10 && length <= 60, `The title is ${plural(length, "character")} long (target 10–60).`);
  },

  // Measured against the request: a 100-word article is not failed for being under 300 words.
  "text-length": (a) => {
    const target = Math.min(300, Math.round(a.input.targetLength * 0.9));
    return verdict(a.wordCount >= target, `The body has ${plural(a.wordCount, "word")} (target at least ${target}).`);
  },

  "length-target": (a) => {
    const target = a.input.targetLength;
    if (target <= 0) return na("No length was requested.");
    const offBy = ((a.wordCount - target) / target) * 100;
    return verdict(
      Math.abs(offBy) <= 10,
      `The body has ${plural(a.wordCount, "word")}, ${round(Math.abs(offBy), 1)}% ${offBy < 0 ? "under" : "over"} the ${target} requested (target ±10%).`,
    );
  },

  "single-h1": withHeadings((a) => {
    const h1s = a.headings.filter((h) => h.depth === 1).length + (a.input.hasTitle ? 1 : 0);
    if (h1s !== 1) return verdict(false, `The article has ${plural(h1s, "H1 heading")} (target exactly 1, first).`);
    if (!a.input.hasTitle) return verdict(false, "The H1 is not the title at the top of the article.");
    return verdict(true, "The article has exactly 1 H1, and it comes first.");
  }),

  "no-headings": (a) => {
    if (a.input.headingTags) return na("Heading tags are on, so headings are expected.");
    const headings = a.headings.length + (a.input.hasTitle ? 1 : 0);
    return verdict(headings === 0, `The article has ${plural(headings, "heading")} (target 0, because heading tags are off).`);
  },

  "heading-hierarchy": withHeadings((a) => {
    const skips = skippedLevels(a.headings);
    const first = skips[0];
    return verdict(
      first === undefined,
      first === undefined
        ? `No heading level is skipped (${plural(a.headings.length, "subheading")} checked).`
        : `Found ${plural(skips.length, "heading")} skipping a level (first: H${first.heading.depth} “${first.heading.text}” after H${first.after}).`,
    );
  }),

  "distinct-headings": withHeadings((a) => {
    const seen = new Set<string>();
    const repeated = a.headings.filter((h) => {
      const key = normaliseSentence(h.text, a.input.language);
      if (seen.has(key)) return true;
      seen.add(key);
      return false;
    });
    if (a.headings.length === 0) return na("There are no subheadings to compare.");
    return verdict(
      repeated.length === 0,
      repeated[0] === undefined
        ? `Every subheading is different (${plural(a.headings.length, "subheading")} checked).`
        : `Found ${plural(repeated.length, "subheading")} repeating an earlier one (first: “${repeated[0].text}”).`,
    );
  }),

  "subheading-distribution": withHeadings((a) => {
    if (a.input.preset === "paragraphs") return na("The paragraphs preset has no subheadings to distribute.");
    const longest = Math.max(0, ...textRuns(a.body));
    return verdict(longest <= 300, `The longest text without a subheading has ${plural(longest, "word")} (target at most 300).`);
  }),

  "paragraph-length": (a) => {
    const longest = Math.max(0, ...a.prose.map((p) => p.words));
    return verdict(longest <= 150, `The longest paragraph has ${plural(longest, "word")} (target at most 150).`);
  },

  // Yoast: at most 25% of sentences over 20 words.
  "sentence-length": (a) => {
    const long = a.sentences.filter((s) => countWords(s, a.input.language) > 20).length;
    const share = a.sentences.length === 0 ? 0 : (long / a.sentences.length) * 100;
    return verdict(
      share <= 25,
      `${round(share, 1)}% of sentences (${long} of ${a.sentences.length}) have more than 20 words (target at most 25%).`,
    );
  },

  "consecutive-sentence-starts": (a) => {
    const { word, run } = longestSameStart(a.sentences, a.input.language);
    return verdict(
      run < 3,
      `The longest run of sentences starting with the same word is ${run}${word && ` (“${word}”)`} (target fewer than 3).`,
    );
  },

  "duplicate-sentences": (a) => {
    const repeats = repeatedSentences(a.sentences, a.input.language);
    return verdict(
      repeats.length === 0,
      repeats[0] === undefined
        ? `No sentence appears twice (${plural(a.sentences.length, "sentence")} checked).`
        : `Found ${plural(repeats.length, "sentence")} repeating an earlier one (first: ${quote(repeats[0], a.input.language)}).`,
    );
  },
};

const verdict = (passed: boolean, message: string): Verdict => ({ passed, message });
const na = (message: string): Verdict => ({ passed: null, message });

/** Keyword checks do not apply to an article written without keywords. */
function withKeyword(check: (article: Article, primary: string) => Verdict): Measure {
  return (a) => (a.primary === undefined ? na("No keywords were given, so this check does not apply.") : check(a, a.primary));
}

/** Heading checks do not apply when heading tags are off: reported as not applicable, never as passed or failed. */
function withHeadings(check: Measure): Measure {
  return (a) => (a.input.headingTags ? check(a) : na("Heading tags are off, so this check does not apply."));
}

function presence(keyword: string, text: string, where: string, language: string): Verdict {
  const count = countPhrase(text, keyword, language);
  return verdict(count > 0, `The primary keyword “${keyword}” appears ${plural(count, "time")} in ${where}.`);
}

/** Body headings that go more than one level deeper than the heading before (the H1 title is level 1). */
function skippedLevels(headings: readonly Heading[]): { heading: Heading; after: number }[] {
  const skips: { heading: Heading; after: number }[] = [];
  let previous = 1;
  for (const heading of headings) {
    if (heading.depth > previous + 1) skips.push({ heading, after: previous });
    previous = heading.depth;
  }
  return skips;
}

/** Words of each stretch of prose between headings, the introduction included. */
function textRuns(body: readonly Block[]): number[] {
  const runs = [0];
  for (const block of body) {
    if (block.kind === "heading") runs.push(0);
    else runs[runs.length - 1]! += block.words;
  }
  return runs;
}

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

/** Sentences that repeat an earlier one, ignoring case, punctuation and spacing. */
function repeatedSentences(sentences: readonly string[], language: string): string[] {
  const seen = new Set<string>();
  return sentences.filter((sentence) => {
    const key = normaliseSentence(sentence, language);
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
}

/** The start of a sentence, quoted for a message. */
function quote(sentence: string, language: string): string {
  const start = firstWords(sentence, 8, language);
  return `“${start}${start.length < sentence.length ? "…" : ""}”`;
}

/** Length in characters as a person counts them (code points, so emoji and CJK count once). */
const characters = (text: string) => [...text].length;

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;
const sum = (values: readonly number[]) => values.reduce((total, v) => total + v, 0);
const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;
