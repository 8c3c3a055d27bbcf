/**
 * GBNF grammars (llama.cpp syntax) that steer what the model writes: the outline's
 * structure, each field's length in words, where the keyword stands, and that a
 * heading ends on a whole word. The model still chooses every word.
 */
import { charClass, literal } from "./escape.js";
import { alt, chars, grammar, group, opt, repeat, RuleSet, rule, seq, times, type Term, wordTrie } from "./terms.js";
import { NOT_LETTER, refusableWords, refusingRun, run, wordRules } from "./words.js";

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
  /** In a spaced script, the field may open with a space, which the reading drops. @default false */
  spaceBefore?: boolean;
  /**
   * In a spaced script and without a keyword in the grammar, the grammar lets the model begin one
   * word more before the field's stop (a comma may stand before and after it), for the caller to
   * cut past the field's most with the comma before it: a model that would write on is not pushed
   * into gluing letters onto its last word. @default false
   */
  overflow?: boolean;
  /** Most letters a word of the field may have (the shared word rule allows 12, and 10 more after a hyphen). @default 22 */
  letters?: number;
  /**
   * In a spaced script, the field is one of these words after a space, in the case given: the slot
   * word a model writes before a keyword its lead left no slot for. @default any words
   */
  oneOf?: readonly string[];
  /**
   * In a spaced script, every word past the first opens in lower case (a heading in sentence case,
   * as a house voice writes it); the keyword keeps the request's case. @default false
   */
  lower?: boolean;
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
  const head = !opening || upper === first ? literal(first) : alt(literal(upper), literal(first));
  return seq(head, rest ? literal(rest) : undefined);
}

/** A letter or digit: anything but ASCII punctuation, symbols, spaces, control characters and quotation marks. */
const LETTER = chars(NOT_LETTER, true);
/** What joins the parts of a word: an apostrophe or a hyphen. */
const JOINER = chars("-'\u2019");
/** The space between words. */
const SPACE = literal(" ");

/**
 * A word (`w`: perhaps followed by a comma) and a field's last word (`wl`), each part of at most 12
 * and 10 letters of `part`; the last word's first part is `last`'s, and a field's first word (`wf`),
 * when `first` is given, `first`'s.
 */
const wordRulesOf = (part: (letters: number) => Term, last = part, first?: (letters: number) => Term): string[] => [
  // A word: letters, perhaps joined by an apostrophe or hyphen, perhaps followed by a comma.
  rule("w", seq(part(12), opt(group(seq(JOINER, part(10)))), opt(literal(",")))),
  // The last word of a field carries no punctuation, so a field ends on a whole word.
  rule("wl", seq(last(12), opt(group(seq(JOINER, part(10)))))),
  ...(first ? [rule("wf", seq(first(12), opt(group(seq(JOINER, part(10)))), opt(literal(","))))] : []),
];

// A heading or title never opens a quotation or bracket it might not close.
const LETTER_RULE = rule("l", LETTER);
/**
 * Scripts without spaces: characters instead of words (CJK commas allowed inside), and next to a
 * Latin keyword a space, or a CJK character or mark (which cannot glue onto it). Latin words
 * among them keep their spaces ("SEO ツール"), one space before a character.
 */
// Full-width forms but their Latin letters and digits ("ｋ" glues onto a keyword as "k" does), CJK marks but numerals ("〡").
const CJK = chars(
  "\u3001-\u3006\u3008-\u3020\u302a-\u3037\u303b-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff" +
    "\uac00-\ud7af\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff60",
);
const SCRIPT_RULES = [
  rule("c", alt(LETTER, charClass("、，"), seq(SPACE, LETTER))),
  // A CJK character or mark (no Latin letter, digit or apostrophe), and what opens the text after a keyword of such a script.
  rule("cj", CJK),
  rule("cs", alt(CJK, seq(SPACE, LETTER))),
  rule("sep", alt(SPACE, CJK)),
];
/** The rules every grammar holds when no word is refused. */
const SHARED_RULES = [LETTER_RULE, ...wordRulesOf((letters) => repeat("l", 1, letters)), ...SCRIPT_RULES];

