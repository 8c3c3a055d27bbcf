/**
 * The outline answer's shape: the title, the description and every heading as fields between
 * fixed labels and punctuation (a JSON object for chat models, lines for plain ones), and the
 * reading of an answer back into its fields.
 */
import { headingShape, type FieldShape } from "../gbnf/grammar.js";
import { sentenceCaseHeadings } from "../plan/voice.js";
import type { Plan } from "../plan/plan.js";

/** What a field of the outline is. */
export type Role =
  | { kind: "title" }
  | { kind: "description" }
  | { kind: "heading"; section: number }
  | { kind: "subheading"; section: number; index: number };

/** One part of the outline answer, in order: fixed text code writes, or a field the model writes. */
export type OutlineItem = { literal: string } | { field: FieldShape; role: Role };

/** The last item that starts at or before `offset`: the field a banned phrase was found in. */
export function fieldAt(items: readonly OutlineItem[], offsets: Map<number, number>, offset: number): number {
  let found = 0;
  for (const [i, at] of offsets) if (at <= offset && "field" in items[i]!) found = i;
  return found;
}

/** Words the title and the description may have. */
export interface Sizes {
  title: [number, number];
  description: [number, number];
}

/** The title and description the request gives (an edited outline's over `seo`'s), written verbatim. */
export function givenTexts(plan: Plan): { title?: string | undefined; description?: string | undefined } {
  const { seo, outline } = plan.request;
  return { title: outline?.title ?? seo.title, description: outline?.description ?? seo.description };
}

/** The items of the answer: fixed punctuation and the fields the model writes. */
export function outlineItems(plan: Plan, format: "json" | "lines", sizes: Sizes): OutlineItem[] {
  const { primary } = plan;
  const json = format === "json";
  const items: OutlineItem[] = [];
  const lit = (text: string) => {
    const last = items.at(-1);
    if (last && "literal" in last) last.literal += text;
    else items.push({ literal: text });
  };
  const given = (value: string) => (json ? JSON.stringify(value).slice(1, -1) : value);
  // A model's tokens carry their space before the word: in a JSON string the first may keep it.
  const field = (shape: FieldShape, role: Role) => items.push({ field: json ? { ...shape, spaceBefore: true } : shape, role });

  const { title, description } = givenTexts(plan);
  lit(json ? '{"title": "' : "Title: ");
  if (title) lit(given(title));
  else field({ words: sizes.title, keyword: primary, before: 2 }, { kind: "title" });
  lit(json ? '", "description": "' : "\nDescription: ");
  if (description) lit(given(description));
  else field({ words: sizes.description, keyword: primary, before: 3, end: "." }, { kind: "description" });
  lit(json ? '"' : "");

  // A house voice in sentence case keeps every word of a heading past its first in lower case.
  const lower = sentenceCaseHeadings(plan.style.profile);
  const heading = (keyword: boolean) => headingShape(primary, keyword, lower);
  const question = (keyword: boolean): FieldShape => ({
    ...(keyword ? { words: [4, 12], keyword: primary, before: 4, end: "?" } : { words: [4, 12], end: "?" }),
    ...(lower ? { lower } : {}),
  });
  const bodies = plan.sections.map((s, i) => [s, i] as const).filter(([s]) => s.heading);
  if (bodies.length) {
    lit(json ? ', "sections": [' : "");
    bodies.forEach(([section, i], n) => {
      lit(json ? `${n ? ", " : ""}{"heading": "` : `\n${n + 1}. `);
      const own = section.heading!.given;
      if (own) lit(given(own));
      else field(heading(section.heading!.keyword), { kind: "heading", section: i });
      lit(json ? '"' : "");
      // A FAQ's questions come after the sections (its heading is among them only when its label is banned).
      (section.kind === "faq" ? [] : section.subheadings).forEach((sub, j) => {
        lit(json ? (j ? '", "' : ', "subsections": ["') : "\n   - ");
        if (sub.given) lit(given(sub.given));
        else field(heading(sub.keyword), { kind: "subheading", section: i, index: j });
        if (json && j === section.subheadings.length - 1) lit('"]');
      });
      lit(json ? "}" : "");
    });
    lit(json ? "]" : "");
  }
  const faq = plan.sections.findIndex((s) => s.kind === "faq");
  if (faq >= 0) {
    plan.sections[faq]!.subheadings.forEach((q, j) => {
      lit(json ? (j ? '", "' : ', "faq": ["') : "\nFAQ: ");
      if (q.given) lit(given(q.given));
      else field(question(q.keyword), { kind: "subheading", section: faq, index: j });
    });
    lit(json ? '"]' : "");
  }
  lit(json ? "}" : "\n");
  return items;
}

/**
 * Field values by item index, where each item starts, the spaces a field opened with before its
 * value, and the first item not written whole (none when the answer is complete).
 */
export function parseOutline(items: readonly OutlineItem[], text: string) {
  const values = new Map<number, string>();
  const offsets = new Map<number, number>();
  const opened = new Map<number, number>();
  let at = 0;
  for (const [i, item] of items.entries()) {
    offsets.set(i, at);
    if ("literal" in item) {
      if (!text.startsWith(item.literal, at)) return { values, offsets, opened, broken: i };
      at += item.literal.length;
      continue;
    }
    // A field's characters never include the first character of the literal after it.
    const next = items[i + 1] as { literal: string };
    const end = text.indexOf(next.literal[0]!, at);
    if (end < 0) return { values, offsets, opened, broken: i };
    // The space a field opened with is no part of its value, which starts after it.
    const opening = /^ */u.exec(text.slice(at, end))![0].length;
    if (opening) opened.set(i, opening);
    values.set(i, text.slice(at + opening, end));
    at = end;
  }
  return { values, offsets, opened, broken: undefined };
}
