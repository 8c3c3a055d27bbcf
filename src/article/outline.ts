import type { Writer } from "../model/backend.js";
import { GrammarBuilder, type FieldShape, type Item } from "./grammar.js";
import type { Plan } from "./plan.js";
import { capitalise, countPhrase, normaliseSentence, wordSpans } from "./text.js";

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

export const TITLE_MAX = 60;
export const DESCRIPTION = { min: 120, max: 156 } as const;
/** Outline fields the model may rewrite when one breaks a rule (too long, a repeated heading). */
const REWRITES = 6;

/**
 * One grammar-constrained answer plans the whole outline: the title (keyword in its first
 * half, at most 60 characters, ending on a whole word), the meta description, the H2s,
 * H3s and FAQ questions, the keyword placed in the headings the plan marks. Chat models
 * answer a JSON object, plain models lines. A field that still breaks a rule (a repeated
 * heading, a description out of 120–156 characters) is cut and the model writes the rest
 * again, up to a few times; what still fails is reported by the analyser, never patched.
 */
export async function writeOutline(plan: Plan, writer: Writer, format: "json" | "lines", seed: number): Promise<Outline> {
  const items = outlineItems(plan, format);
  const start = writer.text.length;
  let from = 0;
  let values = new Map<number, string>();
  for (let attempt = 0; ; attempt++) {
    const rest = items.slice(from);
    const maxTokens = 32 + rest.reduce((n, item) => n + ("field" in item ? item.field.words[1] * 6 : item.literal.length), 0);
    for await (const _ of writer.generate({ grammar: new GrammarBuilder(plan.spaced).add(rest).build(), maxTokens, seed: (seed + attempt * 7919) >>> 0 })) {
      // The outline is read once complete.
    }
    const parsed = parseOutline(items, writer.text.slice(start));
    values = parsed.values;
    const failing = firstFailing(plan, items, values, parsed.complete);
    if (failing === undefined || attempt === REWRITES) break;
    from = failing;
    writer.truncate(start + parsed.offsets.get(failing)!);
  }
  return outlineFrom(plan, items, values);
}

/** The items of the answer: fixed punctuation and the fields the model writes. */
function outlineItems(plan: Plan, format: "json" | "lines"): OutlineItem[] {
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
  else field({ words: [3, 9], keyword: primary, before: 2 }, { kind: "title" });
  lit(json ? '", "description": "' : "\nDescription: ");
  if (request.seo.description) lit(given(request.seo.description));
  else field({ words: [16, 28], keyword: primary, before: 3, end: "." }, { kind: "description" });
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

/** Field values by item index, where each field starts, and whether the answer is whole. */
function parseOutline(items: readonly OutlineItem[], text: string) {
  const values = new Map<number, string>();
  const offsets = new Map<number, number>();
  let at = 0;
  for (const [i, item] of items.entries()) {
    if ("literal" in item) {
      if (!text.startsWith(item.literal, at)) return { values, offsets, complete: false };
      at += item.literal.length;
      continue;
    }
    offsets.set(i, at);
    // A field's characters never include the first character of the literal after it.
    const next = items[i + 1] as { literal: string };
    const end = text.indexOf(next.literal[0]!, at);
    if (end < 0) return { values, offsets, complete: false };
    values.set(i, text.slice(at, end));
    at = end;
  }
  return { values, offsets, complete: true };
}

/** The first field that breaks a rule or is missing, to be written again. */
function firstFailing(plan: Plan, items: readonly OutlineItem[], values: Map<number, string>, complete: boolean): number | undefined {
  const language = plan.request.language;
  const seen = new Set<string>();
  for (const [i, item] of items.entries()) {
    if (!("field" in item)) continue;
    const value = values.get(i);
    if (value === undefined) return complete ? undefined : i;
    const role = item.role;
    if (role.kind === "title" && !titleFits(value, plan.primary, language)) return i;
    if (role.kind === "description" && (value.length < DESCRIPTION.min || value.length > DESCRIPTION.max)) return i;
    if (role.kind === "heading" || role.kind === "subheading") {
      const key = normaliseSentence(value, language);
      if (seen.has(key)) return i;
      seen.add(key);
    }
  }
  return undefined;
}

/** At most 60 characters, the keyword in the first half, not ending on a small word. */
function titleFits(title: string, keyword: string, language: string): boolean {
  const at = title.toLocaleLowerCase(language).indexOf(keyword.toLocaleLowerCase(language));
  const last = wordSpans(title, language).at(-1)?.word.toLocaleLowerCase(language) ?? "";
  return title.length <= TITLE_MAX && at >= 0 && at <= title.length / 2 && countPhrase(title, keyword, language) === 1 && !DANGLING.has(last);
}

/** Words a title must not end on (a phrase cut short: "… and then they"). */
const DANGLING = new Set(
  "a an the and or but of in on at to for with by from as that then they he she it we you i his her their its our your is are was were be".split(" "),
);

function outlineFrom(plan: Plan, items: readonly OutlineItem[], values: Map<number, string>): Outline {
  const { request, language } = { request: plan.request, language: plan.request.language };
  const outline: Outline = {
    title: request.seo.title ?? "",
    metaDescription: request.seo.description ?? "",
    sections: plan.sections.map(() => ({ heading: null, subheadings: [] })),
  };
  for (const [i, item] of items.entries()) {
    if (!("field" in item)) continue;
    const value = capitalise((values.get(i) ?? "").trim(), language);
    const role = item.role;
    if (role.kind === "title") outline.title = value;
    else if (role.kind === "description") outline.metaDescription = value;
    else if (role.kind === "heading") outline.sections[role.section]!.heading = value;
    else outline.sections[role.section]!.subheadings[role.index] = value;
  }
  return outline;
}
