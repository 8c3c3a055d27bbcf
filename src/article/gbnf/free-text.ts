/**
 * The grammar of the body's free generation calls: the model writes what it likes, within the
 * quotation rules, and a call's first characters keep what the step asks (a word boundary after
 * a forced keyword, one of a link's anchor phrases, a banned phrase's last word refused, a third
 * opening alike refused).
 */
import { GRAMMAR_PAIRS, GRAMMAR_QUOTES } from "../text/scripts.js";
import { quotes } from "../text/sentences.js";
import { charClass, escapeChar, literal } from "./escape.js";

/** The first character after a forced keyword, so the model's next token does not glue onto it ("coffeewith"). */
const BOUNDARY = { spaced: "[ ,.;:!?'\u2019)]", unspaced: "[^a-zA-Z0-9\\n]" } as const;

/**
 * What may follow a forced keyword: a space or punctuation in spaced scripts; in the others, anything
 * but a Latin letter after a Latin keyword, and anything after a CJK one (nothing glues onto it).
 */
function boundaryRule(keyword: string, spaced: boolean): string | undefined {
  if (spaced) return BOUNDARY.spaced;
  return /^[\p{Script=Latin}\p{N}]/u.test(keyword) ? BOUNDARY.unspaced : undefined;
}
/** Most characters inside one quotation: the model closes it before it runs on. */
const QUOTATION_CHARS = 160;
/** A quotation ends with its sentence's terminator, if any, then its closing quote: one sentence never spreads over several inside quotes. */
const quoteEnd = (close: string) => `[.!?,\u2026]{0,3} ${literal(close)}`;
/**
 * The rules every free-text grammar ends with: a double quote (straight or curly) opens a
 * quotation after a space or a line break, on a word, and the same kind closes it.
 */
export const QUOTED_TEXT = [
  `chunk ::= [^${GRAMMAR_QUOTES}\\n] | "\\n" quote? | [ \\t] quote`,
  `quote ::= ${GRAMMAR_PAIRS.map(({ open, close }) => `${literal(open)} [^${GRAMMAR_QUOTES} \\n.!?,;:] [^${GRAMMAR_QUOTES}\\n.!?]{0,${QUOTATION_CHARS}} ${quoteEnd(close)}`).join(" | ")}`,
].join("\n");

