/**
 * The one budget loop: how the request's length is shared among the sections, for the body pass
 * as it writes and for a drafted outline as it plans (the budgets a user then edits).
 */
import type { Outline } from "../outline/outline.js";
import { headingText } from "../outline/outline.js";
import type { Plan } from "../plan/plan.js";
import { countWords } from "../text/text.js";

/** Words each FAQ answer keeps for itself until it starts: about a sentence. */
export const ANSWER_ROOM = 8;

/** Share of the requested length the pass aims at: the ±10 % rule has room above, "at least N words" none below. */
const LENGTH_AIM = 1.02;

/** Fewest prose words a section is given. */
const LEAST_WORDS = 8;

/**
 * Words outside the prose: visible headings and FAQ questions (they count as body words), and the
 * room each FAQ answer keeps (released when the answer starts): prose before a long FAQ cannot
 * take the last answer's words, and no question is left without one.
 */
export function fixedWords(plan: Plan, outline: Outline): number {
  const { language } = plan.request;
  let words = 0;
  for (const [i, section] of plan.sections.entries()) {
    const written = outline.sections[i]!;
    const heading = headingText(section, written.heading);
    if (plan.subheadings && heading) words += countWords(heading, language);
    if (plan.subheadings || section.kind === "faq") words += written.subheadings.reduce((n, h) => n + countWords(h, language), 0);
    if (section.kind === "faq") words += written.subheadings.length * ANSWER_ROOM;
  }
  return words;
}

/**
 * Each section in turn gets its share of the words still left (an edited outline's sections their
 * own budgets), after `fixed` words outside the prose; `spend` writes or plans the section and
 * says how many prose words it took: the body pass the words it wrote, a draft the budget itself.
 */
export async function shareBudgets(
  plan: Plan,
  fixed: number,
  spend: (i: number, budget: number) => Promise<number> | number,
): Promise<void> {
  let remaining = Math.round(plan.request.length * LENGTH_AIM) - fixed;
  let shares = plan.sections.reduce((n, s) => n + s.share, 0);
  for (const [i, section] of plan.sections.entries()) {
    // An edited outline's budgets are the user's: each section is written to its own.
    const budget = section.budgets
      ? section.budgets.reduce((n, b) => n + b, 0)
      : Math.max(LEAST_WORDS, Math.round((remaining * section.share) / shares));
    shares -= section.share;
    remaining -= await spend(i, budget);
  }
}
