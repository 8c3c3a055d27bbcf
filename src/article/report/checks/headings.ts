/** Heading checks: one H1, levels in order, distinct subheadings spread over the text. */
import type { Block } from "../../body/document.js";
import { RUN_WORDS } from "../../plan/limits.js";
import { normaliseSentence } from "../../text/text.js";
import type { CheckId } from "../../../contract/checks.js";
import { type Heading, type Measure, na, plural, verdict, withHeadings } from "./article.js";

/** The heading checks by id. */
export const headingChecks = {
  "single-h1": withHeadings((article) => {
    const h1s = article.headings.filter((heading) => heading.depth === 1).length + (article.input.hasTitle ? 1 : 0);
    if (h1s !== 1) return verdict(false, `The article has ${plural(h1s, "H1 heading")} (target exactly 1, first).`);
    if (!article.input.hasTitle) return verdict(false, "The H1 is not the title at the top of the article.");
    return verdict(true, "The article has exactly 1 H1, and it comes first.");
  }),

  "no-headings": (article) => {
    if (article.input.headingTags) return na("Heading tags are on, so headings are expected.");
    const headings = article.headings.length + (article.input.hasTitle ? 1 : 0);
    return verdict(headings === 0, `The article has ${plural(headings, "heading")} (target 0, because heading tags are off).`);
  },

  "heading-hierarchy": withHeadings((article) => {
    const skips = skippedLevels(article.headings);
    const first = skips[0];
    return verdict(
      first === undefined,
      first === undefined
        ? `No heading level is skipped (${plural(article.headings.length, "subheading")} checked).`
        : `Found ${plural(skips.length, "heading")} skipping a level (first: H${first.heading.depth} “${first.heading.text}” after H${first.after}).`,
    );
  }),

  "distinct-headings": withHeadings((article) => {
    if (article.headings.length === 0) return na("There are no subheadings to compare.");
    const seen = new Set<string>();
    const repeated = article.headings.filter((heading) => {
      const key = normaliseSentence(heading.text, article.input.language);
      if (seen.has(key)) return true;
      seen.add(key);
      return false;
    });
    return verdict(
      repeated.length === 0,
      repeated[0] === undefined
        ? `Every subheading is different (${plural(article.headings.length, "subheading")} checked).`
        : `Found ${plural(repeated.length, "subheading")} repeating an earlier one (first: “${repeated[0].text}”).`,
    );
  }),

  "subheading-distribution": withHeadings((article) => {
    if (article.input.preset === "paragraphs") return na("The paragraphs preset has no subheadings to distribute.");
    const longest = Math.max(0, ...textRuns(article.body));
    return verdict(
      longest <= RUN_WORDS,
      `The longest text without a subheading has ${plural(longest, "word")} (target at most ${RUN_WORDS}).`,
    );
  }),
} satisfies Partial<Record<CheckId, Measure>>;

/** Body headings that go more than one level deeper than the heading before (the H1 title is level 1). */
function skippedLevels(headings: readonly Heading[]): { heading: Heading; after: number }[] {
  const skips: { heading: Heading; after: number }[] = [];
  let previous = 1;
  for (const heading of headings) {
    if (heading.depth > previous + 1) skips.push({ heading, after: previous });
    previous = heading.depth;
  }
  return skips;
}

/** Words of each stretch of prose between headings, the introduction included. */
function textRuns(body: readonly Block[]): number[] {
  const runs = [0];
  for (const block of body) {
    if (block.kind === "heading") runs.push(0);
    else runs[runs.length - 1]! += block.words;
  }
  return runs;
}
