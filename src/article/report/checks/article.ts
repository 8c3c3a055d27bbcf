/**
 * The article as the checks see it, measured once from the document's blocks, and the
 * small helpers every check shares (verdicts, applicability guards, message wording).
 */
import type { AnalyseInput } from "../input.js";
import type { Block } from "../../body/document.js";
import { firstWords } from "../../text/text.js";
import { countForms } from "../../text/forms.js";
import { LOOPS } from "../../plan/limits.js";
import { repetition, type Repetition } from "../../text/repeats.js";

/** A heading block of the body. */
export type Heading = Extract<Block, { kind: "heading" }>;
/** A paragraph or list item of the body. */
export type Prose = Extract<Block, { kind: "prose" }>;

/** A heading and the prose under it, up to the next heading. */
export interface Section {
  heading: Heading;
  prose: Prose[];
}

/** The article as the checks see it. */
export interface Article {
  input: AnalyseInput;
  primary: string | undefined;
  /** Body blocks in document order: everything but the title H1. */
  body: readonly Block[];
  headings: Heading[];
  prose: Prose[];
  /** Prose before the first heading (the whole body when there are no headings). */
  introduction: Prose[];
  /** Every heading with the prose under it. */
  sections: Section[];
  /** Every prose sentence in document order. */
  sentences: string[];
  /** How much the prose repeats itself, for the repetition checks (duplicate-sentences, no-loops), measured once. */
  repetition: Repetition;
  wordCount: number;
  keywordDensity: Record<string, number>;
}

/** What a check finds: passed null means not applicable. */
export interface Verdict {
  passed: boolean | null;
  message: string;
}

/** One check's measurement. */
export type Measure = (article: Article) => Verdict;

/** Measure the article once for every check. */
export function measureArticle(input: AnalyseInput): Article {
  const { language } = input;
  const body = input.blocks;
  const prose = body.filter((block): block is Prose => block.kind === "prose");
  const wordCount = sum(body.map((block) => block.words));
  const firstHeading = body.findIndex((block) => block.kind === "heading");
  const introduction = (firstHeading === -1 ? body : body.slice(0, firstHeading)).filter((block): block is Prose => block.kind === "prose");
  const sections: Section[] = [];
  for (const block of body) {
    if (block.kind === "heading") sections.push({ heading: block, prose: [] });
    else sections.at(-1)?.prose.push(block);
  }
  return {
    input,
    primary: input.keywords[0],
    body,
    headings: body.filter((block): block is Heading => block.kind === "heading"),
    prose,
    introduction,
    sections,
    sentences: prose.flatMap((paragraph) => paragraph.sentences),
    repetition: repetition(prose, { language, ...LOOPS, share: LOOPS.sentenceShare }),
    wordCount,
    keywordDensity: Object.fromEntries(
      input.keywords.map((keyword) => [keyword, wordCount === 0 ? 0 : round((occurrences(body, keyword, language) / wordCount) * 100, 2)]),
    ),
  };
}

/** Occurrences of a phrase in blocks, any word form of its words (see countForms). */
export const occurrences = (blocks: readonly Block[], phrase: string, language: string) =>
  sum(blocks.map((block) => countForms(block.text, phrase, language)));

/** The numbering the engine gives listicle items and how-to steps ("## 3. Turn the pile"). */
export const NUMBERING = /^\s*\d+[.)]\s/u;

/** Headings numbered as listicle items or how-to steps. */
export const numbered = (article: Article): Heading[] => article.headings.filter((heading) => NUMBERING.test(heading.text));

/** A passed or failed verdict. */
export const verdict = (passed: boolean, message: string): Verdict => ({ passed, message });

/** A not-applicable verdict. */
export const na = (message: string): Verdict => ({ passed: null, message });

/** Keyword checks do not apply to an article written without keywords. */
export function withKeyword(check: (article: Article, primary: string) => Verdict): Measure {
  return (article) =>
    article.primary === undefined ? na("No keywords were given, so this check does not apply.") : check(article, article.primary);
}

/** Heading checks do not apply when heading tags are off: reported as not applicable, never as passed or failed. */
export function withHeadings(check: Measure): Measure {
  return (article) => (article.input.headingTags ? check(article) : na("Heading tags are off, so this check does not apply."));
}

/** The start of a sentence (its first `words` words), quoted for a message. */
export function quote(sentence: string, language: string, words = 8): string {
  const start = firstWords(sentence, words, language);
  return `“${start}${start.length < sentence.length ? "…" : ""}”`;
}

/** Phrases found with their counts, for a message: “delve” (2), “tapestry” (1). */
export const listFound = (found: readonly { phrase: string; count: number }[]) =>
  found.map((hit) => `“${hit.phrase}” (${hit.count})`).join(", ");

/** "1 word", "2 words". */
export const plural = (count: number, noun: string, nouns = `${noun}s`) => `${count} ${count === 1 ? noun : nouns}`;
/** The sum of numbers. */
export const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
/** A number rounded to `decimals` places. */
export const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;
/** A share in percent, 0 for an empty whole. */
export const percent = (part: number, whole: number) => (whole === 0 ? 0 : (part / whole) * 100);
