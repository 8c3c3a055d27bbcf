/**
 * The terms every grammar of `gbnf/` is built from, the way node-llama-cpp's `gbnfJson`
 * terminals and outlines' terms compose: each returns a GBNF expression (llama.cpp syntax)
 * that the others take as a part. Text a request supplies enters only through `literal` and
 * `charClass` (escape.ts); code's own character classes through {@link chars}. No module
 * outside `gbnf/` writes grammar text (`test/unit/structure.test.ts`).
 */
import { charClass } from "./escape.js";

/** A GBNF expression. */
export type Term = string;

/** The terms one after another; empty or absent ones (a repeat of at most nothing) are left out. */
export const seq = (...terms: ReadonlyArray<Term | undefined>): Term => terms.filter(Boolean).join(" ");

/**
 * Any one of the terms, the first tried first, grouped when there are several (so it stands as one
 * term in a sequence or before a repeat), as node-llama-cpp's `GbnfOr` writes it; empty or absent
 * ones are left out (an alternative of nothing is {@link opt}'s to say).
 */
export const alt = (...terms: ReadonlyArray<Term | undefined>): Term => {
  const kept = terms.filter((term): term is Term => Boolean(term));
  return kept.length === 1 ? kept[0]! : kept.length ? group(kept.join(" | ")) : "";
};

/** A term in parentheses, so what follows (a repeat, a `?`) applies to all of it. */
export const group = (term: Term): Term => `(${term})`;

/** A term or nothing. */
export const opt = (term: Term): Term => `${term}?`;

/** Any number of a term, none included. */
export const many = (term: Term): Term => `${term}*`;

/** From `min` to `max` of a term in a row. */
export const repeat = (term: Term, min: number, max: number): Term => `${term}{${min},${max}}`;

/** Exactly `count` of a term in a row. */
export const times = (term: Term, count: number): Term => `${term}{${count}}`;

/**
 * A character class code writes in GBNF's class syntax (ranges such as `\x00-\x2f`, a leading
 * hyphen): never text from a request, which goes through {@link charClass}.
 */
export const chars = (syntax: string, negated = false): Term => `[${negated ? "^" : ""}${syntax}]`;

/** A named rule. */
export const rule = (name: string, term: Term): string => `${name} ::= ${term}`;

/**
 * The rules of one grammar, each term named once: a term named again (the same alternatives of
 * a word trie's node, reached by two words or two word rules) is the rule it already is, as
 * node-llama-cpp's grammar generator keeps one rule per grammar text for its `GbnfOr` terms.
 */
export class RuleSet {
  private readonly names = new Map<Term, string>();
  private readonly defined: string[] = [];

  /** The name of a rule for `term`: `name`, or the name the same term was given before. */
  name(name: string, term: Term): string {
    const known = this.names.get(term);
    if (known !== undefined) return known;
    this.names.set(term, name);
    this.defined.push(rule(name, term));
    return name;
  }

  /** Any one of the terms ({@link alt}) as a rule of the set, named `name` unless the same alternatives have a name already. */
  alt(name: string, ...terms: ReadonlyArray<Term | undefined>): string {
    return this.name(name, alt(...terms));
  }

  /** The rules named so far, in the order first named. */
  rules(): readonly string[] {
    return this.defined;
  }
}

/** Rules as one grammar, the first its root. */
export const grammar = (...rules: readonly string[]): string => rules.join("\n");

/** One letter of a word trie: what follows it in the trie, and whether a word ends on it. */
export interface TrieNode {
  children: Map<string, TrieNode>;
  /** One of the words ends here. */
  end: boolean;
}

/** Words as a trie of their lower-case letters, one node per letter a word goes on through. */
export function wordTrie(words: readonly string[]): TrieNode {
  const root: TrieNode = { children: new Map(), end: false };
  for (const word of words) {
    let node = root;
    for (const c of word.toLocaleLowerCase()) {
      let next = node.children.get(c);
      if (!next) node.children.set(c, (next = { children: new Map(), end: false }));
      node = next;
    }
    node.end = true;
  }
  return root;
}

/** A character in either case; a capital of several letters ("ß" → "SS") is no form of one character. */
const caseForms = (c: string): string[] => [c, ...[c.toLocaleUpperCase()].filter((upper) => upper !== c && [...upper].length === 1)];

/** The letters a trie node goes on with, in either case: what a way out of the trie may not start with. */
export const trieLetters = (node: TrieNode): string[] => [...node.children.keys()].flatMap(caseForms);

/**
 * A trie node's alternatives (for {@link alt}): `out` (the way out of the trie, a character no word goes on
 * with), then each letter the words go on with, in either case, followed by what `next` makes
 * of its node (given the letter, lower-case); a letter whose `next` is undefined is left out (a word that may not be written).
 */
export function trieStep(
  node: TrieNode,
  out: Term,
  next: (child: TrieNode, letter: string) => Term | undefined,
  forms: (c: string) => string[] = caseForms,
): Term[] {
  const alternatives = [out];
  for (const [c, child] of node.children) {
    const rest = next(child, c);
    if (rest !== undefined) alternatives.push(seq(charClass(forms(c)), rest));
  }
  return alternatives;
}
