import type { Writer } from "../model/backend.js";
import type { AvoidList } from "./avoid.js";
import { GrammarBuilder, type FieldShape } from "./grammar.js";
import type { Plan, PlannedSection } from "./plan.js";
import type { OutlineEntry } from "./response.js";
import { capitalise, countPhrase, displayWidth, normaliseSentence, wordSpans } from "./text.js";

/** The planned article as the model wrote it: title, description and every heading. */
export interface Outline {
  title: string;
  metaDescription: string;
  /** One entry per planned section: its model-written heading (null when it has none) and H3s. */
  sections: Array<{ heading: string | null; subheadings: string[] }>;
}

/** What a field of the outline is. */
type Role =
  | { kind: "title" }
  | { kind: "description" }
  | { kind: "heading"; section: number }
  | { kind: "subheading"; section: number; index: number };

type OutlineItem = { literal: string } | { field: FieldShape; role: Role };

/** Most display columns of a title (a wide CJK character counts as two). */
export const TITLE_MAX = 60;
/** Display columns a meta description has, at least and at most. */
export const DESCRIPTION = { min: 120, max: 156 } as const;
/** Times the model may rewrite one field that breaks a rule (too long, a repeated heading). */
const REWRITES = 3;
/** Generation steps one outline may take in all, rewrites and resumptions after a cut-off answer included. */
const STEPS = 16;

/** What writing the outline needs. */
export interface WriteOutlineOptions {
  plan: Plan;
  writer: Writer;
  /** JSON for chat models, lines for plain ones. */
  format: "json" | "lines";
  seed: number;
  /** Phrases no field may hold: a field that completes one is written again. */
  avoid: AvoidList;
  /** Stops the work between two tokens. @default none */
  signal?: AbortSignal;
}

/**
 * One grammar-constrained answer plans the whole outline: the title (keyword in its first
 * half, at most 60 columns, ending on a whole word), the meta description, the H2s,
 * H3s and FAQ questions, the keyword placed in the headings the plan marks. Chat models
 * answer a JSON object, plain models lines. A field that still breaks a rule (a repeated
 * heading, a description out of 120–156 columns) is cut and the model writes it again,
 * up to a few times, then the fields after it; a field that completes a banned phrase is
 * cut the moment it does. What still fails is reported by the analyser, never patched.
 */
export async function writeOutline(options: WriteOutlineOptions): Promise<Outline> {
  const { plan, writer, format, seed, avoid, signal } = options;
  const sizes: Sizes = plan.spaced ? { title: [3, 8], description: [16, 28] } : { title: [3, 12], description: [31, 38] };
  let items = outlineItems(plan, format, sizes);
  const start = writer.text.length;
  let from = 0;
  let values = new Map<number, string>();
  const rewrites = new Map<number, number>();
  for (let attempt = 0; attempt < STEPS; attempt++) {
    let rest = items.slice(from);
    // Fixed text before the first field to write (the opening, a given title) is forced, not sampled under the grammar.
    while (rest[0] && "literal" in rest[0]) {
      writer.append(rest[0].literal);
      rest = rest.slice(1);
    }
    if (!rest.length) break;
    const maxTokens = 32 + rest.reduce((n, item) => n + ("field" in item ? item.field.words[1] * 6 : item.literal.length), 0);
    const grammar = new GrammarBuilder(plan.spaced).add(rest).build();
    let banned: number | undefined;
    for await (const piece of writer.generate({ grammar, maxTokens, seed: (seed + attempt * 7919) >>> 0, signal })) {
      const match = avoid.completedIn(writer.text, writer.text.length - piece.length);
      if (match && match.start >= start) {
        banned = match.start - start;
        break;
      }
    }
    const parsed = parseOutline(items, writer.text.slice(start));
    values = parsed.values;
    if (banned !== undefined) {
      // The field that holds the phrase is written again, from its start, with another seed.
      from = fieldAt(items, parsed.offsets, banned);
      writer.truncate(start + parsed.offsets.get(from)!);
      continue;
    }
    // A field that keeps breaking its rule after its rewrites stays as written: the report says so.
    const failing = firstFailing(plan, items, values, (i) => (rewrites.get(i) ?? 0) >= REWRITES);
    if (failing === undefined) {
      if (parsed.broken === undefined) break;
      // The answer stopped short (out of tokens): it goes on from the first piece not written whole.
      from = parsed.broken;
      writer.truncate(start + parsed.offsets.get(from)!);
      continue;
    }
    rewrites.set(failing, (rewrites.get(failing) ?? 0) + 1);
    // A title or description of the wrong length is asked again in as many words as fit, at the model's own word width.
    const item = items[failing] as { role: Role };
    const value = values.get(failing);
    if (value && (item.role.kind === "title" || item.role.kind === "description")) {
      resize(sizes, item.role.kind, value, plan);
      items = outlineItems(plan, format, sizes);
    }
    from = failing;
    writer.truncate(start + parsed.offsets.get(failing)!);
  }
  return outlineFrom(plan, items, values, avoid);
}

