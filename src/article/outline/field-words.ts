/**
 * The words an outline field's grammar refuses besides banned ones: a function word of the
 * language as its last word (no title or heading ends "… that the"), and, for a heading that is
 * no question, a first word beginning with one that (or whose stem) already opens two earlier
 * headings ("Oil the pan", "Oiling it" leave no "Oils …" for a third; in a script without spaces,
 * no field beginning with it: "観葉植物の水やり", "観葉植物の土" leave no "観葉植物…" for a third).
 */
import { type GrammarOptions, headingGrammar, withoutStop } from "../gbnf/grammar.js";
import type { Plan } from "../plan/plan.js";
import { sentenceCaseHeadings } from "../plan/voice.js";
import { finalCharacters, functionWords, openingWord } from "../text/function-words.js";
import type { OutlineItem } from "./outline-answer.js";

/** Where in the outline a field stands: its items, the fields written so far, the field's index. */
export interface FieldPlace {
  items: readonly OutlineItem[];
  values: ReadonlyMap<number, string>;
  index: number;
  language: string;
}

const isHeading = (item: OutlineItem | undefined): boolean =>
  item !== undefined && "field" in item && (item.role.kind === "heading" || item.role.kind === "subheading");

/** What no title or heading of a language ends on: its function words, or in a script without spaces its one-character particles. */
export function fieldEnds(language: string): GrammarOptions {
  const characters = finalCharacters(language);
  return { finals: [...functionWords(language)], ...(characters ? { finalCharacters: characters } : {}) };
}

/** The grammar options of the field at `place.index`. */
export function fieldWords(place: FieldPlace): GrammarOptions {
  const { items, values, index, language } = place;
  const ends = fieldEnds(language);
  const item = items[index];
  if (!isHeading(item) || (item && "field" in item && item.field.end === "?")) return ends;
  // Each opening stem: how many earlier headings open with it, and the words they open with.
  const seen = new Map<string, { count: number; words: Set<string> }>();
  for (const [i, earlier] of items.entries()) {
    const value = i < index && isHeading(earlier) ? values.get(i) : undefined;
    const first = value && !value.trimEnd().endsWith("?") ? openingWord(value, language) : undefined;
    if (!first) continue;
    const entry = seen.get(first.stem) ?? { count: 0, words: new Set<string>() };
    seen.set(first.stem, { count: entry.count + 1, words: entry.words.add(first.word) });
  }
  // The words themselves and their stem ("oil" of "oiling", "poppi" of "Poppy"), so no form of them opens a third.
  const openings = [...seen.entries()].filter(([, entry]) => entry.count >= 2).flatMap(([key, entry]) => [...entry.words, key]);
  return { ...ends, openings };
}

/**
 * One heading written on its own (a refresh's, at a spot of the article): the outline's heading
 * grammar, the keyword in its first words when `keyword`, refusing the `refused` single words,
 * ending as every outline field ends, in sentence case for a house voice that writes so; and how
 * the text written under it reads (its stop left out).
 */
export function headingField(
  plan: Plan,
  keyword: boolean,
  refused: readonly string[],
): { grammar: string; read: (text: string) => string } {
  const lower = sentenceCaseHeadings(plan.style.profile);
  const grammar = headingGrammar(plan.primary, keyword, plan.spaced, { refused, ...fieldEnds(plan.request.language), lower });
  return { grammar, read: withoutStop };
}
