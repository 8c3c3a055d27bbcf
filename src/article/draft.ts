/**
 * The outline a user edits before the article is written, drafted by the engine as generate
 * opens its answer (the same plan, prompt and outline stage, the same seed for the outline) and
 * answered with the body pass's own budget per heading, the keyword and source each section
 * carries, and two more titles and descriptions, their seeds drawn from the one seed sequence.
 */
import type { AcceptedRequest } from "./accept.js";
import type { DraftHeading, OutlineResponse } from "../contract/outline-response.js";
import type { Backend } from "../model/backend.js";
import { fixedWords, shareBudgets } from "./body/budgets.js";
import { Grounding } from "./grounding/grounding.js";
import { TokenLedger } from "./ledger.js";
import { outlineFormat } from "./outline/opening.js";
import { headingText, writeOutline, type Outline } from "./outline/outline.js";
import type { AvoidList } from "./plan/avoid.js";
import { planAvoidList, plan, type Plan } from "./plan/plan.js";
import { articlePrompt } from "./plan/prompts.js";
import { seedSequence } from "./plan/seeds.js";

/** What drafting an outline needs besides the request. */
export interface DraftOutlineOptions {
  backend: Backend;
  /**
   * Aborts the drafting (client gone, deadline passed).
   * @default none
   */
  signal?: AbortSignal | undefined;
}

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
export async function draftOutline(given: AcceptedRequest, options: DraftOutlineOptions): Promise<OutlineResponse> {
  const started = performance.now();
  const { outline: _ignored, ...request } = given;
  const { backend } = options;
  const articlePlan = plan(request);
  const avoid = planAvoidList(articlePlan);
  const { outline, alternatives, usage } = await writeDrafts({ request, articlePlan, avoid }, options);
  const grounding = Grounding.ofPlan(articlePlan, outline, avoid);
  const { introduction, headings } = await budgets(articlePlan, outline, grounding);
  return {
    object: "outline",
    created: Math.floor(Date.now() / 1000),
    model: backend.name,
    request,
    outline: { title: outline.title, description: outline.metaDescription, introduction, headings },
    alternatives,
    usage: {
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      chargedWords: outlineCharge(request),
      durationMs: Math.round(performance.now() - started),
    },
  };
}

/** The outline, then two more titles and descriptions in its place, on one writer borrowed from the backend (given back when they end). */
async function writeDrafts(
  { request, articlePlan, avoid }: { request: Plan["request"]; articlePlan: Plan; avoid: AvoidList },
  { backend, signal }: DraftOutlineOptions,
): Promise<{ outline: Outline; alternatives: OutlineResponse["alternatives"]; usage: TokenLedger["usage"] }> {
  await using writer = TokenLedger.of(await backend.writer(signal));
  const format = outlineFormat(backend.prompting);
  const alternatives: OutlineResponse["alternatives"] = { titles: [], descriptions: [] };
  await writer.begin(articlePrompt(articlePlan, format));
  const start = writer.text.length;
  const write = (p: Plan, seed: number) => writeOutline({ plan: p, writer, format, seed, avoid, ...(signal ? { signal } : {}) });
  const outline = await write(articlePlan, request.seed);
  // The alternatives are a title and description alone: the plan of the same request without sections.
  const bare = plan({ ...request, structure: "paragraphs" });
  const seeds = seedSequence(request.seed);
  for (let n = 0; n < 2; n++) {
    writer.cut(start, "outline");
    const other = await write(bare, seeds());
    alternatives.titles.push(other.title);
    alternatives.descriptions.push(other.metaDescription);
  }
  return { outline, alternatives, usage: writer.usage };
}

/**
 * The headings the article would show, each with the prose words under it: the request's length
 * shared by the body pass's own budget loop, a section's H3s alike. A section without a visible
 * heading adds its words to the one before.
 */
async function budgets(
  articlePlan: Plan,
  outline: Outline,
  grounding: Grounding,
): Promise<{ introduction: number; headings: DraftHeading[] }> {
  const headings: DraftHeading[] = [];
  let introduction = 0;
  await shareBudgets(articlePlan, fixedWords(articlePlan, outline), (i, words) => {
    const section = articlePlan.sections[i]!;
    const subs = articlePlan.subheadings ? outline.sections[i]!.subheadings : [];
    const text = articlePlan.subheadings ? headingText(section, outline.sections[i]!.heading) : null;
    if (!text) {
      const last = headings.at(-1);
      if (last) last.words += words;
      else introduction += words;
      return words;
    }
    const keyword = section.secondary[0] ?? (section.primaryUses > 0 ? articlePlan.primary : undefined);
    const source = grounding.drawsOn(i);
    const kind = section.kind === "introduction" ? "body" : section.kind;
    headings.push({ level: 2, text, words: subs.length ? 0 : words, kind, ...(keyword ? { keyword } : {}), ...(source ? { source } : {}) });
    for (const [j, sub] of subs.entries())
      headings.push({ level: 3, text: sub, words: Math.floor(words / subs.length) + (j < words % subs.length ? 1 : 0) });
    return words;
  });
  return { introduction, headings };
}
