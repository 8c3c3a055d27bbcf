/**
 * The arithmetic of meaning over the word vectors (vectors.ts): a text's meaning is the
 * weighted mean of its words' unit vectors, with the direction every text shares taken out,
 * and weighted as SIF does (Arora et al. 2017, "A simple but tough-to-beat baseline for sentence
 * embeddings"): a word weighs a / (a + p(word)), p its frequency, so "make" counts far less than
 * "mulch". GloVe lists its words by frequency; p follows Zipf's law from the word's rank.
 */

import { stopWords } from "./terms.js";

/** The dimensions of a vector. */
export const DIMENSIONS = 100;

/** How many unrelated subjects the background holds (background.ts). */
export const TOPICS = 256;

/** Word vectors as stored: each word's row in frequency order, and each row as signed bytes with its scale. */
export interface Space {
  /** The row of each word (row 0 is the most frequent). */
  rows: ReadonlyMap<string, number>;
  /** `rows.size × DIMENSIONS` signed bytes, row by row. */
  values: Int8Array;
  /** Each row's scale: the row's value `d` is `values[row * DIMENSIONS + d] * scales[row]` (unit length). */
  scales: Float32Array;
}

/** SIF's `a`: the frequency at which a word weighs half. */
const SIF_A = 1e-3;

/** A word's share of running text from its frequency rank: p(rank) = 1 / ((rank + 10) · H), Zipf's law over the vocabulary. */
export function backgroundShare(row: number, vocabulary: number): number {
  return 1 / ((row + 10) * (Math.log(vocabulary) + 0.58));
}

/** A word's weight from its frequency rank ({@link backgroundShare}). */
export function sifWeight(row: number, vocabulary: number): number {
  const p = backgroundShare(row, vocabulary);
  return SIF_A / (SIF_A + p);
}

/** Add `weight` times a row's unit vector to `into`. */
function addRow(space: Space, row: number, weight: number, into: Float32Array): void {
  const scale = space.scales[row]! * weight;
  const at = row * DIMENSIONS;
  for (let d = 0; d < DIMENSIONS; d++) into[d]! += space.values[at + d]! * scale;
}

/** The dot product of two vectors. */
function dot(a: Float32Array, b: Float32Array, offset = 0): number {
  let sum = 0;
  for (let d = 0; d < DIMENSIONS; d++) sum += a[d]! * b[offset + d]!;
  return sum;
}

/** `vector` with its component along the unit vector `common` taken out, scaled to unit length (zero stays zero). */
function withoutCommon(vector: Float32Array, common: Float32Array | undefined): Float32Array {
  const along = common ? dot(vector, common) : 0;
  const out = new Float32Array(DIMENSIONS);
  for (let d = 0; d < DIMENSIONS; d++) out[d] = vector[d]! - along * (common?.[d] ?? 0);
  const norm = Math.sqrt(dot(out, out));
  if (norm > 0) for (let d = 0; d < DIMENSIONS; d++) out[d]! /= norm;
  return out;
}

/** The SIF-weighted meaning of some rows, the common direction taken out. */
export function meanOfRows(space: Space, rows: Iterable<number>, common: Float32Array | undefined): Float32Array {
  const sum = new Float32Array(DIMENSIONS);
  for (const row of rows) addRow(space, row, sifWeight(row, space.rows.size), sum);
  return withoutCommon(sum, common);
}

/** The `k` rows whose unit vectors lie closest to `center`, kept in a small sorted list as the rows go by. */
function nearest(center: Float32Array, units: Float32Array, rows: readonly number[], k: number): number[] {
  const best: Array<{ row: number; cos: number }> = [];
  for (const row of rows) {
    const cos = dot(center, units, row * DIMENSIONS);
    if (best.length === k && cos <= best[k - 1]!.cos) continue;
    const at = best.findIndex((entry) => entry.cos < cos);
    best.splice(at < 0 ? best.length : at, 0, { row, cos });
    if (best.length > k) best.pop();
  }
  return best.map((entry) => entry.row);
}

/** Rows the background draws from: frequent enough to be known, past the commonest (mostly function words). */
const POOL = { from: 100, to: 30_000 } as const;

/** How many words make one background subject: about as many as a topic and title leave once stop words are out. */
export const SUBJECT_WORDS = 4;

/** How far a background subject's words reach: its seed word and every fourth of the seed's nearest words up to this many. */
const REACH = 12;

/**
 * What the build derives once: the common direction (the frequency-weighted mean of the pool's
 * words) and {@link TOPICS} unrelated subjects, each a word drawn at random from the pool (a fixed
 * seed, so every build draws the same) with 3 of its {@link REACH} nearest words, spaced so they are
 * not near-synonyms: the few related words a short subject such as "tax returns for freelancers"
 * has. Returned as rows, {@link SUBJECT_WORDS} a subject.
 */
export function backgroundSubjects(space: Space): { common: Float32Array; subjects: Int32Array } {
  const to = Math.min(POOL.to, space.rows.size);
  const stops = stopWords("en");
  const words = [...space.rows.keys()];
  const rows = Array.from({ length: to - POOL.from }, (_, i) => POOL.from + i).filter((row) => !stops.has(words[row]!));
  const mean = new Float32Array(DIMENSIONS);
  for (const row of rows) addRow(space, row, 1 / (row + 10), mean);
  const common = withoutCommon(mean, undefined);

  const units = new Float32Array(to * DIMENSIONS);
  for (const row of rows) units.set(meanOfRows(space, [row], common), row * DIMENSIONS);
  const subjects = new Int32Array(TOPICS * SUBJECT_WORDS);
  let seed = 0x1234567;
  for (let t = 0; t < TOPICS; t++) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const at = rows[seed % rows.length]! * DIMENSIONS;
    const near = nearest(units.subarray(at, at + DIMENSIONS), units, rows, REACH);
    for (let k = 0; k < SUBJECT_WORDS; k++) subjects[t * SUBJECT_WORDS + k] = near[k === 0 ? 0 : 4 * k - 1]!;
  }
  return { common, subjects };
}
