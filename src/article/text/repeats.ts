/**
 * Repetition, what a loop is made of: sentences said again, whole, nearly (a word or two
 * changed) or mostly, and runs of words (n-grams) said again. The sentence gate refuses a
 * sentence that repeats, and the report's repetition checks (duplicate-sentences, no-loops)
 * measure the same, from the same limits (plan/limits.ts LOOPS).
 */
import { distance } from "fastest-levenshtein";
import { normaliseSentence, wordSpans } from "./text.js";

/** When two sentences are the same one with a word or two changed (plan/limits.ts LOOPS.near). */
export interface NearLimits {
  /** Fewest words the shorter sentence holds: a shorter one says too little for a change to read as the same sentence. */
  words: number;
  /** Most words changed (replaced, added or dropped), in percent of the shorter sentence's words, rounded down. */
  share: number;
  /** Most words changed, whatever the length. */
  changes: number;
}

/** What a memory of repetition measures with: runs of `n` words, and when a sentence nearly repeats another. */
export interface RepeatLimits {
  n: number;
  near: NearLimits;
}

/** A sentence's words, lower-cased: what repetition compares. */
function wordsOf(text: string, language: string): string[] {
  return wordSpans(text, language).map((span) => span.word.toLocaleLowerCase(language));
}

/** Runs of `n` consecutive words, each as one key. */
function gramsOf(words: readonly string[], n: number): string[] {
  const grams: string[] = [];
  for (let i = 0; i + n <= words.length; i++) grams.push(words.slice(i, i + n).join("\u0000"));
  return grams;
}

/** Most words a sentence of `shorter` words may change and still be the same sentence as a longer one: 0 when it may change none. */
function changesAllowed(shorter: number, near: NearLimits): number {
  return shorter < near.words ? 0 : Math.min(near.changes, Math.floor((shorter * near.share) / 100));
}

/**
 * Words changed between two sentences (the edit distance over words): each distinct word of the
 * pair becomes one character, so fastest-levenshtein counts words replaced, added or dropped.
 */
function wordsChanged(a: readonly string[], b: readonly string[]): number {
  const codes = new Map<string, string>();
  const encode = (words: readonly string[]) =>
    words
      .map((word) => {
        let code = codes.get(word);
        if (code === undefined) codes.set(word, (code = String.fromCharCode(0x4e00 + codes.size)));
        return code;
      })
      .join("");
  return distance(encode(a), encode(b));
}

/** Whether more than `most` of `words` are missing from `set`: counted until it is so. */
function lacking(words: readonly string[], set: ReadonlySet<string>, most: number): boolean {
  let missing = 0;
  for (const word of words) if (!set.has(word) && ++missing > most) return true;
  return false;
}

/** A sentence said before, as a memory keeps it. */
interface Said {
  text: string;
  words: readonly string[];
  distinct: ReadonlySet<string>;
  /** The first sentence of those it repeats, whole or nearly (its own index when it repeats none). */
  first: number;
}

/** An earlier sentence a sentence says again. */
export interface Echo {
  /** The earlier sentence, as it was written. */
  of: string;
  /** Whether it says it whole (without case or punctuation), else nearly (a word or two changed). */
  whole: boolean;
  /** The index, in the memory, of the first sentence of those it repeats. */
  first: number;
}

/**
 * What a text said so far: its sentences, and its runs of `n` words. A near repeat is looked for
 * among the sentences of about the same length that hold most of its words, so a sentence is
 * compared with a few earlier ones, not with all.
 */
export class RepeatMemory {
  private readonly said: Said[] = [];
  private readonly whole = new Map<string, number>();
  private readonly byLength = new Map<number, number[]>();
  private readonly grams = new Set<string>();

  constructor(
    private readonly language: string,
    private readonly limits: RepeatLimits,
  ) {}

