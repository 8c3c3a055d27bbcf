import type { Writer } from "../../model/backend.js";
import type { AvoidList } from "../plan/avoid.js";
import { fieldGrammar, fieldImpossible, withoutStop, type FieldShape, type GrammarOptions } from "../gbnf/grammar.js";
import { fieldWords } from "./field-words.js";
import { narrowTitle, TITLE_MAX, titleFits, unitWidth, wholeWords } from "./title-fits.js";
import { fieldAt, givenTexts, outlineItems, parseOutline, type OutlineItem, type Role, type Sizes } from "./outline-answer.js";
import { TokenLedger } from "../ledger.js";
import { keywordSpot, keywordStart, keywordWords, leadShape, slotBefore, tailShape } from "./steer.js";
import type { Plan, PlannedSection } from "../plan/plan.js";
import { attemptSeed } from "../plan/seeds.js";
import { capitalise, displayWidth, normaliseSentence, wordSpans } from "../text/text.js";

/** The planned article as the model wrote it: title, description and every heading. */
export interface Outline {
  title: string;
  metaDescription: string;
  /** One entry per planned section: its model-written heading (null when it has none) and H3s. */
  sections: Array<{ heading: string | null; subheadings: string[] }>;
}

/** Most display columns of a title (a wide CJK character counts as two). */
export { TITLE_MAX } from "./title-fits.js";
/** Display columns a meta description has, at least and at most. */
export const DESCRIPTION = { min: 120, max: 156 } as const;
/** Times the model may rewrite one field that breaks a rule (too long, a repeated heading). */
const REWRITES = 3;
/** Generation steps one outline may take besides one per field: rewrites and resumptions after a cut-off answer. */
const EXTRA_STEPS = 16;

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
 * The model plans the outline in one answer, a grammar-constrained call per field: the title
 * (keyword in its first half, at most 60 columns, ending on a whole word), the meta
 * description, the H2s, H3s and FAQ questions, the keyword placed in the headings the plan
 * marks. Chat models answer a JSON object, plain models lines; the labels and punctuation
 * between fields are forced by code, so the model spends no step on them. A field that still breaks a rule (a repeated
 * heading, a description out of 120–156 columns) is judged the moment it is complete, cut,
 * and written again, up to a few times, before any field after it is written; a field that
 * completes a banned phrase is cut the moment it does. What still fails is reported by the analyser, never patched.
 */
export async function writeOutline(options: WriteOutlineOptions): Promise<Outline> {
  return new OutlinePass(options).run();
}

/** Where the next generation call starts: the next field, a field written again, or one the model mends (lengthens or ends sooner). */
interface Resume {
  from: number;
  /** The field at `from` stays and the model goes on with it in this shape. @default written from its start */
  extend?: FieldShape;
  /**
   * Where the text of the field that goes on (`extend`) starts in the answer: a banned phrase the
   * model completes may begin in the part already written ("her" kept, " mom" written on). @default where the call starts
   */
  begun?: number;
  /** Characters of the literal at `from` the model wrote already (its first ends the field before it). @default 0 */
  written?: number;
}

class OutlinePass {
  private readonly writer: TokenLedger;
  private readonly plan: Plan;
  private readonly sizes: Sizes;
  private items: OutlineItem[];
  /** Offset in the answer where the outline starts. */
  private readonly start: number;
  private values = new Map<number, string>();
  private readonly rewrites = new Map<number, number>();
  private resume: Resume = { from: 0 };

  constructor(private readonly o: WriteOutlineOptions) {
    this.plan = o.plan;
    this.writer = TokenLedger.of(o.writer);
    this.sizes = o.plan.spaced ? { title: [3, 8], description: [16, 28] } : { title: [3, 12], description: [31, 38] };
    this.items = outlineItems(o.plan, o.format, this.sizes);
    this.start = this.writer.text.length;
  }

  async run(): Promise<Outline> {
    const steps = this.items.filter((item) => "field" in item).length + EXTRA_STEPS;
    for (let attempt = 0; attempt < steps; attempt++) {
      const rest = this.rest();
      if (!rest.length) break;
      const banned = await this.generate(rest, attempt);
      if (!this.judge(banned)) break;
    }
    return outlineFrom(this.plan, this.items, this.values, this.o.avoid);
  }

  private settled(i: number): boolean {
    return (this.rewrites.get(i) ?? 0) >= REWRITES;
  }

