/**
 * How close a text's meaning lies to a subject's, for languages with word vectors (English:
 * vectors.ts). Closeness is judged against a background, never as a bare cosine: a part's
 * cosine with the subject is compared with the cosines of {@link TOPICS} unrelated subjects
 * (space.ts), as a z-score, so a subject whose words sit close to everything (“home”, “guide”)
 * does not make every text look related. (Judging a text against its own cosines with the
 * unrelated subjects instead was measured too and told human text from unrelated text less well.)
 */
import { DIMENSIONS, dot, meanOfRows, TOPICS } from "./space.js";
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

/** The meaning of some words' rows: their SIF-weighted mean, the common direction taken out (unit length; zero for none). */
export function meaningOf(rows: readonly number[]): Float32Array {
  const vectors = wordVectors();
  return meanOfRows(vectors, rows, vectors.common);
}

/** A subject's background: the subject, and the mean and spread of the cosines unrelated subjects have with it. */
export interface Background {
  subject: Float32Array;
  mean: number;
  sd: number;
}

/** The background of a subject's meaning. */
export function backgroundOf(subject: Float32Array): Background {
  const { topics } = wordVectors();
  const cosines = Array.from({ length: TOPICS }, (_, t) => dot(subject, topics, t * DIMENSIONS));
  const mean = cosines.reduce((a, b) => a + b, 0) / TOPICS;
  const sd = Math.sqrt(cosines.reduce((a, c) => a + (c - mean) ** 2, 0) / TOPICS) || 1;
  return { subject, mean, sd };
}

/** How many of the background's standard deviations a meaning's cosine with the subject lies above what unrelated subjects have. */
export function closeness(meaning: Float32Array, background: Background): number {
  return (dot(meaning, background.subject) - background.mean) / background.sd;
}