  /** The earlier sentence `sentence` says again, whole (without case or punctuation) or nearly, if any. */
  echo(sentence: string): Echo | undefined {
    const at = this.whole.get(normaliseSentence(sentence, this.language));
    if (at !== undefined) return { of: this.said[at]!.text, whole: true, first: this.said[at]!.first };
    const words = wordsOf(sentence, this.language);
    const most = changesAllowed(words.length, this.limits.near);
    for (let length = words.length - most; most > 0 && length <= words.length + most; length++) {
      for (const i of this.byLength.get(length) ?? []) {
        const earlier = this.said[i]!;
        const allowed = changesAllowed(Math.min(length, words.length), this.limits.near);
        // Each word the earlier sentence lacks is one change at least: most pairs end here, before the distance.
        if (allowed === 0 || lacking(words, earlier.distinct, allowed)) continue;
        if (wordsChanged(words, earlier.words) <= allowed) return { of: earlier.text, whole: false, first: earlier.first };
      }
    }
    return undefined;
  }

  /**
   * How much of a sentence was said before: 1 when it repeats one whole or nearly, else the share
   * of its runs of words said before (0 when it has too few words for a run).
   */
  repeated(sentence: string): number {
    return this.echo(sentence) ? 1 : this.runsSaid(sentence);
  }

  /** The share of a sentence's runs of words said before (0 when it has too few words for a run). */
  runsSaid(sentence: string): number {
    const grams = gramsOf(wordsOf(sentence, this.language), this.limits.n);
    if (grams.length === 0) return 0;
    return grams.filter((gram) => this.grams.has(gram)).length / grams.length;
  }

  /** Remember a sentence as said (`echo`: the earlier one it repeats, when it does and the caller asked); its index in the memory. */
  remember(sentence: string, echo?: Echo): number {
    const index = this.said.length;
    const words = wordsOf(sentence, this.language);
    this.said.push({ text: sentence, words, distinct: new Set(words), first: echo?.first ?? index });
    const key = normaliseSentence(sentence, this.language);
    if (!this.whole.has(key)) this.whole.set(key, index);
    const sameLength = this.byLength.get(words.length);
    if (sameLength) sameLength.push(index);
    else this.byLength.set(words.length, [index]);
    for (const gram of gramsOf(words, this.limits.n)) this.grams.add(gram);
    return index;
  }

  /** The sentence remembered at `index`. */
  text(index: number): string {
    return this.said[index]!.text;
  }
}

/** A block of prose as repetition reads it: its sentences, and the list or reference entry it stands in. */
export interface RepeatBlock {
  sentences: readonly string[];
  /** Its sentences repeat only sentences of the same group (absent: ordinary prose, which repeats any prose outside a group). */
  group?: number;
}

/** A sentence that says an earlier one of its group again. */
export interface Repeat {
  sentence: string;
  /** The earlier sentence, when it is said again whole or nearly. */
  of?: string;
  /** Said again whole (without case or punctuation), nearly (a word or two changed), or mostly (most of its runs of words said before). */
  how: "whole" | "nearly" | "mostly";
}

/** How much of a text repeats itself. */
export interface Repetition {
  /** Sentences of `words` words or more read, labels apart. */
  sentences: number;
  /** Every sentence (labels apart) that says an earlier one of its group again, whole or nearly, in order. */
  echoes: Repeat[];
  /** The sentences read that repeat an earlier one, whole, nearly or for at least `share` of their runs of words, in order. */
  repeats: Repeat[];
  /** The sentence said most often (its near repeats counted), how often, and how many of those nearly, when one is said twice or more. */
  mostSaid?: { sentence: string; times: number; nearly: number };
  /** The most times one sentence is said (whole or nearly) among `window` + 1 sentences in a row of its group: a loop says it again at once. */
  burst: number;
  /** Runs of `n` words read (a run never spans two sentences). */
  grams: number;
  /** Of those, the runs said before. */
  repeatedGrams: number;
  /**
   * The most sentences in a row that each repeat one of the `window` sentences of their group
   * before it: a loop says a passage again at once, where a manual repeats a note in each of its sections.
   */
  longestRun: number;
}

/** How repetition is measured (plan/limits.ts LOOPS). */
export interface RepetitionOptions extends RepeatLimits {
  language: string;
  /** Share of its runs of words said before that makes a sentence a repeat. */
  share: number;
  /** Fewest words of a sentence read for a loop. */
  words: number;
  /** Sentences of a group before a repeat that a run counts. */
  window: number;
  /** Most words of a label. */
  label: number;
}

/**
 * Whether a sentence is a label rather than a sentence to compare for repeats: `most` words or
 * fewer, or ending in a colon ("Yields:", "For example:", "Returns"), as reference text heads
 * each of its entries alike.
 */
