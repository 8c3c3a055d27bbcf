import { labelsFor, languageName, type Labels } from "./labels.js";
import type { GenerateRequest, Preset } from "./request.js";
import { lowerFirst } from "./text.js";

/** The logical parts of an article. */
export type SectionKind = "introduction" | "takeaways" | "body" | "conclusion" | "faq";

/** One part of the article as planned, before the model writes anything. */
export interface PlannedSection {
  kind: SectionKind;
  /** A fixed, localised heading, or null when the model writes the heading. */
  label: string | null;
  /** Whether the heading must carry the primary keyword. */
  headingKeyword: boolean;
  /** H3 subsections under this section (the `detailed` preset). */
  subsections: number;
  /** Relative share of the article's words. */
  share: number;
  /** Times the primary keyword must stand in this section's text. */
  primaryUses: number;
  /** Secondary keywords this section must mention. */
  secondary: string[];
}

/** Everything code decides before generation: the contract between request and generator. */
export interface Plan {
  request: GenerateRequest;
  preset: Preset;
  labels: Labels;
  /** English name of the article's language, for prompts. */
  languageName: string;
  /** The keyword placed everywhere: the first given one, else the topic. */
  primary: string;
  secondary: string[];
  /** Whether the article shows heading nodes at all. */
  headings: boolean;
  sections: PlannedSection[];
  /** FAQ questions (the `detailed` preset), each carrying the primary keyword. */
  faqQuestions: string[];
  /** Bullets of the key takeaways list (the `detailed` preset). */
  takeaways: number;
}

/** Words per H2 section; the issue asks for one per 150–300 words. */
const WORDS_PER_SECTION = { sections: 220, detailed: 300, paragraphs: 180 } as const;
/** Target primary keyword density: the middle of the lower half of 0.5–2.5 %, so ±10 % length keeps it in range. */
const PRIMARY_DENSITY = 0.008;
const SHARE = { introduction: 0.7, takeaways: 0.5, body: 1, conclusion: 0.6, faq: 1.2 } as const;

/** Plan an article from a normalised request: sections, word shares and keyword placement. */
export function plan(request: GenerateRequest): Plan {
  const preset = request.structure;
  const labels = labelsFor(request.language);
  const [first, ...secondary] = request.seo.keywords;
  const primary = first ?? lowerFirst(request.topic.replace(/[.!?。！？]+$/u, ""), request.language);
  const headings = request.seo.headingTags;
  const detailed = preset === "detailed";

  // From 200 words there is room for a body H2 and the conclusion's, so the keyword can sit in half of them.
  const h2Count = Math.max(request.length >= 200 ? 2 : 1, Math.round(request.length / WORDS_PER_SECTION[preset]));
  const bodyCount = Math.max(1, h2Count - (detailed ? 2 : 1));
  const section = (kind: SectionKind, label: string | null, subsections = 0): PlannedSection => ({
    kind,
    label,
    headingKeyword: false,
    subsections,
    share: SHARE[kind],
    primaryUses: 0,
    secondary: [],
  });
  const sections: PlannedSection[] = [section("introduction", null)];
  if (detailed) sections.push(section("takeaways", labels.keyTakeaways));
  for (let i = 0; i < bodyCount; i++) sections.push(section("body", null, detailed ? 2 : 0));
  // A very short article has room for one H2 only: its closing paragraph then goes without a heading.
  sections.push(section("conclusion", detailed || h2Count > 1 ? labels.conclusion : null));
  const faqQuestions = detailed ? pickFaqQuestions(labels, primary, request.length) : [];
  if (detailed) sections.push(section("faq", labels.faq));

  const keywordHeadings = placeHeadingKeywords(sections, faqQuestions.length, headings && preset !== "paragraphs");
  placeKeywordUses(sections, primary, secondary, request.length, keywordHeadings + faqQuestions.length);

  return {
    request,
    preset,
    labels,
    languageName: languageName(request.language) ?? "English",
    primary,
    secondary,
    headings,
    sections,
    faqQuestions,
    takeaways: detailed ? Math.min(5, Math.max(3, Math.round(request.length / 500))) : 0,
  };
}

/** 3–5 FAQ questions, more for longer articles. */
function pickFaqQuestions(labels: Labels, primary: string, length: number): string[] {
  const count = Math.min(5, Math.max(3, Math.round(length / 600)));
  return labels.faqQuestions.slice(0, count).map((q) => q.replace("{k}", primary));
}

/**
 * Mark generated headings that carry the keyword so that about half of all H2/H3
 * subheadings do (Yoast asks for 30–75 %). FAQ questions already carry it.
 * Returns how many generated headings were marked.
 */
function placeHeadingKeywords(sections: PlannedSection[], faqCount: number, visibleHeadings: boolean): number {
  if (!visibleHeadings) return 0;
  const generated = sections.filter((s) => s.kind === "body");
  const subheadings = sections.filter((s) => s.label !== null || s.kind === "body").length
    + faqCount + generated.reduce((n, s) => n + s.subsections, 0);
  const wanted = Math.max(1, Math.round(subheadings * 0.5) - faqCount);
  const marked = generated.slice(0, Math.min(wanted, generated.length));
  for (const s of marked) s.headingKeyword = true;
  return marked.length;
}

/**
 * Spread the primary keyword uses over the text sections, the introduction first,
 * and give each secondary keyword a section of its own, round-robin.
 */
function placeKeywordUses(
  sections: PlannedSection[],
  primary: string,
  secondary: string[],
  length: number,
  headingUses: number,
): void {
  const prose = sections.filter((s) => s.kind === "introduction" || s.kind === "body" || s.kind === "conclusion");
  const uses = Math.max(1, Math.ceil(length * PRIMARY_DENSITY) - headingUses);
  for (let i = 0; i < uses; i++) prose[i % prose.length]!.primaryUses++;
  if (prose[0]!.primaryUses === 0) prose[0]!.primaryUses = 1;
  secondary.forEach((keyword, i) => {
    if (keyword.toLocaleLowerCase() !== primary.toLocaleLowerCase()) prose[(i + 1) % prose.length]!.secondary.push(keyword);
  });
}
