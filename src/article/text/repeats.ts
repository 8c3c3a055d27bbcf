/**
 * Repetition, what a loop is made of: sentences said again, whole or mostly, and runs of
 * words (n-grams) said again. The sentence gate refuses a sentence that repeats, and the
 * report's no-loops check measures the same, from the same limits (plan/limits.ts).
 */
import { normaliseSentence, wordSpans } from "./text.js";

/** A text's runs of `n` consecutive words, lower-cased, each as one key. */
function wordGrams(text: string, language: string, n: number): string[] {
  const words = wordSpans(text, language).map((span) => span.word.toLocaleLowerCase(language));
  const grams: string[] = [];
  for (let i = 0; i + n <= words.length; i++) grams.push(words.slice(i, i + n).join("\u0000"));
  return grams;
}

/** What a text said so far: its sentences (normalised) and its runs of `n` words. */
export class RepeatMemory {
  private readonly sentences = new Set<string>();
  private readonly grams = new Set<string>();

  constructor(
    private readonly language: string,
    private readonly n: number,
  ) {}

  /**
   * How much of a sentence was said before: 1 when it repeats one whole (without case or
   * punctuation), else the share of its runs of words said before (0 when it has too few words for a run).
   */
  repeated(sentence: string): number {
    if (this.sentences.has(normaliseSentence(sentence, this.language))) return 1;
    const grams = wordGrams(sentence, this.language, this.n);
    if (grams.length === 0) return 0;
    return grams.filter((gram) => this.grams.has(gram)).length / grams.length;
  }

  /** Whether a sentence repeats one said before whole (without case or punctuation). */
  has(sentence: string): boolean {
    return this.sentences.has(normaliseSentence(sentence, this.language));
  }

  /** Remember a sentence as said. */
  remember(sentence: string): void {
    this.sentences.add(normaliseSentence(sentence, this.language));
    for (const gram of wordGrams(sentence, this.language, this.n)) this.grams.add(gram);
  }
}

/** How much of a text repeats itself. */
export interface Repetition {
  /** Sentences read. */
  sentences: number;
  /** The sentences that repeat an earlier one, whole or for at least `share` of their runs of words, in order. */
  repeats: string[];
  /** Runs of `n` words read (a run never spans two sentences). */
  grams: number;
  /** Of those, the runs said before. */
  repeatedGrams: number;
  /**
   * The most sentences in a row that each repeat one of the `window` sentences before it: a loop
   * says a passage again at once, where a manual repeats a note in each of its sections.
   */
  longestRun: number;
}

/**
 * Measure the repetition of a text's sentences, in order: `n` words a run, `share` of runs said
 * before making a sentence a repeat; sentences of fewer than `words` words are not read (a
 * stock line such as "Returns nothing." says too little to loop).
 */
export function repetition(
  sentences: readonly string[],
  options: { language: string; n: number; share: number; words: number; window: number },
): Repetition {
  const { language, n, share, words, window } = options;
  const memory = new RepeatMemory(language, n);
  const seen = new Set<string>();
  const read = sentences.filter((sentence) => wordSpans(sentence, language).length >= words);
  const result: Repetition = { sentences: read.length, repeats: [], grams: 0, repeatedGrams: 0, longestRun: 0 };
  let run = 0;
  for (const [i, sentence] of read.entries()) {
    const repeats = memory.repeated(sentence) >= share;
    if (repeats) result.repeats.push(sentence);
    const recent = new RepeatMemory(language, n);
    for (const before of read.slice(Math.max(0, i - window), i)) recent.remember(before);
    run = repeats && recent.repeated(sentence) >= share ? run + 1 : 0;
    result.longestRun = Math.max(result.longestRun, run);
    for (const gram of wordGrams(sentence, language, n)) {
      result.grams++;
      if (seen.has(gram)) result.repeatedGrams++;
      else seen.add(gram);
    }
    memory.remember(sentence);
  }
  return result;
}

/** Whether a measured text loops, by the limits given (plan/limits.ts LOOPS). */
export function loops(measured: Repetition, limits: { run: number; repeatedSentences: number; repeatedGrams: number }): boolean {
  const share = (part: number, whole: number) => (whole === 0 ? 0 : (100 * part) / whole);
  return (
    measured.longestRun >= limits.run ||
    share(measured.repeats.length, measured.sentences) > limits.repeatedSentences ||
    share(measured.repeatedGrams, measured.grams) > limits.repeatedGrams
  );
}
