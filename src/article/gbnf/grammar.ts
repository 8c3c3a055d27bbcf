/**
 * GBNF grammars (llama.cpp syntax) that steer what the model writes: the outline's
 * structure, each field's length in words, where the keyword stands, and that a
 * heading ends on a whole word. The model still chooses every word.
 */
import { literal } from "./escape.js";
import { NOT_LETTER, refusableWords, wordRules } from "./words.js";

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

const SHARED_RULES = [
  // A letter or digit: anything but ASCII punctuation, symbols, spaces, control characters and quotation marks
  // (a heading or title never opens a quotation or bracket it might not close).
  `l ::= [^${NOT_LETTER}]`,
  // A word: letters, perhaps joined by an apostrophe or hyphen, perhaps followed by a comma.
  'w ::= l{1,12} ([-\'\u2019] l{1,10})? ","?',
  // The last word of a field carries no punctuation, so a field ends on a whole word.
  "wl ::= l{1,12} ([-'\u2019] l{1,10})?",
  // Scripts without spaces: characters instead of words (CJK commas allowed inside).
  // Latin words among them keep their spaces ("SEO ツール"), one space before a character.
  `c ::= [^${NOT_LETTER}] | [、，] | " " [^${NOT_LETTER}]`,
  // Next to a Latin keyword in those scripts: a space, or a CJK character or mark (which cannot glue onto it).
  'sep ::= " " | [\u3001-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff01-\uff60]',
];

/** What a grammar's fields refuse besides their shape. */
export interface GrammarOptions {
  /**
   * Banned single words: no word of a field (in a spaced script) begins with one, in either
   * case. Words with marks inside are left to the phrase matcher. @default none
   */
  refused?: readonly string[];
}

/** Builds one grammar for a sequence of literals and fields. */
export class GrammarBuilder {
  private readonly rules: string[] = [];
  private readonly parts: string[] = [];
  private readonly refused: readonly string[];
  /** Word rules of the refused words, by most letters a word may have. */
  private readonly words = new Map<number, string[]>();

  /** `spaced`: words are separated by spaces (false for Japanese, Chinese, Thai…). */
  constructor(
    private readonly spaced: boolean,
    options: GrammarOptions = {},
  ) {
    this.refused = spaced ? refusableWords(options.refused ?? []) : [];
  }

  /** Add items in order. */
  add(items: readonly Item[]): this {
    for (const item of items) this.parts.push("literal" in item ? literal(item.literal) : this.fieldRule(item.field));
    return this;
  }

  /** The GBNF text. */
  build(): string {
    // With words refused, a word's letters (each part of a hyphenated one) are the refusing rule's.
    const shared = this.refused.length
      ? [...SHARED_RULES.filter((r) => !/^wl? ::=/.test(r)), ...refusingWords(this.word(12))]
      : SHARED_RULES;
    return [`root ::= ${this.parts.join(" ") || '""'}`, ...this.rules, ...shared, ...[...this.words.values()].flat()].join("\n");
  }

  /** The rule of a word of at most `letters` letters. */
  private word(letters: number): string {
    if (!this.refused.length) return `l{1,${letters}}`;
    const name = `ok${letters}`;
    if (!this.words.has(letters)) this.words.set(letters, wordRules(name, this.refused, letters));
    return name;
  }

  private fieldRule(shape: FieldShape): string {
    const name = `f${this.rules.length}`;
    const letters = shape.letters === undefined ? undefined : this.word(shape.letters);
    this.rules.push(`${name} ::= ${this.spaced ? spacedField(shape, letters) : unspacedField(shape)}`);
    return name;
  }
}

/** The word rules `w` and `wl` when words are refused: `word` instead of free letters. */
function refusingWords(word: string): string[] {
  return [`w ::= ${word} ([-'\u2019] ${word})? ","?`, `wl ::= ${word} ([-'\u2019] ${word})?`];
}

const repeat = (rule: string, min: number, max: number) => (max <= 0 ? "" : `${rule}{${Math.max(0, min)},${max}}`);

/** `letters`: the rule of a word of the field's own most letters (`shape.letters`), when it has one. */
function spacedField(shape: FieldShape, letters?: string): string {
  const [min, max] = shape.words;
  // Without a required ending the model may still close the field with a stop of its own,
  // which callers drop: a model that wants to end there is not pushed into gluing letters on.
  const end = shape.end ? ` ${literal(shape.end)}` : " [.!]?";
  const [w, wl] = letters ? [`(${letters} ","?)`, letters] : ["w", "wl"];
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
    alternatives.push(
      `${before ? `(w " "){${before}}` : ""} ${keywordRule(shape.keyword, before === 0)} ${tail}`.replace(/\s+/g, " ").trim(),
    );
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
