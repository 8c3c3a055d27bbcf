/**
 * How each script ends a sentence and quotes: the one table every sentence reader (the
 * body's units, the source reader, the long-sentence cut) and every quotation rule (the
 * balance of a sentence, the free-text grammar, the banned-word grammar) reads.
 */

/** A pair of characters that open and close a quotation or a bracket. */
export interface QuotationPair {
  open: string;
  close: string;
  /** The free-text grammar pairs it: the model may open it only where it will close it. @default false */
  grammar?: boolean;
}

/** One script's sentence punctuation. */
interface ScriptPunctuation {
  /** Letters of the script, to tell which script a sentence is written in. @default any script */
  letters?: RegExp;
  /** Languages whose sentences in this script end with its full stop. @default every language */
  languages?: readonly string[];
  /** Characters that end a sentence, each one the sentence segmenter also breaks after. */
  terminators: string;
  /** The terminator a sentence left without one gets. @default none: "." */
  fullStop?: string;
  /** The terminator that ends a question. @default none */
  question?: string;
  /** Characters that part clauses inside a sentence: a long sentence is cut after one. @default none */
  pauses?: string;
  /** Its quotation pairs and brackets. @default none */
  quotations?: readonly QuotationPair[];
}

/**
 * The scripts the engine tells apart. A straight double quote opens and closes alike; „
 * closes with “, which elsewhere opens. Chinese and Japanese close with "。", Hindi with "।".
 */
const SCRIPTS: Readonly<Record<string, ScriptPunctuation>> = {
  latin: {
    terminators: ".!?",
    question: "?",
    pauses: ",;:",
    quotations: [
      { open: '"', close: '"', grammar: true },
      { open: "\u201c", close: "\u201d", grammar: true },
      { open: "\u201e", close: "\u201c" },
      { open: "\u00ab", close: "\u00bb" },
      { open: "(", close: ")" },
    ],
  },
  cjk: {
    letters: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u,
    terminators: "\u3002\uff01\uff1f",
    fullStop: "\u3002",
    question: "\uff1f",
    pauses: "\uff0c\u3001",
    quotations: [
      { open: "\u300c", close: "\u300d" },
      { open: "\u300e", close: "\u300f" },
      { open: "\uff08", close: "\uff09" },
    ],
  },
  devanagari: { letters: /\p{Script=Devanagari}/u, languages: ["hi"], terminators: "\u0964", fullStop: "\u0964" },
  arabic: { terminators: "\u061f", question: "\u061f" },
};

const all = (field: "terminators" | "question" | "pauses") =>
  Object.values(SCRIPTS)
    .map((s) => s[field] ?? "")
    .join("");

/** Terminators of every script the sentence segmenter breaks after. */
export const SEGMENTED_TERMINATORS = all("terminators");
/** The ellipsis ends a sentence too, but the segmenter reads on after it. */
const ELLIPSIS = "\u2026";
/** Every character that may end a sentence. */
export const TERMINATORS = SEGMENTED_TERMINATORS + ELLIPSIS;
/** The terminators that end a question, in every script. */
export const QUESTION_MARKS = all("question");
/** The characters that part clauses, in every script. */
export const PAUSES = all("pauses");
/** Terminators that end a sentence with no space after them (in scripts written without spaces). */
export const UNSPACED_TERMINATORS = SCRIPTS.cjk!.terminators;
/**
 * What may follow a sentence's terminator and still belong to it: closing quotes, single
 * ones included (a single quote is also an apostrophe, so no rule pairs it), and brackets.
 */
export const TRAILING = "\"'\u201d\u2019\u00bb)]";

/** Every quotation pair of every script. */
export const QUOTATION_PAIRS: readonly QuotationPair[] = Object.values(SCRIPTS).flatMap((s) => s.quotations ?? []);
/** The pairs the free-text grammar keeps: straight and curly double quotes. */
export const GRAMMAR_PAIRS = QUOTATION_PAIRS.filter((p) => p.grammar);
/** Each character of the grammar's pairs: what free text may not hold outside the quotation rules. */
export const GRAMMAR_QUOTES = [...new Set(GRAMMAR_PAIRS.flatMap((p) => [p.open, p.close]))].join("");
/**
 * Closing characters that may end a quotation a sentence ends in: every closing character
 * but one that also opens (“, which closes „ but opens elsewhere).
 */
export const QUOTATION_ENDS = [...new Set(QUOTATION_PAIRS.map((p) => p.close))]
  .filter((c) => !QUOTATION_PAIRS.some((p) => p.open === c && p.close !== c))
  .join("");

/** The full stop for a sentence whose last letter is `last`, in `language`: "。", "।" or ".". */
export function fullStopFor(last: string | undefined, language: string): string {
  if (last === undefined) return ".";
  for (const script of Object.values(SCRIPTS)) {
    if (!script.fullStop || !script.letters?.test(last)) continue;
    if (!script.languages || script.languages.includes(language)) return script.fullStop;
  }
  return ".";
}

/** Characters as a regular expression class's contents, escaped where the class syntax needs it. */
export function classOf(chars: string): string {
  return chars.replace(/[\\\]^-]/g, (c) => `\\${c}`);
}
