import type { Prompt } from "../../model/backend.js";
import type { Plan } from "./plan.js";
import type { Preset } from "../../contract/presets.js";
import { voiceNote } from "./voice.js";

const FORMS: Record<Preset, string> = {
  paragraphs: "paragraphs, no subheadings",
  sections: "introduction, sections, conclusion",
  detailed: "in-depth guide: takeaways, sections with subsections, conclusion, FAQ",
  listicle: "numbered list, one section per item",
  "how-to": "step-by-step how-to, one section per step, headings start with a verb",
};

/**
 * The one prompt of an article. The answer that follows holds the outline (as JSON for
 * chat models, as lines for plain ones), then the article in Markdown: one continuing
 * answer, so the prompt is evaluated once and every word sees the outline and all the
 * text before it.
 */
export function articlePrompt(plan: Plan, format: "json" | "lines"): Prompt {
  const request = plan.request;
  const keywords = [plan.primary, ...plan.secondary];
  const form =
    request.structureRequested !== request.structure ? `${FORMS[plan.preset]} ("${request.structureRequested}")` : FORMS[plan.preset];
  const outline = format === "json" ? "JSON" : "lines";
  const { profile } = plan.style;
  const voice = [plan.style.voice, profile ? voiceNote(profile) : undefined].filter(Boolean).join(" ");
  // Short on purpose: every prompt token is evaluated before the first word. The keywords need no quotes (a keyword
  // holds no comma) and no note on the focus (the first is the one code steers most); the outline's labels say its fields.
  return {
    system: `You write ${plan.languageName} web articles in a ${request.tone} tone.${voice ? ` Style: ${voice}` : ""}`,
    user:
      `Article: ${request.topic}\nKeywords: ${keywords.join(", ")}\nForm: ${form}; about ${request.length} words\nOutline as ${outline}, then the ` +
      `article in Markdown.`,
    completion: `${request.topic}. Keywords: ${keywords.map((k) => `"${k}"`).join(", ")}.\n\n`,
  };
}
