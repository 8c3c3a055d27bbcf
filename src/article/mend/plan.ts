/**
 * The plan a refresh steers the model with, made from the article as measured: its language,
 * keywords and length, the title and description it keeps (given to the outline as they
 * are) or has written again, and sections mirroring the article's, so the grounding's links
 * and excerpts go where they fit.
 */
import type { Outline } from "../outline/outline.js";
import { plan, type Plan, type PlannedSection } from "../plan/plan.js";
import { DEFAULTS, LIMITS, type resolveStyle, type GenerateRequest } from "../../contract/request.js";
import type { ExistingReport } from "../existing/analyse.js";
import type { LocatedArticle } from "../existing/locate.js";
import type { RefreshRequest } from "../../contract/refresh.js";

/** Which of the title and description the outline writes again. */
export interface Rewritten {
  title: boolean;
  description: boolean;
}

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** The generate request a refresh is planned from. */
export function refreshPlan(
  request: RefreshRequest,
  report: ExistingReport,
  options: { style: ReturnType<typeof resolveStyle>; rewritten: Rewritten },
): Plan {
  const keywords = report.keywords?.value ?? [];
  const title = report.title?.value;
  const description = report.description?.value;
  const { style } = options;
  const generate: GenerateRequest = {
    topic: (title || keywords[0] || "article").slice(0, LIMITS.topic),
    length: request.length ?? clamp(report.wordCount, LIMITS.lengthMin, LIMITS.lengthMax),
    tone: DEFAULTS.tone,
    language: report.language.value,
    // No headings in the outline answer: a refresh writes headings one at a time where a run needs one.
    structure: "paragraphs",
    structureRequested: "paragraphs",
    seed: request.seed,
    seo: {
      keywords,
      headingTags: request.seo.headingTags,
      ...(title && !options.rewritten.title ? { title } : {}),
      ...(description && !options.rewritten.description ? { description } : {}),
    },
    style,
    ...(request.sources ? { sources: request.sources } : {}),
    ...(request.links ? { links: request.links } : {}),
  };
  return plan(generate);
}

/** The plan with one section per section of the article (the introduction, then each heading's), weighted by their words. */
export function mirrorSections(p: Plan, located: LocatedArticle): { plan: Plan; outline: Outline; title: string } {
  const words = located.sections.map((s) => s.blocks.reduce((n, i) => n + ((located.blocks[i] as { words?: number }).words ?? 0), 0));
  const sections = located.sections.map(
    (_, i): PlannedSection => ({
      kind: i === 0 ? "introduction" : "body",
      label: null,
      heading: null,
      number: null,
      subheadings: [],
      items: 0,
      share: Math.max(1, words[i]!),
      primaryUses: 0,
      secondary: [],
    }),
  );
  const title = p.request.seo.title ?? located.h1?.text ?? p.request.topic;
  const outline: Outline = {
    title,
    metaDescription: "",
    sections: located.sections.map((s, i) => ({ heading: i === 0 ? null : s.name, subheadings: [] })),
  };
  return {
    plan: {
      ...p,
      sections,
      request: {
        ...p.request,
        length: clamp(
          words.reduce((a, b) => a + b, 0),
          LIMITS.lengthMin,
          LIMITS.lengthMax,
        ),
      },
    },
    outline,
    title,
  };
}
