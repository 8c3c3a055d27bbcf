/**
 * The outline a user edits before the article is written: the engine's own plan (the same
 * plan and outline stages generate runs), answered with a word budget per heading, the keyword
 * and source each section carries, and two more titles and descriptions to choose from.
 */
import {
  planAvoidList,
  Grounding,
  TokenLedger,
  headingText,
  outlineFormat,
  writeOutline,
  type Outline,
  SECTION_MIN_WORDS,
  plan,
  type Plan,
  articlePrompt,
  countWords,
  type AcceptedRequest,
} from "../article/index.js";
import type { Backend } from "../model/backend.js";
import type { DraftHeading, OutlineResponse } from "../contract/outline-response.js";

/**
 * Share of an article's words an outline is charged: a 600-word plan took 0.24 of the article's
 * tokens on stories260K and 0.39 on the ChatML test model (the prompt is most of it).
 */
const OUTLINE_CHARGE = 0.25;

/** Words an outline of a request is charged. */
export function outlineCharge(request: { length: number }): number {
  return Math.ceil(request.length * OUTLINE_CHARGE);
}

/** Plan the article a request asks for, without writing it: the outline, budgets and alternatives. */
export async function draftOutline(given: AcceptedRequest, options: { backend: Backend; signal?: AbortSignal }): Promise<OutlineResponse> {
  const started = performance.now();
  const { outline: _ignored, ...request } = given;
  const { backend, signal } = options;
  const articlePlan = plan(request);
  const avoid = planAvoidList(articlePlan);
  const writer = TokenLedger.of(await backend.writer(signal));
  const format = outlineFormat(backend.prompting);
  const alternatives: OutlineResponse["alternatives"] = { titles: [], descriptions: [] };
  let outline: Outline;
  try {
    await writer.begin(articlePrompt(articlePlan, format));
    const start = writer.text.length;
    const write = (p: Plan, seed: number) => writeOutline({ plan: p, writer, format, seed, avoid, ...(signal ? { signal } : {}) });
    outline = await write(articlePlan, request.seed);
    // The alternatives are a title and description alone: the plan of the same request without sections.
    const bare = plan({ ...request, structure: "paragraphs" });
    for (const n of [1, 2]) {
      writer.cut(start, "outline");
      const other = await write(bare, (request.seed + n * 104_729) >>> 0);
      alternatives.titles.push(other.title);
      alternatives.descriptions.push(other.metaDescription);
    }
  } finally {
    await writer.dispose();
  }
  const grounding = Grounding.ofPlan(articlePlan, outline, avoid);
  const { introduction, headings } = budgets(articlePlan, outline, grounding);
  return {
    object: "outline",
    created: Math.floor(Date.now() / 1000),
    model: backend.name,
    request,
    outline: { title: outline.title, description: outline.metaDescription, introduction, headings },
    alternatives,
    usage: {
      promptTokens: writer.usage.promptTokens,
      completionTokens: writer.usage.completionTokens,
      chargedWords: outlineCharge(request),
      durationMs: Math.round(performance.now() - started),
    },
  };
}

/**
 * The headings the article would show, each with the prose words under it: the request's
 * length less the headings' own words, shared as the body pass shares it (by section share,
 * a section's H3s alike). A section without a visible heading adds its words to the one before.
 */
function budgets(articlePlan: Plan, outline: Outline, grounding: Grounding): { introduction: number; headings: DraftHeading[] } {
  const { request, sections } = articlePlan;
  const headings: DraftHeading[] = [];
  const texts = sections.map((section, i) => (articlePlan.subheadings ? headingText(section, outline.sections[i]!.heading) : null));
  const fixed = sections.reduce(
    (n, _, i) =>
      n +
      countWords(texts[i] ?? "", request.language) +
      outline.sections[i]!.subheadings.reduce((m, h) => m + countWords(h, request.language), 0),
    0,
  );
  let remaining = Math.max(0, request.length - fixed);
  let shares = sections.reduce((n, s) => n + s.share, 0);
  let introduction = 0;
  for (const [i, section] of sections.entries()) {
    const words = Math.max(SECTION_MIN_WORDS, Math.round((remaining * section.share) / shares));
    shares -= section.share;
    remaining -= words;
    const subs = articlePlan.subheadings ? outline.sections[i]!.subheadings : [];
    const text = texts[i];
    if (!text) {
      const last = headings.at(-1);
      if (last) last.words += words;
      else introduction += words;
      continue;
    }
    const keyword = section.secondary[0] ?? (section.primaryUses > 0 ? articlePlan.primary : undefined);
    const source = grounding.drawsOn(i);
    const kind = section.kind === "introduction" ? "body" : section.kind;
    headings.push({ level: 2, text, words: subs.length ? 0 : words, kind, ...(keyword ? { keyword } : {}), ...(source ? { source } : {}) });
    for (const [j, sub] of subs.entries())
      headings.push({ level: 3, text: sub, words: Math.floor(words / subs.length) + (j < words % subs.length ? 1 : 0) });
  }
  return { introduction, headings };
}