export function isLabel(sentence: string, language: string, most: number): boolean {
  return /[:：]\s*$/u.test(sentence) || wordSpans(sentence, language).length <= most;
}

/** What repetition keeps of one group (or of the prose outside any): what it said, and the sentences read for a loop. */
interface Scope {
  memory: RepeatMemory;
  read: Array<{ sentence: string; first: number }>;
  /** How often each sentence was said, and how often nearly, by the index of the first of those it repeats. */
  times: Map<number, { times: number; nearly: number }>;
}

/**
 * Measure the repetition of a text's sentences, in order: labels are not read; a sentence repeats
 * one of its group said whole or nearly, and (for a loop) one of `words` words or more repeats
 * when `share` of its runs of `n` words were said before in its group.
 */
export function repetition(blocks: readonly RepeatBlock[], options: RepetitionOptions): Repetition {
  const { language, share, words, window, n } = options;
  const scopes = new Map<number | undefined, Scope>();
  const result: Repetition = { sentences: 0, echoes: [], repeats: [], burst: 0, grams: 0, repeatedGrams: 0, longestRun: 0 };
  const seen = new Set<string>();
  let run = 0;
  for (const block of blocks) {
    // Within a list or an entry only whole repeats count: reference text says each entry alike, a word apart ("Move cursor up…", "Move cursor down…").
    const limits = block.group === undefined ? options : { ...options, near: { ...options.near, changes: 0 } };
    const scope: Scope = scopes.get(block.group) ?? { memory: new RepeatMemory(language, limits), read: [], times: new Map() };
    scopes.set(block.group, scope);
    for (const sentence of block.sentences) {
      if (isLabel(sentence, language, options.label)) continue;
      const echo = scope.memory.echo(sentence);
      if (echo) result.echoes.push({ sentence, of: echo.of, how: echo.whole ? "whole" : "nearly" });
      const repeats = echo !== undefined || scope.memory.runsSaid(sentence) >= share;
      const index = scope.memory.remember(sentence, echo);
      const sentenceWords = wordsOf(sentence, language);
      if (sentenceWords.length < words) continue;
      result.sentences++;
      if (repeats) result.repeats.push(echo ? result.echoes.at(-1)! : { sentence, how: "mostly" });
      const recent = new RepeatMemory(language, limits);
      for (const before of scope.read.slice(-window)) recent.remember(before.sentence);
      run = repeats && recent.repeated(sentence) >= share ? run + 1 : 0;
      result.longestRun = Math.max(result.longestRun, run);
      const first = echo?.first ?? index;
      result.burst = Math.max(result.burst, 1 + scope.read.slice(-window).filter((before) => before.first === first).length);
      scope.read.push({ sentence, first });
      const said = scope.times.get(first) ?? { times: 0, nearly: 0 };
      said.times++;
      if (echo && !echo.whole) said.nearly++;
      scope.times.set(first, said);
      for (const gram of gramsOf(sentenceWords, n)) {
        result.grams++;
        if (seen.has(gram)) result.repeatedGrams++;
        else seen.add(gram);
      }
    }
  }
  for (const { memory, times } of scopes.values())
    for (const [first, said] of times)
      if (said.times > Math.max(1, result.mostSaid?.times ?? 0)) result.mostSaid = { sentence: memory.text(first), ...said };
  return result;
}

/** Whether a measured text loops, by the limits given (plan/limits.ts LOOPS). */
export function loops(
  measured: Repetition,
  limits: { run: number; repeatedSentences: number; repeatedGrams: number; said: number },
): boolean {
  const share = (part: number, whole: number) => (whole === 0 ? 0 : (100 * part) / whole);
  return (
    measured.longestRun >= limits.run ||
    measured.burst >= limits.said ||
    share(measured.repeats.length, measured.sentences) > limits.repeatedSentences ||
    share(measured.repeatedGrams, measured.grams) > limits.repeatedGrams
  );
}

/** The index of the first word where two sentences differ, for quoting a near repeat up to its change. */
export function differsAt(a: string, b: string, language: string): number {
  const [left, right] = [wordsOf(a, language), wordsOf(b, language)];
  let i = 0;
  while (i < left.length && left[i] === right[i]) i++;
  return i;
}
