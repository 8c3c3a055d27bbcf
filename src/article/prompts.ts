import type { Prompt } from "../model/backend.js";
import type { Plan } from "./plan.js";
import type { Preset } from "./presets.js";

const FORMS: Record<Preset, string> = {
  paragraphs: "flowing paragraphs without subheadings",
  sections: "an introduction, sections with headings and a conclusion",
  detailed: "an in-depth guide: key takeaways, sections with subsections, a conclusion and an FAQ",
  listicle: "a numbered list article: each item is a section with its own heading",
  "how-to": "a step-by-step how-to: each step is a section, in order, its heading starting with a verb",
};

/**
 * The one prompt of an article. The answer that follows holds the outline (as JSON for
 * chat models, as lines for plain ones), then the article in Markdown: one continuing
 * answer, so the prompt is evaluated once and every word sees the outline and all the
 * text before it.
 */
export function articlePrompt(plan: Plan, format: "json" | "lines"): Prompt {
  const r = plan.request;
  const keywords = [plan.primary, ...plan.secondary].map((k) => `"${k}"`).join(", ");
  const form = r.structureRequested !== r.structure ? `${FORMS[plan.preset]} ("${r.structureRequested}")` : FORMS[plan.preset];
  const outline = format === "json" ? "one JSON object" : "lines";
  return {
    system: `You are an expert writer of ${plan.languageName} articles for the web. Write in ${plan.languageName}, in a ${r.tone} tone.`,
    user:
      `Write an article about: ${r.topic}\n` +
      `Keywords: ${keywords} (the first is the focus keyword).\n` +
      `Form: ${form}, about ${r.length} words.\n` +
      `First give the outline as ${outline}: title, meta description and headings. Then write the article in Markdown, following the outline.`,
    completion: `${r.topic}. Keywords: ${keywords}.\n\n`,
  };
}
