/**
 * The one way text enters a GBNF grammar: every character of a keyword, a banned word or any
 * other string a request supplies goes through {@link escapeChar}, inside a string literal or a
 * character class. llama.cpp's parser knows only a few escapes (`\x`, `\u`, `\U`, `\t`, `\r`,
 * `\n`, `\\`, `\"`, `\[`, `\]`): anything else after a backslash fails the whole grammar, so a
 * character that means something to the syntax is written as its code point.
 */

/** Where an escaped character stands. */
export type GbnfContext = "literal" | "class";

/** The escapes llama.cpp reads, for the characters that have one. */
const NAMED: Record<string, string> = { "\n": "\\n", "\t": "\\t", "\r": "\\r", "\\": "\\\\", '"': '\\"', "[": "\\[", "]": "\\]" };
/** Characters with a meaning in a string literal: its quote and the escape character. */
const LITERAL_SYNTAX = new Set(['"', "\\"]);
/** Characters with a meaning in a character class: its brackets, negation, ranges and the escape character. */
const CLASS_SYNTAX = new Set(["[", "]", "^", "-", "\\"]);

const hex = (code: number, digits: number) => code.toString(16).toUpperCase().padStart(digits, "0");

/**
 * One character (a code point) as GBNF reads it back as itself, in a literal or a class: the
 * syntax's own characters and control characters escaped (by name where llama.cpp knows one, else
 * by code point), lone surrogates too (they match nothing a model writes, rather than breaking
 * the grammar), anything else as it is.
 */
export function escapeChar(char: string, context: GbnfContext): string {
  const code = char.codePointAt(0)!;
  const syntax = (context === "literal" ? LITERAL_SYNTAX : CLASS_SYNTAX).has(char);
  if (syntax || code < 0x20 || code === 0x7f) return NAMED[char] ?? `\\x${hex(code, 2)}`;
  if (code >= 0xd800 && code <= 0xdfff) return `\\u${hex(code, 4)}`;
  return char;
}

/** Text as a GBNF string literal, matched exactly. */
export function literal(text: string): string {
  let out = "";
  for (const char of text) out += escapeChar(char, "literal");
  return `"${out}"`;
}

/**
 * A character class of the given characters, or of any character but them (`negated`); duplicates
 * are harmless. `ranges`, code's own class syntax (never a request's text), stands before them.
 */
export function charClass(chars: Iterable<string>, negated = false, ranges = ""): string {
  let out = ranges;
  for (const char of chars) for (const point of char) out += escapeChar(point, "class");
  return `[${negated ? "^" : ""}${out}]`;
}
