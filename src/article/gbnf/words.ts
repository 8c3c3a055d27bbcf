/**
 * Words a field may hold when the request bans single words: the letters of a word as a trie
 * of the banned words, so no word the grammar allows begins with one ("the", "then", "Lilych"),
 * in either case. The model never writes a banned word into a title or heading, so a field is
 * never rewritten (or left empty) for one.
 */
import { charClass, escapeChar } from "./escape.js";

/** What is never a letter of a word: ASCII punctuation, symbols, spaces, control characters, and quotation marks and brackets outside ASCII. */
export const NOT_LETTER = "\\x00-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f\u201c\u201d\u201e\u00ab\u00bb\u300c-\u300f\uff08\uff09";

/** A letter but none of `chars`. */
const letterBut = (chars: readonly string[]) => `[^${NOT_LETTER}${chars.map((c) => escapeChar(c, "class")).join("")}]`;

/** A character in either case; a capital of several letters ("ß" → "SS") is no form of one character. */
const forms = (c: string) => [c, ...[c.toLocaleUpperCase()].filter((upper) => upper !== c && [...upper].length === 1)];

interface Node {
  children: Map<string, Node>;
  /** A banned word ends here: no word may go on through it. */
  banned: boolean;
}

/**
 * The banned words a field's word rule can refuse: those made of letters only (a word with a
 * mark inside is matched, and its field rewritten, as any phrase is), lower-cased.
 */
export function refusableWords(words: readonly string[]): string[] {
  const letter = new RegExp(`^[^${NOT_LETTER}]+$`, "u");
  return [...new Set(words.map((w) => w.toLocaleLowerCase()).filter((w) => letter.test(w)))];
}

/**
 * GBNF rules defining `name`: a run of 1 to `letters` letters that does not begin with any of
 * `words` (lower-case, letters only), in either case. One rule per trie node.
 */
export function wordRules(name: string, words: readonly string[], letters: number): string[] {
  const root: Node = { children: new Map(), banned: false };
  for (const word of words) {
    let node = root;
    for (const c of word) {
      let next = node.children.get(c);
      if (!next) node.children.set(c, (next = { children: new Map(), banned: false }));
      node = next;
    }
    node.banned = true;
  }
  const rules: string[] = [];
  // The rest of a word once `node`'s letters are written (`depth` of them): undefined when nothing may follow.
  const visit = (node: Node, depth: number): string | undefined => {
    const left = letters - depth;
    if (left <= 0) return undefined;
    const taken = [...node.children.keys()].flatMap(forms);
    const alternatives = [`${letterBut(taken)}${left > 1 ? ` l{0,${left - 1}}` : ""}`];
    for (const [c, child] of node.children) {
      if (child.banned) continue;
      const rest = visit(child, depth + 1);
      alternatives.push(`${charClass(forms(c))}${rest ? ` ${rest}?` : ""}`);
    }
    const rule = `${name}-${rules.length}`;
    rules.push(`${rule} ::= ${alternatives.join(" | ")}`);
    return rule;
  };
  const first = visit(root, 0)!;
  return [`${name} ::= ${first}`, ...rules];
}