/** What a grammar's fields refuse besides their shape. */
export interface GrammarOptions {
  /**
   * Banned single words: no word of a field (in a spaced script) begins with one, in either
   * case. Words with marks inside are left to the phrase matcher. @default none
   */
  refused?: readonly string[];
  /** Words a field's last word may not be (in a spaced script), in either case: its language's function words. @default none */
  finals?: readonly string[];
  /**
   * In a script without spaces, the characters a field may not end on: `always` after any
   * character, `afterKana` after anything but hiragana (function-words.ts `finalCharacters`). @default none
   */
  finalCharacters?: { always: string; afterKana: string };
  /**
   * Openings already used twice, which a field's first word may not begin with, in either case: a
   * stem refuses its forms ("oil": "Oiling"), though a short word refuses more ("a": "After" too; a
   * steered keyword's slot word is read from the piece, so the word must go). In a script without
   * spaces the field's first characters may not spell one ("観葉" refuses "観葉植物の水やり"). @default none
   */
  openings?: readonly string[];
}

/** Builds one grammar for a sequence of literals and fields. */
export class GrammarBuilder {
  private readonly rules: string[] = [];
  private readonly parts: string[] = [];
  private readonly refused: readonly string[];
  private readonly finals: readonly string[];
  private readonly openings: readonly string[];
  /** Word rules of the refused words (and the finals or openings), by rule name. */
  private readonly words = new Map<string, string>();
  /** The rules of the word tries' nodes, each distinct node once across every word rule. */
  private readonly nodes = new RuleSet();
  /** Whether a field's words past its first open in lower case (`wlo`, `wllo`). */
  private lowered = false;

  /** `spaced`: words are separated by spaces (false for Japanese, Chinese, Thai…). */
  constructor(
    private readonly spaced: boolean,
    private readonly options: GrammarOptions = {},
  ) {
    this.refused = spaced ? refusableWords(options.refused ?? []) : [];
    this.finals = spaced ? refusableWords(options.finals ?? []) : [];
    this.openings = refusableWords(options.openings ?? []);
  }

  /** Add items in order. */
  add(items: readonly Item[]): this {
    for (const item of items) this.parts.push("literal" in item ? literal(item.literal) : this.fieldRule(item.field));
    return this;
  }

  /** The GBNF text. */
  build(): string {
    // With words refused, a word's letters (each part of a hyphenated one) are the refusing rule's.
    const part = this.refused.length ? () => this.word(12) : (letters: number) => repeat("l", 1, letters);
    const shared =
      this.refused.length || this.finals.length || this.openings.length
        ? [LETTER_RULE, ...SCRIPT_RULES, ...wordRulesOf(part, this.finals.length ? () => this.last(12) : part, this.first())]
        : SHARED_RULES;
    const lower = this.lowered ? this.lowerRules() : [];
    return grammar(
      rule("root", seq(...this.parts) || literal("")),
      ...this.rules,
      ...shared,
      ...lower,
      ...this.words.values(),
      ...this.nodes.rules(),
    );
  }

  /** A word (`wlo`) and a field's last word (`wllo`) opening in lower case, refusing what `w` and `wl` refuse. */
  private lowerRules(): string[] {
    const rest = this.refused.length ? this.word(12) : repeat("l", 1, 10);
    const tail = opt(group(seq(JOINER, rest)));
    return [
      rule("wlo", seq(this.named("lo12", this.refused, 12, [], true), tail, opt(literal(",")))),
      rule("wllo", seq(this.named("lofin12", this.refused, 12, this.finals, true), tail)),
    ];
  }

