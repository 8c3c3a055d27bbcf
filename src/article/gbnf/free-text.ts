/**
 * The grammar of the body's free generation calls: the model writes what it likes, within the
 * quotation rules, and a call's first characters keep what the step asks (a word boundary after
 * a forced keyword, one of a link's anchor phrases, a banned phrase's last word refused, a third
 * opening alike refused).
 */
import { GRAMMAR_PAIRS, GRAMMAR_QUOTES, TERMINATORS } from "../text/scripts.js";
import { quotes, stillOpen } from "../text/sentences.js";
import { charClass, literal } from "./escape.js";
import {
  alt,
  grammar,
  group,
  many,
  opt,
  repeat,
  rule,
  seq,
  times,
  trieLetters,
  trieStep,
  wordTrie,
  type Term,
  type TrieNode,
} from "./terms.js";
import { ASCII_NOT_LETTER } from "./words.js";

/** The first character after a forced keyword, so the model's next token does not glue onto it ("coffeewith"). */
const BOUNDARY = { spaced: charClass(" ,.;:!?'\u2019)"), unspaced: charClass("\n", true, "a-zA-Z0-9") } as const;

/**
 * What may follow a forced keyword: a space or punctuation in spaced scripts; in the others, anything
 * but a Latin letter or digit, after a Latin keyword and a CJK one alike ("観葉植物ed" reads as
 * neither word: a reader, and the report's match, find no keyword there).
 */
function boundaryRule(spaced: boolean): string {
  return spaced ? BOUNDARY.spaced : BOUNDARY.unspaced;
}
/** Most characters inside one quotation: the model closes it before it runs on. */
const QUOTATION_CHARS = 160;
/** A quotation ends with its sentence's terminator, if any, then its closing quote: one sentence never spreads over several inside quotes. */
const quoteEnd = (close: string) => seq(repeat(charClass(".!?,\u2026"), 0, 3), literal(close));
/** A character of free text outside a quotation, but those in `also`. */
const freeChar = (also: string, negated = true) => charClass([...GRAMMAR_QUOTES, ...also], negated);
/**
 * The rules every free-text grammar ends with: a double quote (straight or curly) opens a
 * quotation after a space or a line break, on a word, and the same kind closes it.
 */
export const QUOTED_TEXT = grammar(
  rule("chunk", alt(freeChar("\n"), seq(literal("\n"), opt("quote")), seq(charClass(" \t"), "quote"))),
  rule(
    "quote",
    alt(
      ...GRAMMAR_PAIRS.map(({ open, close }) =>
        seq(literal(open), freeChar(" \n.!?,;:"), repeat(freeChar("\n.!?"), 0, QUOTATION_CHARS), quoteEnd(close)),
      ),
    ),
  ),
);

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

/** A character of a word that goes on with its sentence: no space, line break, sentence end or quote. */
const NOT_END = charClass([" \n\t", TERMINATORS, GRAMMAR_QUOTES], true);
/** One more word of a sentence: a sentence short of its voice goes on. */
const MORE_WORD = group(seq(literal(" "), NOT_END, many(NOT_END)));

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
  /**
   * The sentence the call continues ends with the call's first character, a terminator the model
   * picks, and the quotation or brackets it holds close (a house voice's longest sentence). @default false
   */
  close?: boolean;
  /** Words the call writes before the sentence it continues may end (a house voice's shortest sentence). @default none */
  lengthen?: number;
}

/**
 * The grammar of a free generation call: the model writes what it likes, except a double
 * quote (straight or curly) that closes nothing, a line break (or the end) inside a quotation, a quotation
 * that runs on or holds a sentence end before its closing quote, so no sentence is left with its
 * quotation open and a reader's sentences are the engine's. A quotation `pending` opened must
 * close first. The call's first characters also keep what the step asks (a word boundary after
 * a forced keyword, one of a link's anchor phrases, a banned phrase's last word refused, a third
 * opening alike refused, a house voice's sentence ended or kept going), so
 * none of these needs a call of its own. node-llama-cpp and llama-server apply a grammar only
 * to a sampled token that breaks it: the model's own text costs nothing more.
 */
export function freeTextGrammar(options: FreeTextOptions): string {
  const { pending, after, spaced, refuse, notOpening, choose, close, lengthen } = options;
  const open = openQuotation(pending);
  // In steps of 40 characters: a handful of distinct grammars, each compiled once and cached.
  const left = open ? Math.max(8, Math.floor((QUOTATION_CHARS - open.inside) / 40) * 40) : 0;
  const boundary = after === undefined ? undefined : boundaryRule(spaced);
  const opening = notOpening !== undefined && pending.trim() === "";
  const refusing = refuse !== undefined && refuse.length > 0;
  const lineStart = !choose?.length && !boundary && !refusing && !opening && (pending === "" || /\s$/u.test(pending));
  const tail = open
    ? seq(repeat(freeChar("\n.!?"), 0, left), quoteEnd(open.close), many("chunk"))
    : seq(lineStart ? opt("quote") : undefined, many("chunk"));
  let root: Term = "tail";
  // Inside a quotation, the sentence's end closes it.
  if (close) root = open ? seq(charClass(".!?"), literal(open.close), many("chunk")) : closedSentence(pending);
  else if (lengthen) root = seq(opt(charClass(",;:")), times(MORE_WORD, lengthen), "tail");
  else if (choose?.length) root = seq(alt(...choose.map((phrase) => seq(literal(phrase), boundaryRule(spaced)))), "tail");
  else if (boundary) root = seq(boundary, "tail");
  else if (refusing) root = seq(opt(literal(" ")), notWord(refuse, "tail", { inQuotation: open !== undefined, prefix: true }));
  else if (opening) root = seq(many(charClass(" \n")), alt(notWord([notOpening], "tail"), seq("quote", "tail")));
  return grammar(rule("root", root), rule("tail", tail), QUOTED_TEXT);
}

/**
 * A sentence closed outside a quotation: its terminator, what brackets `pending` left open,
 * then a space, a line break or the end; a closer glued on that closes nothing would break the
 * sentence, which the sentence gate refuses.
 */
function closedSentence(pending: string): Term {
  const owed = stillOpen(pending);
  return seq(charClass(".!?"), owed ? literal(owed) : undefined, opt(group(seq(charClass(" \n"), "tail"))));
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

/**
 * A GBNF expression for text that does not start with one of `words` (any case) followed by
 * a word's end, or (`prefix`) not with one of them at all; `rest` is the rule that takes over
 * once the text has left the words behind. The words make a trie, one alternative per letter.
 * Its own characters are never a double quote (a quote opened or closed here would escape the
 * quotation rules of `rest`), nor, inside a quotation, a sentence end.
 */
export function notWord(words: readonly string[], rest: string, options: NotWordOptions = {}): Term {
  const never = ["\n", ...GRAMMAR_QUOTES, ...(options.inQuotation ? [".", "!", "?"] : [])];
  const expression = (node: TrieNode, depth: number): Term => {
    const taken = trieLetters(node);
    // A whole word written: it may only go on as a longer word ("timely"). Else any other character leaves the words behind
    // (at the first, a space may not stand in for another: " time" is the word again).
    const other = node.end
      ? charClass(taken, true, ASCII_NOT_LETTER)
      : charClass([...taken, ...(depth === 0 ? [" "] : []), ...never], true);
    // With `prefix`, a word ended is refused whatever follows.
    return alt(...trieStep(node, seq(other, rest), (child) => (options.prefix && child.end ? undefined : expression(child, depth + 1))));
  };
  return expression(wordTrie(words), 0);
}
