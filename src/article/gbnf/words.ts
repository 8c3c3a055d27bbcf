/**
 * Words a field may hold when the request bans single words: the letters of a word as a trie
 * of the banned words, so no word the grammar allows begins with one ("the", "then", "Lilych"),
 * in either case. The model never writes a banned word into a title or heading, so a field is
 * never rewritten (or left empty) for one.
 */
import { charClass, literal } from "./escape.js";
import { alt, group, opt, repeat, type RuleSet, rule, seq, type Term, type TrieNode, trieLetters, trieStep, wordTrie } from "./terms.js";

/** What is never a letter of a word in ASCII: punctuation, symbols, spaces and control characters (class syntax). */
export const ASCII_NOT_LETTER = "\\x00-\\x2f\\x3a-\\x40\\x5b-\\x60\\x7b-\\x7f";

/** What is never a letter of a word: {@link ASCII_NOT_LETTER}, and quotation marks and brackets outside ASCII. */
export const NOT_LETTER = `${ASCII_NOT_LETTER}\u201c\u201d\u201e\u00ab\u00bb\u300c-\u300f\uff08\uff09`;

/** Capital letters (Latin, Greek, Cyrillic), class syntax: what a word in lower case never opens with. */
const CAPITALS = "A-Z\u00c0-\u00d6\u00d8-\u00de\u0391-\u03a9\u0400-\u042f";

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
 * `words` (lower-case, letters only) and is none of `finals` exactly (a last word that may not
 * end a field: "the" is refused, "then" and "there" are not), in either case; with `lower`, the word
 * opens with no capital (a heading in sentence case). The rule of `name` is returned; its trie's
 * nodes are rules of `set`, one per distinct node (a node whose alternatives another node of any
 * word rule of the grammar already has is that node's rule).
 */
export function wordRules(
  name: string,
  words: readonly string[],
  letters: number,
  finals: readonly string[] = [],
  lower = false,
  set: RuleSet,
): string {
  let nodes = 0;
  const banned = new Set(words.map((w) => w.toLocaleLowerCase()));
  const whole = new Set(finals.map((w) => w.toLocaleLowerCase()));
  // The rest of a word once `node`'s letters (`prefix`) are written: undefined when nothing may follow.
  const visit = (node: TrieNode, prefix: string): string | undefined => {
    const left = letters - [...prefix].length;
    if (left <= 0) return undefined;
    // Any other letter leaves the listed words behind: the word goes on freely.
    // A word in lower case (`lower`) opens with no capital.
    const opening = lower && prefix === "";
    const out = seq(
      charClass(trieLetters(node), true, opening ? NOT_LETTER + CAPITALS : NOT_LETTER),
      left > 1 ? repeat("l", 0, left - 1) : "",
    );
    const step = (child: TrieNode, c: string) => {
      const word = prefix + c;
      // A banned word ended: no word may go on through it. A final one must go on.
      if (banned.has(word)) return undefined;
      const rest = visit(child, word);
      if (whole.has(word)) return rest;
      return rest ? opt(rest) : "";
    };
    const alternatives = opening ? trieStep(node, out, step, (c) => [c]) : trieStep(node, out, step);
    return set.alt(`${name}-${nodes++}`, ...alternatives);
  };
  return rule(name, visit(wordTrie([...banned, ...whole]), "")!);
}

/**
 * A run of the `c` rule's characters (scripts without spaces) from `least` to `most` (none at all
 * when `least` is not positive), the last of them `final`'s.
 */
export type Run = (least: number, most: number, final: string) => Term;

/** The plain {@link Run}: any characters. */
export const run: Run = (least, most, final) =>
  most <= 0 ? "" : least <= 0 ? opt(group(seq(repeat("c", 0, most - 1), final))) : seq(repeat("c", least - 1, most - 1), final);

/**
 * A {@link run} that does not begin with any word of `trie`, in either case: its first characters
 * leave the trie before a word of it is complete (a letter no word goes on with, or a space); a
 * character on the trie's path never ends the run, nor does a last one where a word could end.
 */
export function refusingRun(trie: TrieNode): Run {
  const visit = (node: TrieNode, done: number, least: number, most: number, final: string): Term | undefined => {
    if (done >= most) return undefined;
    const other = alt(charClass(trieLetters(node), true, NOT_LETTER), done > 0 ? seq(literal(" "), "l") : undefined);
    // A character no refused word goes on with, then the rest of the run; or a last character, where it completes no word.
    const ends = [...node.children.values()].some((child) => child.end);
    const out = alt(
      most - done > 1 ? seq(other, run(Math.max(1, least - done - 1), most - done - 1, final)) : undefined,
      least - done <= 1 && !ends ? final : undefined,
    );
    return alt(...trieStep(node, out, (child) => (child.end ? undefined : visit(child, done + 1, least, most, final)))) || undefined;
  };
  return (least, most, final) => {
    const refusing = visit(trie, 0, Math.max(1, least), most, final) ?? "";
    return least <= 0 && refusing ? opt(group(refusing)) : refusing;
  };
}
