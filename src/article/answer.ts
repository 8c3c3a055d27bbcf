/**
 * The engine's reports as the wire's answers: the one module of the engine that converts what
 * report/ and existing/ measure (an {@link Analysis}, an {@link ExistingReport}) into the
 * contract's answer types. Stage modules keep their state in the engine's own types
 * (`test/unit/structure.test.ts`); the entries answer through here.
 */
import type { AnalysisResponse } from "../contract/analyse.js";
import type { ArticleResponse } from "../contract/response.js";
import type { VoiceRequest, VoiceResponse } from "../contract/voice.js";
import { measureExisting, type ExistingReport, type MeasuredArticle } from "./existing/analyse.js";
import { learnProfile } from "./existing/voice-learn.js";
import type { Analysis } from "./report/analyse.js";

/** The SEO report of an answer (generate's, refresh's before and after, analyse's). */
export const seoAnswer = ({ score, checks, keywordDensity }: Analysis): ArticleResponse["seo"] => ({ score, checks, keywordDensity });

/** The analyse answer of an article measured as it is. */
function analysisAnswer(report: ExistingReport): AnalysisResponse {
  const { language, title, description, slug, keywords, wordCount, readingTimeMinutes, outline } = report;
  return {
    object: "analysis",
    language,
    title,
    description,
    slug,
    keywords,
    wordCount,
    readingTimeMinutes,
    outline,
    seo: seoAnswer(report),
  };
}

/** An article measured as it is, answered as analyse answers it, with what a site audit reads besides. */
export interface ExistingAnalysis extends Omit<MeasuredArticle, "report"> {
  analysis: AnalysisResponse;
}

/** Measure an article given as Markdown or HTML against the request's targets (`POST /api/v1/analyse`, audit). */
export function analyseExisting(...args: Parameters<typeof measureExisting>): ExistingAnalysis {
  const { report, ...read } = measureExisting(...args);
  return { analysis: analysisAnswer(report), ...read };
}

/** A house voice learnt from example articles (`POST /api/v1/voice`, `inkpress voice`), answered as the voice answer. */
export function learnVoice(request: VoiceRequest): VoiceResponse {
  return { object: "voice", name: request.name, ...learnProfile(request) };
}