/** The last item that starts at or before `offset`: the field a banned phrase was found in. */
function fieldAt(items: readonly OutlineItem[], offsets: Map<number, number>, offset: number): number {
  let found = 0;
  for (const [i, at] of offsets) if (at <= offset && "field" in items[i]!) found = i;
  return found;
}

/** Words the title and the description may have. */
interface Sizes {
  title: [number, number];
  description: [number, number];
}

/**
 * Fit a field's size to the columns it may have, at the width per unit the model just wrote:
 * a unit is a word in spaced scripts, two characters in the others (as the grammar counts them).
 */
function resize(sizes: Sizes, field: keyof Sizes, value: string, plan: Plan): void {
  // The grammar's unit of unspaced scripts is a character (a space before one goes with it): two make a "word".
  const units = plan.spaced ? wordSpans(value, plan.request.language).length : [...value.replaceAll(" ", "")].length / 2;
  const perUnit = (displayWidth(value) + (plan.spaced ? 1 : 0)) / Math.max(1, units);
  const [min, max] = field === "title" ? [10, TITLE_MAX] : [DESCRIPTION.min, DESCRIPTION.max];
  const most = Math.max(3, Math.floor((max + 1) / perUnit));
  sizes[field] = [Math.min(most, Math.max(3, Math.ceil((min + 1) / perUnit))), most];
}