  /** The rule of a word of at most `letters` letters. */
  private word(letters: number): string {
    return this.refused.length ? this.named(`ok${letters}`, this.refused, letters) : repeat("l", 1, letters);
  }

  /** The rule of a field's last word of at most `letters` letters: a word, and none of the finals. */
  private last(letters: number): string {
    return this.finals.length ? this.named(`fin${letters}`, this.refused, letters, this.finals) : this.word(letters);
  }

  /** The first word's letters when openings are refused: no word beginning with a refused word or an opening. */
  private first(): ((letters: number) => Term) | undefined {
    if (!this.openings.length) return undefined;
    return (letters) => this.named(`op${letters}`, [...this.refused, ...this.openings], letters);
  }

  /** The word rules `name` once built (see {@link wordRules}). */
  private named(name: string, words: readonly string[], letters: number, finals: readonly string[] = [], lower = false): string {
    if (!this.words.has(name)) this.words.set(name, wordRules(name, words, letters, finals, lower, this.nodes));
    return name;
  }

  /** The rule a field of a script without spaces ends with: one character, or two when it ends on a particle a kana word may end on. */
  private lastCharacter(): string {
    const finals = this.options.finalCharacters;
    if (this.spaced || !finals) return "c";
    if (!this.words.has("cl")) {
      const plain = chars(`${NOT_LETTER}${finals.always}${finals.afterKana}`, true);
      const kana = finals.afterKana ? [seq(chars("\u3041-\u309f"), chars(finals.afterKana))] : [];
      this.words.set("cl", rule("cl", alt(plain, seq(SPACE, plain), ...kana)));
    }
    return "cl";
  }

  private fieldRule(shape: FieldShape): string {
    const name = `f${this.rules.length}`;
    const letters = shape.letters === undefined ? undefined : { word: this.word(shape.letters), last: this.last(shape.letters) };
    const rules = { word: this.word(12), last: this.last(12), first: this.openings.length ? "wf" : "w", letters };
    if (shape.lower && this.spaced) this.lowered = true;
    this.rules.push(
      rule(name, this.spaced ? spacedField(shape, rules, this.openings) : unspacedField(shape, this.lastCharacter(), this.openings)),
    );
    return name;
  }
}

/**
 * The grammar of one field the model writes, ended by `then` (the first character of the text
 * after it: the model's own end of the field): each call of the outline, and a mended heading.
 */
export function fieldGrammar(field: FieldShape, then: string | undefined, spaced: boolean, options: GrammarOptions = {}): string {
  return new GrammarBuilder(spaced, options).add(then === undefined ? [{ field }] : [{ field }, { literal: then }]).build();
}

/**
 * What no text of a spaced field's grammar (its words, perhaps an opening space, then `then`) holds
 * anywhere: a character that is neither a letter, a space, a joiner, a comma, the field's closing
 * mark nor `then`, a full stop before a space (a field is one sentence at most), or more letters in
 * a row than a word of a field of short words has. A token whose
 * text matches can never continue the field; undefined where the field holds its keyword in its
 * grammar (the keyword may hold any character) or its script has no spaces.
 */
export function fieldImpossible(field: FieldShape, then: string | undefined, spaced: boolean): RegExp | undefined {
  if (!spaced || field.keyword) return undefined;
  const allowed = ` ,.!?-'\u2019${field.end ?? ""}${then ?? ""}`.replace(/[\]\\^-]/gu, "\\$&");
  // A field of short words (a mend's room) also never holds a longer run of letters.
  const longer = field.letters === undefined || !field.continues ? "" : `|[^${NOT_LETTER}]{${field.letters + 1}}`;
  return new RegExp(`(?![${allowed}])[${NOT_LETTER}]|\\.\\s${longer}`, "u");
}

/**
 * A title or heading as the model wrote it, without the stop its grammar lets the model close it
 * with ("." or "!": Markdown linters refuse a heading ending in either). A question keeps its "?".
 */
