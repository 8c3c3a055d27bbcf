/**
 * What every mend shares: the state, the model's writer, the plan and banned phrases, and
 * the helpers that read the article around a spot (the text the model continues from, the
 * sentences it may not repeat, the words it may still add).
 */
import { Grounding } from "../grounding/grounding.js";
import type { AvoidList } from "../plan/avoid.js";
import { mostWords } from "../plan/limits.js";
import type { Plan } from "../plan/plan.js";
import type { LocatedArticle } from "../existing/locate.js";
import type { RefreshWriter } from "./session.js";
import type { RefreshState } from "./state.js";

/** A mend's working set. */
export interface Mending {
  state: RefreshState;
  writer: RefreshWriter;
  /** The article's plan, its sections mirroring the article's (see `articlePlan`). */
  plan: Plan;
  avoid: AvoidList;
  /** The title the model reads above the article. */
  title: string;
}

/** Characters of the article before a spot the model reads (from the section's heading on): enough to write on from, bounded in cost. */
const CONTEXT_CHARS = 1200;

/** The article's Markdown before `offset`, as the model continues it: the title, the section's heading, the text before the spot. */
export function contextBefore(m: Mending, offset: number): string {
  const { located } = m.state;
  const section = sectionAt(located, offset);
  const heading = section.heading >= 0 ? located.blocks[section.heading]! : undefined;
  const from = heading ? heading.span.end : bodyStart(located);
  let text = located.markdown.slice(from, offset);
  if (text.length > CONTEXT_CHARS) {
    const cut = text.indexOf("\n\n", text.length - CONTEXT_CHARS);
    text = cut >= 0 ? text.slice(cut) : text.slice(-CONTEXT_CHARS);
  }
  const head = heading && heading.kind === "heading" ? `${"#".repeat(heading.depth)} ${heading.text}` : "";
  return `# ${m.title}\n\n${`${head}\n\n${text.replace(/^\s+/u, "")}`.replace(/^\n\n/u, "")}`;
}

/** Where the body starts: after the front matter and the H1. */
export function bodyStart(located: LocatedArticle): number {
  return Math.max(located.frontMatter?.span.end ?? 0, located.h1?.span.end ?? 0);
}

/** The section a text offset falls in. */
function sectionAt(located: LocatedArticle, offset: number) {
  let found = located.sections[0]!;
  for (const section of located.sections)
    if (section.heading >= 0 && located.blocks[section.heading]!.span.start <= offset) found = section;
  return found;
}

/** The article's sentences, those after `offset` first and those before it last (the gate reads the last two as the ones before the new prose). */
export function seenAround(located: LocatedArticle, offset: number): string[] {
  const sentences = located.blocks.flatMap((block) =>
    block.kind === "paragraph" ? block.sentences.map((s) => ({ text: s.text, at: block.span.start })) : [],
  );
  return [...sentences.filter((s) => s.at >= offset), ...sentences.filter((s) => s.at < offset)].map((s) => s.text);
}

/** Body words new prose may add within the length promise; unbounded without a requested length. */
export function room(m: Mending): number {
  const length = m.state.request.length;
  return length === undefined ? Number.MAX_SAFE_INTEGER : mostWords(length) - m.state.report.wordCount;
}

/** A grounding that neither shows sources nor owes links: prose that only adds words. */
export function noGrounding(m: Mending): Grounding {
  return new Grounding({ plan: m.plan, outline: emptyOutline(m) });
}

/** The outline of the article as it stands: its title and each section's heading. */
function emptyOutline(m: Mending) {
  return { title: m.title, metaDescription: "", sections: m.plan.sections.map(() => ({ heading: null, subheadings: [] as string[] })) };
}