/** The items of the answer: fixed punctuation and the fields the model writes. */
function outlineItems(plan: Plan, format: "json" | "lines", sizes: Sizes): OutlineItem[] {
  const { request, primary } = plan;
  const json = format === "json";
  const items: OutlineItem[] = [];
  const lit = (text: string) => {
    const last = items.at(-1);
    if (last && "literal" in last) last.literal += text;
    else items.push({ literal: text });
  };
  const given = (value: string) => (json ? JSON.stringify(value).slice(1, -1) : value);
  const field = (shape: FieldShape, role: Role) => items.push({ field: shape, role });

  lit(json ? '{"title": "' : "Title: ");
  if (request.seo.title) lit(given(request.seo.title));
  else field({ words: sizes.title, keyword: primary, before: 2 }, { kind: "title" });
  lit(json ? '", "description": "' : "\nDescription: ");
  if (request.seo.description) lit(given(request.seo.description));
  else field({ words: sizes.description, keyword: primary, before: 3, end: "." }, { kind: "description" });
  lit(json ? '"' : "");

  const heading = (keyword: boolean): FieldShape => (keyword ? { words: [2, 8], keyword: primary, before: 2 } : { words: [2, 8] });
  const question = (keyword: boolean): FieldShape => (keyword ? { words: [4, 12], keyword: primary, before: 4, end: "?" } : { words: [4, 12], end: "?" });
  const bodies = plan.sections.map((s, i) => [s, i] as const).filter(([s]) => s.heading);
  if (bodies.length) {
    lit(json ? ', "sections": [' : "");
    bodies.forEach(([section, i], n) => {
      lit(json ? `${n ? ", " : ""}{"heading": "` : `\n${n + 1}. `);
      field(heading(section.heading!.keyword), { kind: "heading", section: i });
      lit(json ? '"' : "");
      section.subheadings.forEach((sub, j) => {
        lit(json ? (j ? '", "' : ', "subsections": ["') : "\n   - ");
        field(heading(sub.keyword), { kind: "subheading", section: i, index: j });
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
      field(question(q.keyword), { kind: "subheading", section: faq, index: j });
    });
    lit(json ? '"]' : "");
  }
  lit(json ? "}" : "\n");
  return items;
}

/** Field values by item index, where each item starts, and the first item not written whole (none when the answer is complete). */
function parseOutline(items: readonly OutlineItem[], text: string) {
  const values = new Map<number, string>();
  const offsets = new Map<number, number>();
  let at = 0;
  for (const [i, item] of items.entries()) {
    offsets.set(i, at);
    if ("literal" in item) {
      if (!text.startsWith(item.literal, at)) return { values, offsets, broken: i };
      at += item.literal.length;
      continue;
    }
    // A field's characters never include the first character of the literal after it.
    const next = items[i + 1] as { literal: string };
    const end = text.indexOf(next.literal[0]!, at);
    if (end < 0) return { values, offsets, broken: i };
    values.set(i, text.slice(at, end));
    at = end;
  }
  return { values, offsets, broken: undefined };
}

/** The first written field that breaks a rule and may still be rewritten. */
function firstFailing(plan: Plan, items: readonly OutlineItem[], values: Map<number, string>, settled: (index: number) => boolean): number | undefined {
  const language = plan.request.language;
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    if (!("field" in item)) continue;
    const value = values.get(i);
    if (value === undefined) return undefined;
    const role = item.role;
    let fits = true;
    if (role.kind === "title") fits = titleFits(value.replace(/\.$/u, ""), plan.primary, language);
    if (role.kind === "description") fits = displayWidth(value) >= DESCRIPTION.min && displayWidth(value) <= DESCRIPTION.max;
    if (role.kind === "heading" || role.kind === "subheading") {
      const key = normaliseSentence(value, language);
      fits = !seen.has(key);
      seen.add(key);
    }
    if (!fits && !settled(i)) return i;
  }
  return undefined;
}

/** At most 60 columns, the keyword in the first half, not ending on a small word. */
function titleFits(title: string, keyword: string, language: string): boolean {
  const at = title.toLocaleLowerCase(language).indexOf(keyword.toLocaleLowerCase(language));
  const last = wordSpans(title, language).at(-1)?.word.toLocaleLowerCase(language) ?? "";
  const width = displayWidth(title);
  return width <= TITLE_MAX && at >= 0 && displayWidth(title.slice(0, at)) <= width / 2 && countPhrase(title, keyword, language) === 1 && !DANGLING.has(last);
}

/** Words a title must not end on (a phrase cut short: "… and then they"). */
const DANGLING = new Set(
  "a an the and or but of in on at to for with by from as that then they he she it we you i his her their its our your is are was were be".split(" "),
);

function outlineFrom(plan: Plan, items: readonly OutlineItem[], values: Map<number, string>, avoid: AvoidList): Outline {
  const { request, language } = { request: plan.request, language: plan.request.language };
  const outline: Outline = {
    title: request.seo.title ?? "",
    metaDescription: request.seo.description ?? "",
    sections: plan.sections.map(() => ({ heading: null, subheadings: [] })),
  };
  for (const [i, item] of items.entries()) {
    if (!("field" in item)) continue;
    const role = item.role;
    // A heading or title keeps a "?" or "!" of its own, never a closing full stop; the description ends a sentence.
    const written = role.kind === "description" ? values.get(i)?.trim() : values.get(i)?.trim().replace(/\.$/u, "");
    // A field the model never finished (it ran out of steps) stays empty: a heading is then left out, as is one
    // still holding a banned phrase. A title or description keeps it, and the report says so.
    if (!written || (avoid.holds(written) && role.kind !== "title" && role.kind !== "description")) continue;
    const value = capitalise(written, language);
    if (role.kind === "title") outline.title = value;
    else if (role.kind === "description") outline.metaDescription = value;
    else if (role.kind === "heading") outline.sections[role.section]!.heading = value;
    else outline.sections[role.section]!.subheadings[role.index] = value;
  }
  return outline;
}

/** The heading a section shows: its label, or the model's heading (numbered in lists and how-tos). */
export function headingText(section: PlannedSection, written: string | null): string | null {
  if (section.label) return section.label;
  if (!written) return null;
  return section.number === null ? written : `${section.number}. ${written}`;
}

/**
 * The outline as planned: the headings the article will show (`shown: true`), or, when it
 * shows none, the planned sections by their heading or label (`shown: false`).
 */
export function plannedOutline(plan: Plan, outline: Outline): OutlineEntry[] {
  const shown = plan.subheadings;
  const entries: OutlineEntry[] = [];
  for (const [i, section] of plan.sections.entries()) {
    const written = outline.sections[i]!;
    const fallback = section.kind === "conclusion" ? plan.labels.conclusion : section.kind === "introduction" ? plan.labels.introduction : null;
    const text = headingText(section, written.heading) ?? (shown ? null : fallback);
    if (text) entries.push({ level: 2, text, shown });
    for (const sub of written.subheadings) entries.push({ level: 3, text: sub, shown });
  }
  return entries;
}