  /**
   * The items still to write. The fixed text before the first field (the opening, a label, a
   * given title) is forced, not sampled: the model spends no step on what code already knows.
   */
  private rest(): OutlineItem[] {
    const { from, extend, written = 0 } = this.resume;
    let rest = this.items.slice(from);
    if (extend) return [{ field: extend, role: (rest[0] as { role: Role }).role }, ...rest.slice(1)];
    if (rest[0] && "literal" in rest[0]) {
      this.writer.append(rest[0].literal.slice(written));
      rest = rest.slice(1);
    }
    return rest;
  }

  /**
   * The next field, ending with the first character of the literal after it (the model's own
   * end of the field); returns where a banned phrase starts when one was completed. A field
   * that holds the keyword has it steered in (steer.ts): the model's lead, the keyword placed
   * by code, then the model's words after it. The field is judged once written: a rewrite costs
   * that field alone.
   */
  private async generate(rest: OutlineItem[], attempt: number): Promise<number | undefined> {
    const { writer, plan } = this;
    const [{ field, role }, after] = rest as [OutlineItem & { field: FieldShape; role: Role }, OutlineItem | undefined];
    const then = after && "literal" in after ? after.literal[0]! : undefined;
    const seed = attemptSeed(this.o.seed, attempt);
    const fieldStart = writer.text.length;
    // Only the field's own words are judged for banned phrases, all of them: the labels code writes ("Title: ") are no text of the article.
    const judged = this.resume.extend ? (this.resume.begun ?? fieldStart) : fieldStart;
    const words = fieldWords({
      items: this.items,
      values: this.values,
      index: this.items.length - rest.length,
      language: plan.request.language,
    });
    const lead = leadShape(field, plan.spaced);
    if (!lead) return (await this.call(field, then, seed, judged, words)).banned;
    const language = plan.request.language;
    const led = await this.call(lead, then, seed, judged, words, (piece) =>
      keywordSpot(writer.text.slice(fieldStart, writer.text.length - piece.length), piece, field, language),
    );
    if (led.banned !== undefined || led.spot === undefined) return led.banned;
    if (led.spot === "before") writer.cut(writer.text.length - led.piece!.length, "steering");
    // A keyword the model had begun goes on from its first word, never written twice.
    const written = writer.text.slice(fieldStart);
    const begun = keywordStart(written, field.keyword!, language);
    writer.cut(fieldStart + written.slice(0, begun).trimEnd().length, "steering");
    const slot = begun === written.length ? slotBefore(writer.text.slice(fieldStart), field, this.o.avoid.words, language) : undefined;
    const bridged = slot && (await this.call(slot, undefined, seed, judged, words));
    if (bridged && bridged.banned !== undefined) return bridged.banned;
    const leading = wordSpans(writer.text.slice(fieldStart), language).length;
    writer.append(`${writer.text.length > fieldStart ? " " : ""}${field.keyword}`);
    // A title keeps its keyword in its first half: at least as many words follow the keyword as lead to it.
    const tail = tailShape(field, leading + keywordWords(field.keyword!), role.kind === "title" ? leading : 0);
    return (await this.call(tail, then, seed, judged, words)).banned;
  }

  /**
   * One grammar-constrained call for a field's words; `spot` may stop it where the keyword goes.
   * A piece that begins a word past the shape's most is cut (with a comma before it), and the field
   * ends there: its required stop and the literal's first character, which the grammar held as its
   * only way on. A banned phrase it completes that starts at `judgedFrom` or later (the field's own
   * text) ends the call, with where the phrase starts.
   */
  private async call(
    shape: FieldShape,
    then: string | undefined,
    seed: number,
    judgedFrom: number,
    words: GrammarOptions,
    spot?: (piece: string) => "after" | "before" | undefined,
  ): Promise<{ banned?: number; spot?: "after" | "before"; piece?: string }> {
    const { writer, start, plan } = this;
    const overflow = plan.spaced && then !== undefined;
    const grammar = fieldGrammar({ ...shape, overflow }, then, plan.spaced, { refused: this.o.avoid.words, ...words });
    const impossible = fieldImpossible(shape, then, plan.spaced);
    const callStart = writer.text.length;
    const maxTokens = 32 + shape.words[1] * 6;
    for await (const piece of writer.generate({ grammar, maxTokens, seed, signal: this.o.signal, ...(impossible ? { impossible } : {}) })) {
      const pieceAt = writer.text.length - piece.length;
      const match = this.o.avoid.completedIn(writer.text, pieceAt);
      if (match && match.start >= judgedFrom) return { banned: match.start - start };
      const at = spot?.(piece);
      if (at) return { spot: at, piece };
      if (
        overflow &&
        piece.startsWith(" ") &&
        wordSpans(writer.text.slice(callStart, pieceAt), plan.request.language).length >= shape.words[1]
      ) {
        // A comma the model put before the word goes with it: the field ends on a whole word.
        writer.cut(writer.text.slice(callStart, pieceAt).endsWith(",") ? pieceAt - 1 : pieceAt, "outline");
        writer.append(`${shape.end ?? ""}${then}`);
        return {};
      }
    }
    return {};
  }

