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

/** Letters and digits of any script: a phrase that opens on one matches only after a non-word character. */
const WORD = "[\\p{L}\\p{N}\\p{M}]";
/** Scripts written without spaces between words: a phrase in one matches wherever it stands. */
const UNSPACED =
  /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/u;
/** Apostrophes are matched in any form ("it's", "it’s" and "itʼs"). */
const APOSTROPHE = /['\u2019\u02bc]/gu;

/** Where a phrase of a {@link PhraseMatcher} stands in a text. */
interface PhraseAt {
  phrase: string;
  index: number;
  /** The text it matched. */
  text: string;
}

/**
 * A list of phrases matched as the writer refuses them (see {@link phrasePattern}), in one
 * pattern: where several match at one place, the longest phrase is the one found, so a text
 * holding "delved" counts it once, not also as "delve".
 */
class PhraseMatcher {
  private readonly pattern: RegExp;
  private readonly ordered: readonly string[];
  /** Each phrase's own pattern, sticky: which phrase the list's pattern found is asked only once it found one. */
  private readonly each: readonly RegExp[];

  /** `whole`: a phrase matches only once a character that is no letter follows it, so no longer word holds it. */
  constructor(phrases: readonly string[], whole = false) {
    this.ordered = [...phrases].sort((a, b) => b.length - a.length);
    const end = whole ? `(?=[^\\p{L}\\p{N}\\p{M}])` : "";
    // One lookbehind for each run of bounded phrases and no capturing groups: one of each per phrase
    // made the search, run on every piece the model writes, about three times slower.
    this.pattern = new RegExp(
      runsOf(this.ordered)
        .map((run) => run + end)
        .join("|"),
      "giu",
    );
    this.each = this.ordered.map((p) => new RegExp(phrasePattern(p) + end, "iuy"));
  }

  /** The first phrase that starts at or after `from`: at one place, the first in the list's order, as the list's pattern chose. */
  find(text: string, from = 0): PhraseAt | undefined {
    this.pattern.lastIndex = from;
    const found = this.pattern.exec(text);
    if (!found) return undefined;
    for (const [i, own] of this.each.entries()) {
      own.lastIndex = found.index;
      const at = own.exec(text);
      if (at && at[0] === found[0]) return { phrase: this.ordered[i]!, index: found.index, text: found[0] };
    }
    throw new Error(`no phrase of the list matches "${found[0]}"`);
  }

  /** How often each phrase stands in the texts (phrases never found are left out). */
  count(texts: readonly string[]): Map<string, number> {
    const counts = new Map<string, number>();
    for (const text of texts) {
      for (let at = this.find(text); at; at = this.find(text, at.index + at.text.length))
        counts.set(at.phrase, (counts.get(at.phrase) ?? 0) + 1);
    }
    return counts;
  }
}

/**
 * The phrases an article never holds: the request's `avoid` list and, unless turned off,
 * the built-in AI clichés of its language. The writer asks it, piece by piece, whether the
 * text just written completed one; code then cuts back to the start of the phrase's last
 * word and lets the model write on under a grammar that refuses any word beginning with that
 * word there (body/step.ts). Nothing is ever deleted from a kept sentence.
 */
export class AvoidList {
  /** Every phrase, as given. */
  readonly phrases: readonly string[];
  private readonly matcher: PhraseMatcher | undefined;
  /** The whole words refused (a house voice's other spelling variant). */
  private readonly whole: PhraseMatcher | undefined;
  private readonly spellings: readonly string[];
  /** Characters of the longest phrase: how far back a new piece can complete one. */
  private readonly longest: number;

  /**
   * `keep`: phrases the request asks for (its keywords, its links' keywords): a built-in cliché
   * one of them holds is not avoided, since the request wants it written. @default none
   */
  /**
   * `spellings`: words refused only as whole words (the spellings of the variant a house voice does
   * not write, `plan/voice.ts`): a longer word that begins with one ("rigorous" for "rigor") is
   * not refused in the body, since a word matches only once a character that is no letter follows. @default none
   */
  constructor(options: {
    style: { avoid: string[]; cliches: boolean };
    language: string;
    keep?: readonly string[];
    spellings?: readonly string[];
  }) {
    const keep = options.keep ?? [];
    const cliches = options.style.cliches ? clichesFor(options.language).filter((c) => countBanned(keep, [c]).size === 0) : [];
    const phrases = [...options.style.avoid, ...cliches];
    const seen = new Set<string>();
    this.phrases = phrases.filter((p) => {
      const key = p.toLocaleLowerCase();
      return !seen.has(key) && seen.add(key);
    });
    this.spellings = options.spellings ?? [];
    this.longest = Math.max(0, ...[...this.phrases, ...this.spellings].map((p) => p.length));
    this.matcher = this.phrases.length ? new PhraseMatcher(this.phrases) : undefined;
    this.whole = this.spellings.length ? new PhraseMatcher(this.spellings, true) : undefined;
  }

  /** The phrases of one word: a word that begins with one is refused wherever it stands. */
  get words(): string[] {
    return [...this.phrases.filter((p) => !/\s/u.test(p.trim())), ...this.spellings];
  }

  /** Whether there is anything to avoid. */
  get empty(): boolean {
    return this.matcher === undefined && this.whole === undefined;
  }

  /** Whether a text holds a banned phrase. */
  holds(text: string): boolean {
    return this.find(text) !== undefined;
  }

  /** The first banned phrase or whole word at or after `from`. */
  private find(text: string, from = 0): PhraseAt | undefined {
    const phrase = this.matcher?.find(text, from);
    const word = this.whole?.find(text, from);
    return phrase && word ? (word.index < phrase.index ? word : phrase) : (phrase ?? word);
  }

  /**
   * A banned phrase completed in `text` at or after `from` (a new piece just arrived): the
   * moment its last character is there, whatever follows it. Only the last stretch is
   * searched, so the cost per piece does not grow with the text.
   */
  completedIn(text: string, from: number): BannedMatch | undefined {
    const found = this.find(text, Math.max(0, from - this.longest - 2));
    if (!found) return undefined;
    const lastWord = /(?:^|\s)(\S+)$/u.exec(found.text)!;
    const wordStart = found.index + lastWord.index + (lastWord[0].length - lastWord[1]!.length);
    let cut = wordStart;
    while (cut > 0 && /\s/u.test(text[cut - 1]!)) cut--;
    return { phrase: found.phrase, start: found.index, cut, word: lastWord[1]! };
  }
}

/** The phrases' patterns in order, each run of phrases alike in their start under one lookbehind. */
function runsOf(ordered: readonly string[]): string[] {
  const runs: { bounded: boolean; words: string[] }[] = [];
  for (const phrase of ordered) {
    const { bounded, words } = phraseParts(phrase);
    const last = runs.at(-1);
    if (last?.bounded === bounded) last.words.push(words);
    else runs.push({ bounded, words: [words] });
  }
  return runs.map((run) => `${run.bounded ? `(?<!${WORD})` : ""}(?:${run.words.join("|")})`);
}

/**
 * A phrase as a case-insensitive pattern, matched as written: any run of spaces between its
 * words, any apostrophe, and after a non-word character when it opens on a letter or digit of
 * a script that spaces its words. Its end asks nothing: a last word with letters glued on
 * ("Lilych") is the phrase, and a phrase ending in a symbol ("happy 🙂") holds that symbol.
 */
function phrasePattern(phrase: string): string {
  const { bounded, words } = phraseParts(phrase);
  return bounded ? `(?<!${WORD})${words}` : words;
}

/** A phrase's words as a pattern, and whether it must follow a non-word character. */
function phraseParts(phrase: string): { bounded: boolean; words: string } {
  const words = phrase
    .trim()
    .split(/\s+/u)
    .map((word) => word.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&").replace(APOSTROPHE, "['\u2019\u02bc]"))
    .join("\\s+");
  const bounded = new RegExp(`^${WORD}`, "u").test(phrase.trim()) && !UNSPACED.test(phrase.trim());
  return { bounded, words };
}

/** Matchers of the phrase lists counted lately: the report counts the clichés and the request's list. */
const matchers = new Map<string, PhraseMatcher>();

/**
 * How often each phrase stands in the texts, matched as the writer refuses it ({@link AvoidList}):
 * the `avoid` and cliché checks count what the writer would have refused. Phrases never found are left out.
 */
export function countBanned(texts: readonly string[], phrases: readonly string[]): Map<string, number> {
  if (phrases.length === 0) return new Map();
  const key = phrases.join("\n");
  let matcher = matchers.get(key);
  if (!matcher) {
    matcher = new PhraseMatcher(phrases);
    matchers.set(key, matcher);
    if (matchers.size > 16) matchers.delete(matchers.keys().next().value!);
  }
  return matcher.count(texts);
}