export function withoutStop(written: string): string {
  return written.trim().replace(/[.!]$/u, "");
}

/**
 * A model-written heading's field: two to eight words, the keyword within its first three when it
 * holds one; with `lower` (a house voice in sentence case) its words past the first in lower case.
 */
export function headingShape(primary: string, keyword: boolean, lower = false): FieldShape {
  const shape: FieldShape = keyword ? { words: [2, 8], keyword: primary, before: 2 } : { words: [2, 8] };
  return lower ? { ...shape, lower } : shape;
}

/** The grammar of a heading the model writes on a line of its own: the outline's heading field, then the line's end. */
export function headingGrammar(
  primary: string,
  keyword: boolean,
  spaced: boolean,
  options: GrammarOptions & { lower?: boolean } = {},
): string {
  return fieldGrammar(headingShape(primary, keyword, options.lower), "\n", spaced, options);
}

/** Up to `max` of a term (none when `max` is not positive), at least `min`. */
const upTo = (term: Term, min: number, max: number): Term | undefined => (max <= 0 ? undefined : repeat(term, Math.max(0, min), max));

/** The word rules a spaced field is built of. */
interface FieldWords {
  /** A word (refusing banned words when some are). */
  word: string;
  /** A word that may end the field (refusing the finals too when some are). */
  last: string;
  /** The field's first word: `wf` when openings are refused, else `w`. */
  first: string;
  /** Words of the field's own most letters (`shape.letters`), when it has one, and its last word. */
  letters?: { word: string; last: string };
}

/** Whether a keyword begins with one of the refused openings (lower-case), so it may not open the field. */
const opensWithRefused = (keyword: string, openings: readonly string[]): boolean =>
  openings.some((opening) => keyword.toLocaleLowerCase().startsWith(opening));

/** `count` words before a keyword, each followed by a space, the first of them `first`, the others `word`. */
const leading = (first: string, count: number, word = "w"): Term =>
  first === word
    ? times(group(seq(word, SPACE)), count)
    : seq(first, SPACE, count > 1 ? times(group(seq(word, SPACE)), count - 1) : undefined);

function spacedField(shape: FieldShape, rules: FieldWords, openings: readonly string[]): Term {
  if (shape.oneOf) return seq(SPACE, alt(...shape.oneOf.map((word) => literal(word))));
  const { last, first, letters } = rules;
  const [min, max] = shape.words;
  // Without a required ending the model may still close the field with a stop of its own,
  // which callers drop: a model that wants to end there is not pushed into gluing letters on.
  const stop = shape.end ? literal(shape.end) : opt(chars(".!"));
  // Or the start of one word more, which the caller cuts past the field's most (with a comma before it, which goes
  // with it): a model's comma on the last word or the next is never refused, so the sampler never runs the grammar
  // over the whole vocabulary for it. The field still ends on its stop.
  const comma = opt(literal(","));
  // The word past the most ends the field where it is not cut (a field of fewer words), so it is a last word
  // (in lower case too for a heading in sentence case).
  const end = shape.overflow ? alt(stop, seq(comma, SPACE, shape.lower ? "wllo" : last, comma, stop)) : stop;
  // Words after the first, each after a space: a lengthened field's of its own most letters.
  const words = (word: Term, least: number, most: number) => upTo(group(seq(SPACE, word)), least, most);
  // Words past the first: in lower case for a heading in sentence case.
  const [w, wl] = shape.lower ? ["wlo", "wllo"] : ["w", "wl"];
  if (shape.continues) {
    const [w2, wl2] = letters ? [group(seq(letters.word, comma)), letters.last] : [w, wl];
    // A field the keyword was steered into may end right after it (`min` 0), or must (`max` 0).
    const tail = seq(comma, words(w2, min - 1, max - 1), SPACE, wl2);
    return seq(max <= 0 ? undefined : min > 0 ? tail : opt(group(tail)), end);
  }
  // A field may open with the space its model's first token carries (a JSON string's value), which the reading drops.
  const open = shape.spaceBefore ? opt(SPACE) : undefined;
  if (!shape.keyword) return seq(open, first, words(w, min - 2, max - 2), SPACE, wl, end);
  const keywordWords = shape.keyword.split(/\s+/).length;
  // One alternative per number of words before the keyword, so the whole field keeps its word range.
  const alternatives: Term[] = [];
  // A keyword that begins with a refused opening does not open the field while words may stand before it.
  const from = opensWithRefused(shape.keyword, openings) && (shape.before ?? 2) > 0 ? 1 : 0;
  for (let before = from; before <= (shape.before ?? 2); before++) {
    const most = max - keywordWords - before;
    if (most < 0) break;
    const least = Math.max(0, min - keywordWords - before);
    const tail = most === 0 ? undefined : group(seq(words(w, least - 1, most - 1), SPACE, wl));
    alternatives.push(
      seq(before ? leading(first, before, w) : undefined, keywordRule(shape.keyword, before === 0), least === 0 && tail ? opt(tail) : tail),
    );
  }
  // A keyword longer than the field stands alone.
  if (!alternatives.length) alternatives.push(keywordRule(shape.keyword, true));
  return seq(open, alt(...alternatives), stop);
}