/** The quotation `pending` left open, and the characters written inside it; undefined when none is. */
function openQuotation(pending: string): { close: string; inside: number } | undefined {
  // A quote that ends the pending text opens a quotation on the word the model writes next.
  if (quotes(/["\u201c]$/u.test(pending) ? `${pending}w` : pending) !== "open") return undefined;
  const straight = pending.lastIndexOf('"');
  const curly = pending.lastIndexOf("\u201c");
  // An odd count of straight quotes: the last one opened a quotation still open.
  if (straight > curly && pending.split('"').length % 2 === 0) return { close: '"', inside: pending.length - straight };
  if (curly > straight && pending.indexOf("\u201d", curly) < 0) return { close: "\u201d", inside: pending.length - curly };
  return undefined;
}

/** What the next free call must keep besides the quotation rules. */
export interface FreeTextOptions {
  /** The unfinished sentence the call continues ("" at a sentence's start). */
  pending: string;
  /** Whether the language parts words with spaces. */
  spaced: boolean;
  /** The keyword the answer ends with, forced: the first character keeps it a word of its own. @default none */
  after?: string;
  /**
   * Phrases the call opens with, one of them, each with the space it needs before it (none in a
   * script without spaces): a steered anchor the model picks, kept a word of its own. @default none
   */
  choose?: readonly string[];
  /**
   * Words the call may not begin with, nor any word that begins with one: the word that just
   * completed a banned phrase and was cut, and the banned single words. @default none
   */
  refuse?: readonly string[];
  /** A word the sentence about to start may not open with (it would be the third alike). @default none */
  notOpening?: string;
}

/**
 * The grammar of a free generation call: the model writes what it likes, except a double
 * quote (straight or curly) that closes nothing, a line break (or the end) inside a quotation, a quotation
 * that runs on or holds a sentence end before its closing quote, so no sentence is left with its
 * quotation open and a reader's sentences are the engine's. A quotation `pending` opened must
 * close first. The call's first characters also keep what the step asks (a word boundary after
 * a forced keyword, one of a link's anchor phrases, a banned phrase's last word refused, a third
 * opening alike refused), so
 * none of these needs a call of its own. node-llama-cpp and llama-server apply a grammar only
 * to a sampled token that breaks it: the model's own text costs nothing more.
 */
export function freeTextGrammar(options: FreeTextOptions): string {
  const { pending, after, spaced, refuse, notOpening, choose } = options;
  const open = openQuotation(pending);
  // In steps of 40 characters: a handful of distinct grammars, each compiled once and cached.
  const left = open ? Math.max(8, Math.floor((QUOTATION_CHARS - open.inside) / 40) * 40) : 0;
  const boundary = after === undefined ? undefined : boundaryRule(after, spaced);
  const opening = notOpening !== undefined && pending.trim() === "";
  const refusing = refuse !== undefined && refuse.length > 0;
  const lineStart = !choose?.length && !boundary && !refusing && !opening && (pending === "" || /\s$/u.test(pending));
  const tail = open ? `[^${GRAMMAR_QUOTES}\\n.!?]{0,${left}} ${quoteEnd(open.close)} chunk*` : `${lineStart ? "quote? " : ""}chunk*`;
  let root = "tail";
  if (choose?.length)
    root = `(${choose.map((phrase) => [literal(phrase), boundaryRule(phrase.trimStart(), spaced)].filter(Boolean).join(" ")).join(" | ")}) tail`;
  else if (boundary) root = `${boundary} tail`;
  else if (refusing) root = `" "? (${notWord(refuse, "tail", { inQuotation: open !== undefined, prefix: true })})`;
  else if (opening) root = `[ \\n]* (${notWord([notOpening], "tail")} | quote tail)`;
  return `root ::= ${root}\ntail ::= ${tail}\n${QUOTED_TEXT}`;
}

/** Where a {@link notWord} expression stands. */
export interface NotWordOptions {
  /** Inside an open quotation: no sentence may end before it closes. @default false */
  inQuotation?: boolean;
  /**
   * Refuse any word that begins with one of the words ("timeline", "Lilych"), not only the
   * words themselves: a banned phrase's last word, which letters glued on would not make another phrase.
   * @default false
   */
  prefix?: boolean;
}

/** A letter or digit, and more generally anything but ASCII punctuation, symbols, spaces and control characters. */
const WORD_CHAR = "\\x00-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f";

interface Node {
  children: Map<string, Node>;
  /** One of the words ends here. */
  end: boolean;
}

/**
 * A GBNF expression for text that does not start with one of `words` (any case) followed by
 * a word's end, or (`prefix`) not with one of them at all; `rest` is the rule that takes over
 * once the text has left the words behind. The words make a trie, one alternative per letter.
 * Its own characters are never a double quote (a quote opened or closed here would escape the
 * quotation rules of `rest`), nor, inside a quotation, a sentence end.
 */
export function notWord(words: readonly string[], rest: string, options: NotWordOptions = {}): string {
  const never = ["\n", ...GRAMMAR_QUOTES, ...(options.inQuotation ? [".", "!", "?"] : [])];
  const root: Node = { children: new Map(), end: false };
  for (const word of words) {
    let node = root;
    for (const c of word.toLocaleLowerCase()) {
      let next = node.children.get(c);
      if (!next) node.children.set(c, (next = { children: new Map(), end: false }));
      node = next;
    }
    node.end = true;
  }
  // A character in either case; a capital of several letters ("ß" → "SS") is no form of one character.
  const forms = (c: string) => [c, ...[c.toLocaleUpperCase()].filter((upper) => upper !== c && [...upper].length === 1)];
  const expression = (node: Node, depth: number): string => {
    const taken = [...node.children.keys()].flatMap(forms);
    // A whole word written: it may only go on as a longer word ("timely"). Else any other character leaves the words behind
    // (at the first, a space may not stand in for another: " time" is the word again).
    const other = node.end
      ? `[^${WORD_CHAR}${taken.map((c) => escapeChar(c, "class")).join("")}]`
      : charClass([...taken, ...(depth === 0 ? [" "] : []), ...never], true);
    const alternatives = [`${other} ${rest}`];
    for (const [c, child] of node.children) {
      // With `prefix`, a word ended is refused whatever follows.
      if (!(options.prefix && child.end)) alternatives.push(`${charClass(forms(c))} (${expression(child, depth + 1)})`);
    }
    return alternatives.join(" | ");
  };
  return expression(root, 0);
}
