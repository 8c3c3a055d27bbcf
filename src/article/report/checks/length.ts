/** Length checks: the title, the meta description and the body against the request. */
import { LENGTH_TOLERANCE } from "../../plan/limits.js";
import type { CheckId } from "../../../contract/checks.js";
import { type Measure, na, plural, round, verdict } from "./article.js";

/** Length in characters as a person counts them (code points, so emoji and CJK count once). */
const characters = (text: string) => [...text].length;

/** The length checks by id. */
export const lengthChecks = {
  // Yoast and Rank Math both cut snippets at about 156 characters; under 120 wastes the space.
  "meta-description-length": (article) => {
    const length = characters(article.input.metaDescription);
    return verdict(length >= 120 && length <= 156, `The meta description is ${plural(length, "character")} long (target 120–156).`);
  },

  // Rank Math: titles over 60 characters are truncated in results.
  "title-length": (article) => {
    const length = characters(article.input.title);
    return verdict(length >= 10 && length <= 60, `The title is ${plural(length, "character")} long (target 10–60).`);
  },

  // Measured against the request: a 100-word article is not failed for being under 300 words.
  // Without a requested length (an article analysed as it is) the target is the plain 300.
  "text-length": (article) => {
    const requested = article.input.targetLength;
    const target = requested > 0 ? Math.min(300, Math.round((requested * (100 - LENGTH_TOLERANCE)) / 100)) : 300;
    return verdict(article.wordCount >= target, `The body has ${plural(article.wordCount, "word")} (target at least ${target}).`);
  },

  "length-target": (article) => {
    const target = article.input.targetLength;
    if (target <= 0) return na("No length was requested.");
    const offBy = ((article.wordCount - target) / target) * 100;
    return verdict(
      Math.abs(offBy) <= LENGTH_TOLERANCE,
      `The body has ${plural(article.wordCount, "word")}, ${round(Math.abs(offBy), 1)}% ${offBy < 0 ? "under" : "over"} the ${target} requested (target ` +
        `±${LENGTH_TOLERANCE}%).`,
    );
  },
} satisfies Partial<Record<CheckId, Measure>>;
