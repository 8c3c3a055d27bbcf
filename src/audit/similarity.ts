/**
 * Near-duplicate pages: the Jaccard similarity of their sets of word shingles (every run of
 * {@link SHINGLE_WORDS} words, lower-cased), computed exactly from an inverted index of
 * shingles, so only pages that share a shingle are ever compared. Exact and deterministic:
 * the MinHash packages on npm draw their hash functions from Math.random (the same folder
 * could be reported differently twice) or lose precision past 2^53, and a thousand pages
 * need no estimate.
 */
import { wordSpans } from "../article/index.js";

/** Words in a shingle: five, as in Broder's near-duplicate detection for the web. */
const SHINGLE_WORDS = 5;
/** Pages whose shingle sets are at least this similar (Jaccard) are near-duplicates. */
export const NEAR_DUPLICATE = 0.5;
/** A page with fewer shingles than this is too short to compare. */
const MIN_SHINGLES = 20;
/** A shingle on more pages than this is boilerplate (a licence, a footer): it is not compared. */
const BOILERPLATE_PAGES = 200;

/** One page's text to compare. */
export interface ComparedText {
  text: string;
  language: string;
}

/** Near-duplicate pages: a group, each pair's similarity at least {@link NEAR_DUPLICATE} along a chain. */
export interface DuplicateGroup {
  /** Indexes of the pages, in order. */
  pages: number[];
  /** The highest similarity between two of them, rounded to 2 decimals. */
  similarity: number;
}

/** The shingles of a text, each hashed to 32 bits (FNV-1a). */
export function shingles({ text, language }: ComparedText): Set<number> {
  const words = wordSpans(text, language).map((span) => span.word.toLocaleLowerCase(language));
  const out = new Set<number>();
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i++) out.add(fnv1a(words.slice(i, i + SHINGLE_WORDS).join(" ")));
  return out;
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Groups of near-duplicate pages, from each page's distinct shingles. */
export function nearDuplicates(sets: readonly Uint32Array[], threshold = NEAR_DUPLICATE): DuplicateGroup[] {
  const pairs = sharedShingles(sets);
  const parent = sets.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  const best = new Map<number, number>();
  for (const [key, shared] of pairs) {
    const [a, b] = [Math.floor(key / sets.length), key % sets.length];
    const similarity = shared / (sets[a]!.length + sets[b]!.length - shared);
    if (similarity < threshold) continue;
    const [ra, rb] = [root(a), root(b)];
    parent[Math.max(ra, rb)] = Math.min(ra, rb);
    best.set(a, Math.max(best.get(a) ?? 0, similarity));
    best.set(b, Math.max(best.get(b) ?? 0, similarity));
  }
  const groups = new Map<number, number[]>();
  for (const page of best.keys()) groups.set(root(page), [...(groups.get(root(page)) ?? []), page]);
  return [...groups.values()]
    .map((pages) => pages.sort((x, y) => x - y))
    .map((pages) => ({ pages, similarity: Math.round(Math.max(...pages.map((p) => best.get(p)!)) * 100) / 100 }))
    .sort((x, y) => x.pages[0]! - y.pages[0]!);
}

/** For every pair of comparable pages that share a shingle (key a × n + b, a < b): how many they share. */
function sharedShingles(sets: readonly Uint32Array[]): Map<number, number> {
  const index = new Map<number, number[]>();
  sets.forEach((set, page) => {
    if (set.length < MIN_SHINGLES) return;
    for (const shingle of set) {
      const pages = index.get(shingle);
      if (pages) pages.push(page);
      else index.set(shingle, [page]);
    }
  });
  const pairs = new Map<number, number>();
  for (const pages of index.values()) {
    if (pages.length < 2 || pages.length > BOILERPLATE_PAGES) continue;
    for (let i = 0; i < pages.length; i++) {
      for (let j = i + 1; j < pages.length; j++) {
        const key = pages[i]! * sets.length + pages[j]!;
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
    }
  }
  return pairs;
}
