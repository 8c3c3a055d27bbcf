/** The outline check: an article written to an edited outline has its headings, in order, each section within its budget. */
import { SECTION_TOLERANCE } from "../../plan/limits.js";
import type { CheckId } from "../../../contract/checks.js";
import { type Measure, na, plural, verdict } from "./article.js";

/** Words of prose before the first heading, then under each heading up to the next. */
function sectionWords(article: Parameters<Measure>[0]): number[] {
  const words = [0];
  for (const block of article.body) {
    if (block.kind === "heading") words.push(0);
    else words[words.length - 1]! += block.words;
  }
  return words;
}

/** The outline check by id. */
export const outlineChecks = {
  outline: (article) => {
    const outline = article.input.outline;
    if (!outline) return na("No outline was given.");
    if (!article.input.headingTags)
      return verdict(false, `Heading tags are off, so none of the outline's ${plural(outline.headings.length, "heading")} is shown.`);
    const shown = article.headings.map((h) => `H${h.depth} ${h.text}`);
    const asked = outline.headings.map((h) => `H${h.level} ${h.text}`);
    const first = asked.findIndex((heading, i) => shown[i] !== heading);
    if (first >= 0 || shown.length !== asked.length) {
      const at = first >= 0 ? first : asked.length;
      return verdict(
        false,
        `Heading ${at + 1} is “${shown[at] ?? "missing"}”, the outline has “${asked[at] ?? "none"}” (${plural(shown.length, "heading")} written, ` +
          `${asked.length} planned).`,
      );
    }
    const budgets = [outline.introduction, ...outline.headings.map((h) => h.words)];
    const written = sectionWords(article);
    const off = budgets
      .map((budget, i) => ({ i, budget, words: written[i] ?? 0 }))
      .filter(({ budget, words }) => Math.abs(words - budget) > (budget * SECTION_TOLERANCE) / 100);
    const worst = off[0];
    if (worst) {
      const where = worst.i === 0 ? "the introduction" : `“${outline.headings[worst.i - 1]!.text}”`;
      return verdict(
        false,
        `${plural(off.length, "section")} off budget by more than ${SECTION_TOLERANCE}% (first: ${where} has ${plural(worst.words, "word")}, budget ` +
          `${worst.budget}).`,
      );
    }
    return verdict(
      true,
      `The ${plural(asked.length, "heading")} of the outline are written in order, each section within ${SECTION_TOLERANCE}% of its budget.`,
    );
  },
} satisfies Partial<Record<CheckId, Measure>>;