  private failing(values: Map<number, string>): number | undefined {
    return firstFailing(this.plan, this.items, values, (i) => this.settled(i));
  }

  /** Read the answer and decide where the next call starts; false when the outline is done. */
  private judge(banned: number | undefined): boolean {
    const parsed = parseOutline(this.items, this.writer.text.slice(this.start));
    this.values = parsed.values;
    const cutAt = (i: number) => this.writer.cut(this.start + parsed.offsets.get(i)!, "outline");
    if (banned !== undefined) {
      // The field that holds the phrase is written again, from its start, with another seed.
      this.resume = { from: fieldAt(this.items, parsed.offsets, banned) };
      cutAt(this.resume.from);
      return true;
    }
    // A field that keeps breaking its rule after its rewrites stays as written: the report says so.
    const failing = this.failing(this.values);
    if (failing === undefined) {
      if (parsed.broken === undefined) return false;
      // The literal after a field the model ended: code writes the rest of it.
      const begun = this.writer.text.slice(this.start + parsed.offsets.get(parsed.broken)!);
      const item = this.items[parsed.broken]!;
      if ("literal" in item && begun && item.literal.startsWith(begun)) {
        this.resume = { from: parsed.broken, written: begun.length };
        return true;
      }
      // The answer stopped short (out of tokens): it goes on from the first piece not written whole.
      this.resume = { from: parsed.broken };
      cutAt(parsed.broken);
      return true;
    }
    this.rewrites.set(failing, (this.rewrites.get(failing) ?? 0) + 1);
    const value = this.values.get(failing)!;
    const mended = this.mend(failing, value);
    const begun = this.start + parsed.offsets.get(failing)! + (parsed.opened.get(failing) ?? 0);
    this.resume = { from: failing, ...(mended ? { extend: mended.shape, begun } : {}) };
    if (mended) this.writer.cut(begun + mended.keep, "outline");
    else {
      this.resize(failing, value);
      cutAt(failing);
    }
    return true;
  }

  /**
   * A title or description of the wrong length is mended rather than thrown away: one too short
   * loses its full stop and the model adds words; one too long is cut back to a whole word that
   * leaves room for one more (the keyword kept), and the model ends it. The model's words before
   * the cut stay: `keep` is how many characters of the field do, `shape` what the model adds, in
   * as many words as fit at its own width per word. Undefined when the field is written again.
   */
  private mend(i: number, value: string): { keep: number; shape: FieldShape } | undefined {
    const role = (this.items[i] as { role: Role }).role;
    if (role.kind !== "title" && role.kind !== "description") return undefined;
    const [min, max] = role.kind === "title" ? [10, TITLE_MAX] : [DESCRIPTION.min, DESCRIPTION.max];
    const perUnit = unitWidth(value, this.plan);
    // Room is left for the widest word the model wrote: a model's words vary more than their mean.
    const { spaced } = this.plan;
    const spans = spaced ? wordSpans(value, this.plan.request.language) : [];
    const widest = Math.max(perUnit, ...spans.map((w) => displayWidth(w.word) + 1));
    let keep: number;
    if (role.kind === "description" && displayWidth(value) < min && value.endsWith(".")) keep = value.length - 1;
    // Also a description of a script without spaces, whose grammar counts characters, not columns ("SEO", "観").
    else if ((spaced || role.kind === "description") && displayWidth(value.replace(/[.!]$/u, "")) > max)
      keep = this.cutPoint(value, max - widest);
    else return undefined;
    const width = displayWidth(value.slice(0, keep));
    // A unit of a script without spaces is two characters of at most two columns each, its separator besides.
    const most = Math.floor((max - width - (spaced ? 0 : 2)) / (spaced ? widest : 4));
    // At least the room below the fewest columns, a unit of a script without spaces taking two or more.
    const least = Math.min(most, Math.max(1, Math.ceil((min + 1 - width) / (spaced ? perUnit : 2))));
    // Each added word fits in its share of the room (a space and perhaps a comma besides): the mended field fits.
    const letters = spaced ? Math.floor((max - width) / Math.max(1, most)) - 2 : 2;
    if (keep <= 0 || most < 1 || letters < 2) return undefined;
    const end = role.kind === "description" ? { end: "." } : {};
    return { keep, shape: { words: [least, most], ...end, continues: true, letters: Math.min(22, letters) } };
  }

