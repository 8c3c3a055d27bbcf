/**
 * An independent reading of near repeats for the article rules (rules.ts): two sentences are
 * the same one with a word or two changed when their words, lower-cased, differ by at most 2
 * replaced, added or dropped, and at most a fifth of the shorter one's words (which has 6 words or
 * more). Plain dynamic programming over words, nothing from src/.
 */

/** Words replaced, added or dropped between two word lists. */
function wordDistance(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/** Each sentence that says an earlier one again with a word or two changed (not whole), with the one it repeats. */
export function nearRepeats(
  sentences: readonly string[],
  wordsOf: (sentence: string) => string[],
): Array<{ sentence: string; of: string }> {
  const read = sentences.map((sentence) => ({ sentence, words: wordsOf(sentence).map((word) => word.toLowerCase()) }));
  const found: Array<{ sentence: string; of: string }> = [];
  for (const [i, { sentence, words }] of read.entries()) {
    const earlier = read.slice(0, i).find((before) => {
      const shorter = Math.min(before.words.length, words.length);
      const allowed = shorter < 6 ? 0 : Math.min(2, Math.floor(shorter / 5));
      const changed = wordDistance(before.words, words);
      return changed > 0 && changed <= allowed;
    });
    if (earlier) found.push({ sentence, of: earlier.sentence });
  }
  return found;
}
