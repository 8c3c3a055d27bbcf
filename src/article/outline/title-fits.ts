/**
 * Whether a title the model wrote fits, or is written again (outline.ts judges each field once
 * written), and a field of a script without spaces cut back to its whole words.
 */
import { danglingEnd } from "../text/function-words.js";
import { type FieldShape, unspacedFull } from "../gbnf/grammar.js";
import { countPhrase, displayWidth, wordSpans } from "../text/text.js";
import type { Plan } from "../plan/plan.js";

/** Most display columns of a title (a wide CJK character counts as two). */
export const TITLE_MAX = 60;

/** At most 60 columns, the keyword in the first half, not ending on a small word nor a function word of its language. */
export function titleFits(title: string, keyword: string, language: string): boolean {
  const at = title.toLocaleLowerCase(language).indexOf(keyword.toLocaleLowerCase(language));
  const last = wordSpans(title, language).at(-1)?.word.toLocaleLowerCase(language) ?? "";
  const width = displayWidth(title);
  return (
    width <= TITLE_MAX &&
    at >= 0 &&
    displayWidth(title.slice(0, at)) <= width / 2 &&
    countPhrase(title, keyword, language) === 1 &&
    !DANGLING.has(last) &&
    danglingEnd(title, language) === undefined
  );
}

/** Words a title must not end on (a phrase cut short: "… and then they"). */
const DANGLING = new Set(
  "a an the and or but of in on at to for with by from as that then they he she it we you i his her their its our your is are was were be".split(
    " ",
  ),
);

/**
 * A field of a script without spaces as its whole words: its grammar caps characters, so one that
 * ran to the cap may end inside a word ("… made sounds tog"); its last word (as `Intl.Segmenter`
 * reads the language, so CJK is cut between words) then goes; at the cap or not, a particle or a
 * Latin function word left last goes too ("… in the"), unless the keyword would lose a part.
 */
export function wholeWords(value: string, shape: FieldShape, language: string): string {
  // A question's mark (the field's closing punctuation) stays after whatever is cut before it.
  const mark = shape.end && value.endsWith(shape.end) ? shape.end : "";
  const words = value.slice(0, value.length - mark.length);
  const last = wordSpans(words, language).at(-1);
  if (!last || last.index === 0) return value;
  const trim = (text: string) => text.replace(/[\s、，,]+$/u, "");
  let cut = unspacedFull(shape, words) ? trim(words.slice(0, last.index)) : words;
  // A particle left last goes too ("…水やりと"), and a Latin function word: the grammar reads characters, not words.
  while (danglingEnd(cut, language) !== undefined) cut = trim(cut.slice(0, wordSpans(cut, language).at(-1)!.index));
  const keyword = shape.keyword?.toLocaleLowerCase(language);
  return !cut || (keyword && !cut.toLocaleLowerCase(language).includes(keyword)) ? value : `${cut}${mark}`;
}

/**
 * A title still wider than {@link TITLE_MAX} after its rewrites, cut back to its longest run of
 * whole words that fits and holds the keyword whole, without a dangling last word: the model's
 * words, fewer of them. A title that fits, or one whose keyword ends past the limit, is kept.
 */
export function narrowTitle(title: string, keyword: string, language: string): string {
  if (displayWidth(title) <= TITLE_MAX) return title;
  const at = title.toLocaleLowerCase(language).indexOf(keyword.toLocaleLowerCase(language));
  const spans = wordSpans(title, language).filter((w) => displayWidth(title.slice(0, w.index + w.word.length)) <= TITLE_MAX);
  while (spans.length) {
    const last = spans.at(-1)!;
    const end = last.index + last.word.length;
    const cut = title.slice(0, end);
    if (at >= 0 && end < at + keyword.length) break;
    const dangles = DANGLING.has(last.word.toLocaleLowerCase(language)) || danglingEnd(cut, language) !== undefined;
    if (!dangles || (at >= 0 && end === at + keyword.length)) return cut;
    spans.pop();
  }
  return title;
}

/**
 * Display columns per unit the model wrote: a unit is a word in spaced scripts, two
 * characters in the others (as the grammar counts them; a space before one goes with it).
 */
export function unitWidth(value: string, plan: Pick<Plan, "spaced" | "request">): number {
  const units = plan.spaced ? wordSpans(value, plan.request.language).length : [...value.replaceAll(" ", "")].length / 2;
  return (displayWidth(value) + (plan.spaced ? 1 : 0)) / Math.max(1, units);
}
