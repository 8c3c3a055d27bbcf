import { clichesFor } from "./cliches.js";

/** Where a banned phrase was completed in a text, and how to refuse it. */
export interface BannedMatch {
  /** The phrase as the request (or the cliché list) gives it. */
  phrase: string;
  /** Offset in the searched text where the phrase starts. */
  start: number;
  /** Offset where its last word starts, spaces before it included: the text is cut back to here. */
  cut: number;
  /** The phrase's last word: the model writes on from the cut with anything but it. */
  word: string;
}

/** Letters and digits of any script: a phrase matches only between two non-word characters. */
const WORD = "[\\p{L}\\p{N}\\p{M}]";
/** Apostrophes are matched in either form ("it's" and "it’s"). */
const APOSTROPHE = /['\u2019]/gu;

/**
 * The phrases an article never holds: the request's `avoid` list and, unless turned off,
 * the built-in AI clichés of its language. The writer asks it, piece by piece, whether the
 * text just written completed one; code then cuts back to the start of the phrase's last
 * word and lets the model write on under a grammar that refuses that word there (step.ts). Nothing is
 * ever deleted from a kept sentence.
 */
export class AvoidList {
  /** Every phrase, as given. */
  readonly phrases: readonly string[];
  private readonly pattern: RegExp | undefined;
  /** Characters of the longest phrase: how far back a new piece can complete one. */
  private readonly longest: number;

  constructor(options: { style: { avoid: string[]; cliches: boolean }; language: string }) {
    const phrases = [...options.style.avoid, ...(options.style.cliches ? clichesFor(options.language) : [])];
    const seen = new Set<string>();
    this.phrases = phrases.filter((p) => {
      const key = p.toLocaleLowerCase();
      return !seen.has(key) && seen.add(key);
    });
    this.longest = Math.max(0, ...this.phrases.map((p) => p.length));
    const alternatives = [...this.phrases].sort((a, b) => b.length - a.length).map(phrasePattern);
    // The lookahead asks for the character after the phrase: "so happy" is not completed by "so happ".
    this.pattern = alternatives.length ? new RegExp(`(?<!${WORD})(?:${alternatives.join("|")})(?=[^\\p{L}\\p{N}\\p{M}])`, "iu") : undefined;
  }

  /** Whether there is anything to avoid. */
  get empty(): boolean {
    return this.pattern === undefined;
  }

  /** Whether a whole text holds a banned phrase (its end counts as a word boundary). */
  holds(text: string): boolean {
    return this.pattern?.test(`${text} `) ?? false;
  }

  /**
   * A banned phrase completed in `text` at or after `from` (a new piece just arrived).
   * Only the last stretch is searched, so the cost per piece does not grow with the text.
   */
  completedIn(text: string, from: number): BannedMatch | undefined {
    if (!this.pattern) return undefined;
    const start = Math.max(0, from - this.longest - 2);
    const found = this.pattern.exec(text.slice(start));
    if (!found) return undefined;
    const matched = found[0];
    const phrase = this.phrases.find((p) => new RegExp(`^${phrasePattern(p)}$`, "iu").test(matched)) ?? matched;
    const lastWord = /(?:^|\s)(\S+)$/u.exec(matched)!;
    const at = start + found.index;
    const wordStart = at + lastWord.index + (lastWord[0].length - lastWord[1]!.length);
    let cut = wordStart;
    while (cut > 0 && /\s/u.test(text[cut - 1]!)) cut--;
    return { phrase, start: at, cut, word: lastWord[1]! };
  }
}

/** A phrase as a case-insensitive pattern: any run of spaces between words, either apostrophe. */
function phrasePattern(phrase: string): string {
  return phrase
    .trim()
    .split(/\s+/u)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&").replace(APOSTROPHE, "['\u2019]"))
    .join("\\s+");
}
