/**
 * Where a model is loaded, its embeddings place the keywords that word forms and shared terms
 * left alone: a keyword sharing no term with any other joins the group it is nearest in meaning.
 * The lexical groups stay as they are: a placed keyword joins one, never splits or merges them,
 * and never becomes a group's primary keyword (its place rests on the model alone).
 */
import { MOST_PER_ARTICLE, type Cluster } from "./clusters.js";

/** One vector per text, in order: the loaded model's embeddings. */
export type Embed = (texts: readonly string[]) => Promise<number[][]>;

/**
 * Least cosine similarity between a lone keyword and a group's centroid for it to join the
 * group: below it the keyword keeps an article of its own.
 */
export const LEAST_SIMILARITY = 0.5;

/**
 * Most keywords one plan embeds (its groups' and its lone ones): each is a model evaluation
 * outside the generation slots, so a 2,000-keyword plan would hold the model for minutes. A
 * larger plan keeps its lexical groups and places nothing.
 */
export const MOST_EMBEDDED = 300;

/** A lone keyword, the group nearest it (by its primary keyword) and how near, and whether it joined that group. */
export interface Placement {
  keyword: string;
  primary: string;
  similarity: number;
  joined: boolean;
}

/**
 * The clusters with each lone keyword (a group of one) moved into the group of two or more
 * whose centroid is nearest by cosine similarity, when it is at least {@link LEAST_SIMILARITY};
 * it joins after the group's own keywords, into a group with room ({@link MOST_PER_ARTICLE}
 * keywords an article). Every lone keyword is answered with its nearest group,
 * joined or not; with more than {@link MOST_EMBEDDED} keywords to embed, none is placed.
 * Deterministic: the same vectors give the same groups.
 */
export async function placeLoneKeywords(clusters: readonly Cluster[], embed: Embed): Promise<{ clusters: Cluster[]; lone: Placement[] }> {
  const groups = clusters.filter((c) => c.keywords.length > 1);
  const lone = clusters.filter((c) => c.keywords.length === 1);
  const embedded = groups.reduce((n, g) => n + g.keywords.length, lone.length);
  if (!groups.length || !lone.length || embedded > MOST_EMBEDDED) return { clusters: [...clusters], lone: [] };
  const vectors = await embed([...groups.flatMap((g) => g.keywords), ...lone.map((c) => c.primary)]);
  let next = 0;
  const centroids = groups.map((g) => centroid(g.keywords.map(() => vectors[next++]!)));
  const joined = new Map<Cluster, string[]>(groups.map((g) => [g, []]));
  const placed: Placement[] = [];
  for (const single of lone) {
    const vector = vectors[next++]!;
    const scores = centroids.map((c) => cosine(vector, c));
    // A group holding as many keywords as an article takes has no room: the nearest with room is its match.
    const room = scores.map((score, g) =>
      groups[g]!.keywords.length + joined.get(groups[g]!)!.length < MOST_PER_ARTICLE ? score : -Infinity,
    );
    const best = Math.max(...room) > -Infinity ? room.indexOf(Math.max(...room)) : scores.indexOf(Math.max(...scores));
    const joins = room[best]! >= LEAST_SIMILARITY;
    if (joins) joined.get(groups[best]!)!.push(single.primary);
    placed.push({ keyword: single.primary, primary: groups[best]!.primary, similarity: scores[best]!, joined: joins });
  }
  const out = clusters.flatMap((c) => {
    if (c.keywords.length === 1) return placed.some((p) => p.keyword === c.primary && p.joined) ? [] : [c];
    return [{ primary: c.primary, keywords: [...c.keywords, ...joined.get(c)!] }];
  });
  return { clusters: out, lone: placed };
}

function centroid(vectors: readonly number[][]): number[] {
  const sum = new Array<number>(vectors[0]!.length).fill(0);
  for (const vector of vectors) for (const [i, x] of vector.entries()) sum[i]! += x / vectors.length;
  return sum;
}

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (const [i, x] of a.entries()) {
    dot += x * b[i]!;
    aa += x * x;
    bb += b[i]! * b[i]!;
  }
  return aa && bb ? dot / Math.sqrt(aa * bb) : 0;
}
