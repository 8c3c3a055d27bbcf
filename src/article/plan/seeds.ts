/**
 * The one seed sequence: every sampling seed of an answer is drawn here from the request's seed
 * (the body's and a refresh's generation calls, an outline's alternatives, a field's rewrites),
 * so the same request with the same seed gives the same article, refresh or outline.
 */

/** A fresh sampling seed for each generation call, from the request's: the same seed gives the same article. */
export function seedSequence(seed: number): () => number {
  let step = 0;
  return () => (seed + 1 + step++ * 977) >>> 0;
}

/** The seed of an outline field's attempt: its outline's seed for the first, then another for each rewrite. */
export const attemptSeed = (seed: number, attempt: number): number => (seed + attempt * 7919) >>> 0;
