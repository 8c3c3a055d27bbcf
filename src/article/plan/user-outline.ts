/**
 * An edited outline's promises checked against each other before anything is written: its
 * headings nest (an H3 under an H2), each budget leaves room for a sentence or two, and the
 * budgets with the headings' own words keep the request's length within its tolerance.
 */
import { LENGTH_TOLERANCE, RUN_BUDGET, SECTION_MIN_WORDS } from "./limits.js";
import type { ConflictingField } from "./conflicts.js";
import { countWords } from "../text/text.js";

/** What {@link outlineFaults} reads of a request. */
export interface OutlineInput {
  length: number;
  language: string;
  seo: { headingTags: boolean };
  outline?:
    | { introduction: number; headings: ReadonlyArray<{ level: 2 | 3; text: string; words: number; kind?: string | undefined }> }
    | undefined;
}

/** Prose and heading words an edited outline plans: what the article's body words will be. */
function outlineWords(outline: NonNullable<OutlineInput["outline"]>, language: string): number {
  return outline.headings.reduce((n, h) => n + h.words + countWords(h.text, language), outline.introduction);
}

/** Every field of an edited outline that breaks a promise: its path and why. Empty without an outline. */
export function outlineFaults(request: OutlineInput): ConflictingField[] {
  const { outline } = request;
  if (!outline) return [];
  const faults: ConflictingField[] = [];
  const fault = (keys: Array<string | number>, message: string) =>
    faults.push({ path: keys.map((k, i) => (typeof k === "number" ? `[${k}]` : i ? `.${k}` : k)).join(""), keys, message });
  if (!request.seo.headingTags) fault(["seo", "headingTags"], "an outline's headings are shown: headingTags must be true with an outline");
  if (outline.introduction < SECTION_MIN_WORDS)
    fault(["outline", "introduction"], `the introduction needs at least ${SECTION_MIN_WORDS} words`);
  outline.headings.forEach((heading, i) => {
    const next = outline.headings[i + 1];
    const parent = outline.headings.slice(0, i).findLast((h) => h.level === 2);
    const leaf = !next || next.level <= heading.level;
    if (heading.level === 3 && !parent) fault(["outline", "headings", i], "an H3 must come after an H2");
    if (heading.level === 3 && heading.kind) fault(["outline", "headings", i], "kind belongs to an H2");
    if (heading.level === 3 && parent?.kind === "takeaways")
      fault(["outline", "headings", i], "key takeaways are a list: their H2 has no H3");
    if (heading.words > RUN_BUDGET)
      fault(
        ["outline", "headings", i],
        `a section holds at most ${RUN_BUDGET} words without a subheading (it has ${heading.words}): add an H3`,
      );
    if ((leaf || heading.words > 0) && heading.words < SECTION_MIN_WORDS)
      fault(["outline", "headings", i], `a section needs at least ${SECTION_MIN_WORDS} words (it has ${heading.words})`);
  });
  const planned = outlineWords(outline, request.language);
  const slack = (request.length * LENGTH_TOLERANCE) / 100;
  if (Math.abs(planned - request.length) > slack) {
    // The heading whose budget carries the total past the length, or the whole list when it falls short.
    let running = outline.introduction;
    const over = outline.headings.findIndex((h) => (running += h.words + countWords(h.text, request.language)) > request.length + slack);
    const keys = over >= 0 ? ["outline", "headings", over] : ["outline", "headings"];
    fault(keys, `the budgets and headings plan ${planned} words, more than ${LENGTH_TOLERANCE} % from length ${request.length}`);
  }
  return faults;
}