/**
 * Whether a field of a script without spaces ran to its grammar's most characters (see
 * {@link unspacedField}): about two a word, counted after its keyword when it holds one.
 */
export function unspacedFull(shape: FieldShape, value: string): boolean {
  const at = shape.keyword ? value.toLocaleLowerCase().indexOf(shape.keyword.toLocaleLowerCase()) : -1;
  const after = at < 0 ? value : value.slice(at + shape.keyword!.length);
  return [...after.replace(/\s/gu, "")].length >= shape.words[1] * 2;
}

/**
 * `last`: the rule of a field's last character (no particle a field may not end on); `openings`:
 * what its first characters may not spell (see {@link GrammarOptions.openings}).
 */
function unspacedField(shape: FieldShape, last: string, openings: readonly string[]): Term {
  const [min, max] = shape.words;
  const end = shape.end ? literal(shape.end) : undefined;
  // The field's first characters, when openings are refused, begin with none of them.
  const first = openings.length ? refusingRun(wordTrie(openings)) : run;
  // Lengthening what is written: a space or a CJK character first, so nothing glues onto a Latin word.
  if (shape.continues) return seq("sep", run(min * 2 - 1, max * 2 - 1, last), end);
  // About two characters a word in these scripts.
  if (!shape.keyword) return seq(first(min * 2, max * 2, last), end);
  const before = (shape.before ?? 2) * 2;
  const after = run(min * 2 - 8, max * 2, last);
  // A keyword that begins with a refused opening does not open the field while characters may stand before it.
  const opens = !(before > 0 && opensWithRefused(shape.keyword, openings));
  // A Latin keyword stays a word of its own: what stands next to it is a space or a character of another script.
  if (/[\p{Script=Latin}\p{N}]/u.test(shape.keyword)) {
    const opening = opens ? keywordRule(shape.keyword, true) : undefined;
    const inside = keywordRule(shape.keyword, false);
    return seq(alt(opening, seq(first(1, before, "sep"), inside)), opt(group(seq("sep", after))), end);
  }
  // Nor does a Latin word glue onto another keyword ("Dad a観葉植物ed"): the character before it is of
  // another script, and what follows opens with a space or such a character.
  const [least, most] = [min * 2 - 8, max * 2];
  const tail = most < 2 ? "" : group(seq("cs", repeat("c", Math.max(0, least - 2), most - 2), last));
  const lead = first(1, before, "cj");
  return seq(opens ? opt(group(lead)) : lead, keywordRule(shape.keyword, true), least > 0 ? tail : opt(tail), end);
}
