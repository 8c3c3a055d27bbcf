/**
 * How close a text's meaning lies to a subject's, for languages with word vectors (English:
 * vectors.ts), word by word: each word of the subject is matched with the word of the text
 * closest to it in meaning (its best cosine), and the subject's figure is the weighted mean of
 * the best of those cosines, over the words that hold most of the subject's weight. A text on
 * home composting says "heap", "greens" and "manure", each close to a word of the subject, where a
 * mean of all its words would blur them with everything else it says.
 *
 * Closeness is judged against a background, never as a bare cosine: the same figure is taken for
 * {@link TOPICS} unrelated subjects of a few words each (space.ts) against the same text, and the
 * subject's is a z-score among theirs. So a long text, whose many words come close to anything,
 * or a text of rare technical words (which GloVe places near every rare word), is measured
 * against what it does for any subject, not against an absolute cosine. (Measured against a mean
 * of the text's words with the background's cosines to the subject, this told human text from
 * unrelated text less well: docs/guarantees.md.)
 */
import { DIMENSIONS, meanOfRows, SUBJECT_WORDS, sifWeight, TOPICS } from "./space.js";
import { wordVectors } from "./vectors.js";

/** The languages whose words have vectors. */
export function hasVectors(language: string): boolean {
  return language === "en";
}

/** The vector rows of a text's words (lower-cased, stop words already out); words without a vector are skipped. */
export function vectorRows(words: readonly string[]): number[] {
  const { rows } = wordVectors();
  const out: number[] = [];
  for (const word of words) {
    const bare = word.replace(/['’]s$/u, "").replaceAll("’", "'");
    const row = rows.get(bare);
    if (row !== undefined) out.push(row);
    // A compound the vectors lack counts by its parts ("well-balanced": "well", "balanced"; "node.js": "node", "js").
    else for (const part of bare.split(/[-'.]/u)) if (rows.has(part)) out.push(rows.get(part)!);
  }
  return out;
}

/** What a text's words are matched with: the subject's words, then each background subject's, as unit vectors with their weights. */
export interface Reference {
  /** `size × DIMENSIONS`: each word's unit vector, the common direction taken out. */
  units: Float32Array;
  /** Each word's weight (SIF, from its frequency rank). */
  weights: Float32Array;
  /** How many of the words, from the first, are the subject's. */
  subject: number;
}

/** The background's words as a reference of their own, made once per process: they are the same for every subject. */
let background: Reference | undefined;

/** The unit vectors and weights of some rows. */
function unitsOf(rows: readonly number[]): Reference {
  const vectors = wordVectors();
  const units = new Float32Array(rows.length * DIMENSIONS);
  const weights = new Float32Array(rows.length);
  for (const [i, row] of rows.entries()) {
    units.set(meanOfRows(vectors, [row], vectors.common), i * DIMENSIONS);
    weights[i] = sifWeight(row, vectors.rows.size);
  }
  return { units, weights, subject: rows.length };
}

/** The reference for a subject's rows (each word once). */
export function referenceOf(subjectRows: readonly number[]): Reference {
  background ??= unitsOf([...wordVectors().subjects]);
  const subject = unitsOf([...new Set(subjectRows)]);
  const units = new Float32Array(subject.units.length + background.units.length);
  units.set(subject.units);
  units.set(background.units, subject.units.length);
  const weights = new Float32Array(subject.weights.length + background.weights.length);
  weights.set(subject.weights);
  weights.set(background.weights, subject.weights.length);
  return { units, weights, subject: subject.subject };
}

/**
 * For each text (its rows) and each word of the reference, the best cosine a word of the text has
 * with it (−1 where the text has none). Texts that share words (an article's parts) are measured
 * together, so each distinct word's cosines are taken once.
 */
export function nearestOf(reference: Reference, texts: readonly (readonly number[])[]): Float32Array[] {
  const vectors = wordVectors();
  const index = new Map<number, number>();
  const members = texts.map((rows) => [...new Set(rows)].map((row) => index.get(row) ?? index.set(row, index.size).get(row)!));
  const units = new Float32Array(index.size * DIMENSIONS);
  for (const [row, i] of index) units.set(meanOfRows(vectors, [row], vectors.common), i * DIMENSIONS);
  const size = reference.weights.length;
  const best = texts.map(() => new Float32Array(size).fill(-1));
  const cosines = new Float32Array(index.size);
  const refs = reference.units;
  for (let r = 0; r < size; r++) {
    const from = r * DIMENSIONS;
    for (let i = 0, at = 0; i < index.size; i++, at += DIMENSIONS) {
      // Four sums side by side: about 1.5 times as fast as one chain of additions.
      let a = 0;
      let b = 0;
      let c = 0;
      let e = 0;
      for (let d = 0; d < DIMENSIONS; d += 4) {
        a += refs[from + d]! * units[at + d]!;
        b += refs[from + d + 1]! * units[at + d + 1]!;
        c += refs[from + d + 2]! * units[at + d + 2]!;
        e += refs[from + d + 3]! * units[at + d + 3]!;
      }
      cosines[i] = a + b + c + e;
    }
    for (const [t, words] of members.entries()) {
      let top = -1;
      for (const i of words) if (cosines[i]! > top) top = cosines[i]!;
      best[t]![r] = top;
    }
  }
  return best;
}

/** The best cosines of texts taken together: for each reference word, the best any of them has. */
export function nearestOfAll(parts: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(parts[0]?.length ?? 0).fill(-1);
  for (const part of parts) for (let r = 0; r < out.length; r++) if (part[r]! > out[r]!) out[r] = part[r]!;
  return out;
}

/** The share of a subject's weight its best-matched words must hold: a text on the subject need not say anything near "guide" or "beginners". */
const MATCHED = 0.7;

/**
 * A subject's figure for a text: the weighted mean of the best cosines of the reference's words
 * `from` to `to`, over the best-matched of them that hold {@link MATCHED} of their weight.
 */
function covered(reference: Reference, nearest: Float32Array, from: number, to: number): number {
  const words = Array.from({ length: to - from }, (_, i) => from + i).sort((a, b) => nearest[b]! - nearest[a]!);
  const total = words.reduce((sum, r) => sum + reference.weights[r]!, 0);
  let sum = 0;
  let weights = 0;
  for (const r of words) {
    if (weights >= MATCHED * total) break;
    sum += reference.weights[r]! * nearest[r]!;
    weights += reference.weights[r]!;
  }
  return weights > 0 ? sum / weights : 0;
}

/** How many standard deviations the subject's figure for a text (its best cosines) lies above the unrelated subjects' figures for it. */
export function closeness(reference: Reference, nearest: Float32Array): number {
  const subject = covered(reference, nearest, 0, reference.subject);
  const background = Array.from({ length: TOPICS }, (_, t) => {
    const from = reference.subject + t * SUBJECT_WORDS;
    return covered(reference, nearest, from, from + SUBJECT_WORDS);
  });
  const mean = background.reduce((a, b) => a + b, 0) / TOPICS;
  const sd = Math.sqrt(background.reduce((a, c) => a + (c - mean) ** 2, 0) / TOPICS) || 1;
  return (subject - mean) / sd;
}
