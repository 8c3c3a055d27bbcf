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
