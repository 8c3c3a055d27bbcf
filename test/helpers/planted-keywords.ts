import type { PlanKeyword } from "../../src/planning/clusters.js";

/** Six planted groups: each keyword joins two of its group's words (in varied forms), some with the seed's "garden"; no two groups share a content word. */
const GROUPS = [
  [["compost", "composting", "composted"], ["manure"], ["leaf", "leaves"], ["worm", "worms"], ["heap", "heaps"]],
  [["tomato", "tomatoes"], ["seedling", "seedlings"], ["prune", "pruning"], ["stake", "staking"], ["blight"]],
  [["lawn", "lawns"], ["mow", "mowing"], ["moss"], ["fertilizer", "fertilizers"], ["aerate", "aerating"]],
  [
    ["rose", "roses"],
    ["bloom", "blooms", "blooming"],
    ["thorn", "thorns"],
    ["climber", "climbers"],
    ["aphid", "aphids"],
  ],
  [["irrigation"], ["drip"], ["hose", "hoses"], ["sprinkler", "sprinklers"], ["timer", "timers"]],
  [["pond", "ponds"], ["fish"], ["lily", "lilies"], ["pump", "pumps"], ["algae"]],
];

/** Sixty keywords in six planted groups, and each keyword's group. */
export function plantedKeywords(): { keywords: PlanKeyword[]; truth: number[] } {
  const keywords: PlanKeyword[] = [];
  const truth: number[] = [];
  for (const [g, vocab] of GROUPS.entries()) {
    for (let j = 0; j < 10; j++) {
      const a = vocab[j % vocab.length]!;
      const b = vocab[(j + 1) % vocab.length]!;
      const words = [a[j % a.length]!, b[(j + 1) % b.length]!];
      keywords.push({ keyword: `${j % 3 === 0 ? "garden " : ""}${words.join(" ")}`, volume: 1000 - j * 50 + g, difficulty: 20 + j });
      truth.push(g);
    }
  }
  return { keywords, truth };
}

const pairs = (n: number) => (n * (n - 1)) / 2;

/** The adjusted Rand index of two labellings of the same items (Hubert and Arabie). */
export function adjustedRand(a: readonly number[], b: readonly number[]): number {
  const table = new Map<string, number>();
  const rows = new Map<number, number>();
  const cols = new Map<number, number>();
  for (const [i, x] of a.entries()) {
    const y = b[i]!;
    table.set(`${x}:${y}`, (table.get(`${x}:${y}`) ?? 0) + 1);
    rows.set(x, (rows.get(x) ?? 0) + 1);
    cols.set(y, (cols.get(y) ?? 0) + 1);
  }
  const index = [...table.values()].reduce((s, n) => s + pairs(n), 0);
  const sumRows = [...rows.values()].reduce((s, n) => s + pairs(n), 0);
  const sumCols = [...cols.values()].reduce((s, n) => s + pairs(n), 0);
  const expected = (sumRows * sumCols) / pairs(a.length);
  return (index - expected) / ((sumRows + sumCols) / 2 - expected);
}
