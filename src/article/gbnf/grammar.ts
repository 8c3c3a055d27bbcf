/**
 * GBNF grammars (llama.cpp syntax) that steer what the model writes: the outline's
 * structure, each field's length in words, where the keyword stands, and that a
 * heading ends on a whole word. The model still chooses every word.
 */
import { literal } from "./escape.js";

/** One field's shape. */
export interface FieldShape {
  /** Words the field may have, keyword included. */
  words: readonly [number, number];
  /** A phrase the field must hold, within its first words. */
  keyword?: string;
  /** Words allowed before the keyword. @default 2 */
  before?: number;
  /** Closing punctuation ("?" for questions, "." for a description). @default none */
  end?: string;
  /**
   * The field goes on from words already written (a description lengthened): its words follow
   * a space, or a comma and a space (in scripts without spaces, a space or a CJK character). @default false
   */
  continues?: boolean;
  /** Most letters a word of the field may have (the shared word rule allows 12, and 10 more after a hyphen). @default 22 */
  letters?: number;
}

/** A piece of a structured answer: text forced by the grammar, or a field the model writes. */
export type Item = { literal: string } | { field: FieldShape };

/**
 * A keyword as a GBNF expression. Where it opens the field its first letter may also be a
 * capital; anywhere else it keeps the case the request gave it ("Why is a compost bin…").
 */
function keywordRule(keyword: string, opening: boolean): string {
  const first = String.fromCodePoint(keyword.codePointAt(0)!);
  const rest = keyword.slice(first.length);
  const upper = first.toLocaleUpperCase();
  const head = !opening || upper === first ? literal(first) : `(${literal(upper)} | ${literal(first)})`;
  return rest ? `${head} ${literal(rest)}` : head;
}

/** Quotation marks and brackets outside ASCII: a heading or title never opens one it might not close. */
const MARKS = "\u201c\u201d\u201e\u00ab\u00bb\u300c-\u300f\uff08\uff09";

const SHARED_RULES = [
  // A letter or digit: anything but ASCII punctuation, symbols, spaces, control characters and quotation marks.
  `l ::= [^\\x00-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f${MARKS}]`,
  // A word: letters, perhaps joined by an apostrophe or hyphen, perhaps followed by a comma.
  "w ::= l{1,12} ([-'\u2019] l{1,10})? \",\"?",
  // The last word of a field carries no punctuation, so a field ends on a whole word.
  "wl ::= l{1,12} ([-'\u2019] l{1,10})?",
  // Scripts without spaces: characters instead of words (CJK commas allowed inside).
  // Latin words among them keep their spaces ("SEO ツール"), one space before a character.
  `c ::= [^\\x00-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f${MARKS}] | [、，] | " " [^\\x00-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f${MARKS}]`,
  // Next to a Latin keyword in those scripts: a space, or a CJK character or mark (which cannot glue onto it).
  "sep ::= \" \" | [\u3001-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff01-\uff60]",
];

/** Builds one grammar for a sequence of literals and fields. */
export class GrammarBuilder {
  private readonly rules: string[] = [];
  private readonly parts: string[] = [];

  /** `spaced`: words are separated by spaces (false for Japanese, Chinese, Thai…). */
  constructor(private readonly spaced: boolean) {}

  /** Add items in order. */
  add(items: readonly Item[]): this {
    for (const item of items) this.parts.push("literal" in item ? literal(item.literal) : this.fieldRule(item.field));
    return this;
  }

  /** The GBNF text. */
  build(): string {
    return [`root ::= ${this.parts.join(" ") || '""'}`, ...this.rules, ...SHARED_RULES].join("\n");
  }

  private fieldRule(shape: FieldShape): string {
    const name = `f${this.rules.length}`;
    this.rules.push(`${name} ::= ${this.spaced ? spacedField(shape) : unspacedField(shape)}`);
    return name;
  }
}

const repeat = (rule: string, min: number, max: number) => (max <= 0 ? "" : `${rule}{${Math.max(0, min)},${max}}`);

function spacedField(shape: FieldShape): string {
  const [min, max] = shape.words;
  // Without a required ending the model may still close the field with a stop of its own,
  // which callers drop: a model that wants to end there is not pushed into gluing letters on.
  const end = shape.end ? ` ${literal(shape.end)}` : ' [.!]?';
  const [w, wl] = shape.letters ? [`(l{1,${shape.letters}} ","?)`, `l{1,${shape.letters}}`] : ["w", "wl"];
  if (shape.continues) return `","? ${repeat(`(" " ${w})`, min - 1, max - 1)} " " ${wl}${end}`.replace(/\s+/g, " ");
  if (!shape.keyword) return `w ${repeat('(" " w)', min - 2, max - 2)} " " wl${end}`.replace(/\s+/g, " ");
  const keywordWords = shape.keyword.split(/\s+/).length;
  // One alternative per number of words before the keyword, so the whole field keeps its word range.
  const alternatives: string[] = [];
  for (let before = 0; before <= (shape.before ?? 2); before++) {
    const most = max - keywordWords - before;
    if (most < 0) break;
    const least = Math.max(0, min - keywordWords - before);
    const tail = most === 0 ? "" : `(${repeat('(" " w)', least - 1, most - 1)} " " wl)${least === 0 ? "?" : ""}`;
    alternatives.push(`${before ? `(w " "){${before}}` : ""} ${keywordRule(shape.keyword, before === 0)} ${tail}`.replace(/\s+/g, " ").trim());
  }
  // A keyword longer than the field stands alone.
  if (!alternatives.length) alternatives.push(keywordRule(shape.keyword, true));
  return `(${alternatives.join(" | ")})${end}`;
}

function unspacedField(shape: FieldShape): string {
  const [min, max] = shape.words;
  const end = shape.end ? ` ${literal(shape.end)}` : "";
  // Lengthening what is written: a space or a CJK character first, so nothing glues onto a Latin word.
  if (shape.continues) return `sep c{${Math.max(0, min * 2 - 1)},${max * 2 - 1}}${end}`;
  // About two characters a word in these scripts.
  if (!shape.keyword) return `c{${min * 2},${max * 2}}${end}`;
  const before = (shape.before ?? 2) * 2;
  const after = `c{${Math.max(0, min * 2 - 8)},${max * 2}}`;
  // A Latin keyword stays a word of its own: what stands next to it is a space or a character of another script.
  if (/[\p{Script=Latin}\p{N}]/u.test(shape.keyword)) {
    const opening = keywordRule(shape.keyword, true);
    const inside = keywordRule(shape.keyword, false);
    return `(${opening} | c{0,${before - 1}} sep ${inside}) (sep ${after})?${end}`;
  }
  return `c{0,${before}} ${keywordRule(shape.keyword, true)} ${after}${end}`;
}
