import { measureArticle, sum, type Measure } from "./checks/article.js";
import { editorChecks } from "./checks/editor.js";
import { figureChecks } from "./checks/figures.js";
import { groundingChecks } from "./checks/grounding.js";
import { headingChecks } from "./checks/headings.js";
import { keywordChecks } from "./checks/keywords.js";
import { languageChecks } from "./checks/language.js";
import { lengthChecks } from "./checks/length.js";
import { outlineChecks } from "./checks/outline.js";
import { phraseChecks } from "./checks/phrases.js";
import { readabilityChecks } from "./checks/readability.js";
import { onTopicCheck } from "./checks/on-topic.js";
import { substanceChecks } from "./checks/substance.js";
import { voiceChecks } from "./checks/voice.js";
import type { AnalyseInput } from "./input.js";
import { CHECK_IDS, CHECK_LABELS, CHECK_WEIGHTS, SCORE_CAPS, type CheckId } from "../../contract/checks.js";

export { CHECK_IDS, CHECK_LABELS, CHECK_WEIGHTS, type CheckId } from "../../contract/checks.js";
export { stringsIn as requestTexts } from "./checks/figures.js";
export type { AnalyseInput, SourceText } from "./input.js";

/** One measured check: passed null means not applicable. */
export interface SeoCheck {
  id: CheckId;
  /** The check's name in words. */
  label: string;
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

/** Every check's measurement; TypeScript fails here if a check of the registry has none. */
const MEASURES: Record<CheckId, Measure> = {
  ...onTopicCheck,
  ...substanceChecks,
  ...languageChecks,
  ...keywordChecks,
  ...lengthChecks,
  ...headingChecks,
  ...editorChecks,
  ...outlineChecks,
  ...readabilityChecks,
  ...phraseChecks,
  ...figureChecks,
  ...groundingChecks,
  ...voiceChecks,
};

/** Measure an article's final Markdown and return its SEO report. */
export function analyse(input: AnalyseInput): Analysis {
  const article = measureArticle(input);
  const checks = CHECK_IDS.map((id) => ({ id, label: CHECK_LABELS[id], ...MEASURES[id](article) }));
  return {
    wordCount: article.wordCount,
    readingTimeMinutes: Math.max(1, Math.ceil(article.wordCount / 200)),
    keywordDensity: article.keywordDensity,
    checks,
    score: scoreChecks(checks),
  };
}

/**
 * round(100 × weight of passed checks ÷ weight of applicable ones); nothing applicable → 100.
 * Any failure but a voice check's keeps the score at 99 at most, and a failed check with a cap in
 * {@link SCORE_CAPS} (off topic, loops, wrong language, banned text) at its cap: a voice check
 * only weighs in.
 */
export function scoreChecks(checks: readonly { id: CheckId; passed: boolean | null }[]): number {
  const applicable = checks.filter((c) => c.passed !== null);
  const total = sum(applicable.map((c) => CHECK_WEIGHTS[c.id]));
  if (total === 0) return 100;
  const score = Math.round((100 * sum(applicable.filter((c) => c.passed).map((c) => CHECK_WEIGHTS[c.id]))) / total);
  const failed = applicable.filter((c) => c.passed === false && !c.id.startsWith("voice-"));
  if (failed.length === 0) return score;
  return Math.min(score, 99, ...failed.map((c) => SCORE_CAPS[c.id] ?? 99));
}