  /** The end of the longest run of whole words of `value` at most `columns` wide that still holds the keyword whole; 0 when none. */
  private cutPoint(value: string, columns: number): number {
    const { primary, request } = this.plan;
    const keyword = value.toLocaleLowerCase(request.language).indexOf(primary.toLocaleLowerCase(request.language));
    let best = 0;
    for (const { word, index } of wordSpans(value, request.language)) {
      const end = index + word.length;
      if (displayWidth(value.slice(0, end)) > columns) break;
      if (keyword >= 0 && end >= keyword + primary.length) best = end;
    }
    return best;
  }

  /** A title or description of the wrong length is asked again in as many words as fit, at the model's own word width. */
  private resize(i: number, value: string): void {
    const role = (this.items[i] as { role: Role }).role;
    if (role.kind !== "title" && role.kind !== "description") return;
    const perUnit = unitWidth(value, this.plan);
    const [min, max] = role.kind === "title" ? [10, TITLE_MAX] : [DESCRIPTION.min, DESCRIPTION.max];
    const most = Math.max(3, Math.floor((max + 1) / perUnit));
    this.sizes[role.kind] = [Math.min(most, Math.max(3, Math.ceil((min + 1) / perUnit))), most];
    this.items = outlineItems(this.plan, this.o.format, this.sizes);
  }
}

/** The first written field that breaks a rule and may still be rewritten. */
function firstFailing(
  plan: Plan,
  items: readonly OutlineItem[],
  values: Map<number, string>,
  settled: (index: number) => boolean,
): number | undefined {
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

function outlineFrom(plan: Plan, items: readonly OutlineItem[], values: Map<number, string>, avoid: AvoidList): Outline {
  const language = plan.request.language;
  const given = givenTexts(plan);
  const outline: Outline = {
    title: given.title ?? "",
    metaDescription: given.description ?? "",
    // The user's own headings, verbatim: the one place code writes the article's words.
    sections: plan.sections.map((s) => ({
      heading: s.heading?.given ?? null,
      subheadings: s.subheadings.flatMap((h) => (h.given ? [h.given] : [])),
    })),
  };
  for (const [i, item] of items.entries()) {
    if (!("field" in item)) continue;
    const role = item.role;
    // The description ends a sentence; a heading or title never ends on its grammar's stop.
    const raw = values.get(i);
    const whole = raw === undefined ? undefined : role.kind === "description" ? raw.trim() : withoutStop(raw);
    // A title or heading in a script without spaces that ran to its grammar's last character may end inside a word.
    const written = whole && role.kind !== "description" && !plan.spaced ? wholeWords(whole, item.field, language) : whole;
    // A field the model never finished (it ran out of steps) stays empty: a heading is then left out, as is one
    // still holding a banned phrase. A title or description keeps it, and the report says so.
    if (!written || (avoid.holds(written) && role.kind !== "title" && role.kind !== "description")) continue;
    const value = capitalise(written, language);
    // A title still too wide after its rewrites keeps its whole words within the limit.
    if (role.kind === "title") outline.title = narrowTitle(value, plan.primary, language);
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

/** One entry of the outline an answer carries: a heading it shows, or a planned section when it shows none. */
export interface OutlineEntry {
  level: 2 | 3;
  text: string;
  shown: boolean;
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
    const fallback =
      (section.kind === "conclusion" ? plan.labels.conclusion : section.kind === "introduction" ? plan.labels.introduction : null) || null;
    const text = headingText(section, written.heading) ?? (shown ? null : fallback);
    if (text) entries.push({ level: 2, text, shown });
    for (const sub of written.subheadings) entries.push({ level: 3, text: sub, shown });
  }
  return entries;
}
