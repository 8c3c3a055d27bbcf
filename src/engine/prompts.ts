import type { Prompt } from "../model/runtime.js";
import type { Plan } from "./plan.js";

/** What one passage of prose is about. */
export interface PassageBrief {
  /** "the introduction", "the section “…”", "the answer to “…”" */
  part: string;
  /** Heading the passage sits under, shown to plain models as context. */
  heading: string;
  /** Words wanted. */
  words: number;
  /** Keywords the model is asked to use (code places them anyway if it does not). */
  keywords: string[];
  /** The last sentence written, when this call continues a passage. */
  after?: string;
}

/**
 * The system turn is the same for every call of one article, so the sequence keeps it
 * evaluated and each call only evaluates its own user turn.
 */
function system(plan: Plan): string {
  const r = plan.request;
  const guidance = r.structureRequested !== r.structure ? ` The requested form is "${r.structureRequested}".` : "";
  return (
    `You are an expert writer of ${plan.languageName} articles. Topic: ${r.topic}. ` +
    `Write in ${plan.languageName}, in a ${r.tone} tone.${guidance} ` +
    "Write plain sentences only: no headings, no lists, no Markdown, no quotes around the answer."
  );
}

/** Ask for the article title. */
export function titlePrompt(plan: Plan): Prompt {
  return {
    system: system(plan),
    user: `Write one short title (at most 8 words) for an article about ${plan.request.topic}. Use the phrase "${plan.primary}". Answer with the title only.`,
    completion: `${plan.request.topic}.\n`,
  };
}

/** Ask for a section heading. */
export function headingPrompt(plan: Plan, title: string, index: number, parent?: string): Prompt {
  const place = parent ? `subsection ${index + 1} of the section "${parent}"` : `section ${index + 1}`;
  return {
    system: system(plan),
    user: `The article is titled "${title}". Write a short heading (at most 7 words) for ${place}. Answer with the heading only.`,
    completion: `${title}.\n${parent ? `${parent}.\n` : ""}`,
  };
}

/** Ask for prose. */
export function passagePrompt(plan: Plan, title: string, brief: PassageBrief): Prompt {
  const uses = brief.keywords.length ? ` Use the phrase "${brief.keywords.join('", "')}" once.` : "";
  const after = brief.after ? ` Continue naturally after this sentence: "${brief.after}"` : "";
  return {
    system: system(plan),
    user: `The article is titled "${title}". Write ${brief.part} in about ${brief.words} words.${uses}${after}`,
    completion: `${title}.\n${brief.heading}.\n${brief.after ?? ""}`,
  };
}

/** Ask for a one-sentence summary, the seed of the meta description. */
export function summaryPrompt(plan: Plan, title: string): Prompt {
  return {
    system: system(plan),
    user: `Summarise the article "${title}" in two sentences of about 25 words for a search result. Use the phrase "${plan.primary}".`,
    completion: `${title}.\n`,
  };
}
