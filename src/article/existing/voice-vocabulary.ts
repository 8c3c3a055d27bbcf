/**
 * The house's words against a background: the phrases it keeps coming back to and the common
 * words it never writes, each ranked by its log-odds against English at large. The background
 * is the word vectors' vocabulary in its frequency order, each word's share of running text
 * estimated from its rank by Zipf's law (`backgroundShare`, as the on-topic check weighs words).
 */
import type { VoiceSample } from "../report/voice-sample.js";
import { functionWords } from "../text/function-words.js";
import { backgroundShare } from "../text/space.js";
import { wordVectors } from "../text/vectors.js";

/** Most phrases and words a profile keeps. */
const KEEP = { phrases: 10, avoided: 20 } as const;
/** A common word is never used when the background expects it at least this often in the examples' words. */
const EXPECTED = 3;
/** Common words looked at: the background's most frequent. */
const COMMON = 400;

/** A word's background share (a word the vocabulary lacks counts as its rarest). */
function share(word: string): number {
  const { rows } = wordVectors();
  return backgroundShare(rows.get(word) ?? rows.size, rows.size);
}

/** Each run of two or three words within a sentence, lower-case, counted by article. */
function runsOf(samples: readonly VoiceSample[], language: string): Map<string, { count: number; articles: number }> {
  const runs = new Map<string, { count: number; articles: number }>();
  for (const sample of samples) {
    const seen = new Set<string>();
    for (const words of sample.runs) {
      for (let n = 2; n <= 3; n++) {
        for (let i = 0; i + n <= words.length; i++) {
          const run = words.slice(i, i + n);
          const fn = functionWords(language);
          if (fn.has(run[0]!) || fn.has(run.at(-1)!)) continue;
          const key = run.join(" ");
          const entry = runs.get(key) ?? { count: 0, articles: 0 };
          entry.count++;
          if (!seen.has(key)) entry.articles++;
          seen.add(key);
          runs.set(key, entry);
        }
      }
    }
  }
  return runs;
}

/**
 * Recurring phrases: runs of two or three words (neither end a function word) found in at least
 * two examples (three times in a voice of one), ranked by log-odds: the run's share of the
 * examples' words against the share its words' background shares give it as independent words.
 */
export function recurringPhrases(samples: readonly VoiceSample[], language: string): string[] {
  const words = samples.reduce((total, sample) => total + sample.words, 0);
  const scored: Array<{ phrase: string; odds: number }> = [];
  for (const [phrase, { count, articles }] of runsOf(samples, language)) {
    if (samples.length > 1 ? articles < 2 : count < 3) continue;
    const expected = phrase.split(" ").reduce((log, word) => log + Math.log(share(word)), 0);
    scored.push({ phrase, odds: Math.log(count / words) - expected });
  }
  return scored
    .sort((a, b) => b.odds - a.odds)
    .slice(0, KEEP.phrases)
    .map((entry) => entry.phrase);
}

/**
 * Common words never used: among the background's {@link COMMON} most frequent words, those the
 * examples never write though the background expects at least {@link EXPECTED} in as many words,
 * most expected first (the lowest log-odds, log(½ ÷ expected), with half a use as the prior).
 */
export function avoidedWords(samples: readonly VoiceSample[]): string[] {
  const words = samples.reduce((total, sample) => total + sample.words, 0);
  const used = new Set(samples.flatMap((sample) => [...sample.counts.keys()]));
  const { rows } = wordVectors();
  const out: string[] = [];
  for (const [word, row] of rows) {
    if (row >= COMMON || out.length >= KEEP.avoided) break;
    if (!/^\p{L}+$/u.test(word) || used.has(word)) continue;
    if (words * backgroundShare(row, rows.size) >= EXPECTED) out.push(word);
  }
  return out;
}
