import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ModelRuntime } from "../../src/model/runtime.js";
import { clusterKeywords, type Cluster } from "../../src/planning/clusters.js";
import { LEAST_SIMILARITY, MOST_EMBEDDED, placeLoneKeywords } from "../../src/planning/embeddings.js";
import { plantedKeywords } from "../helpers/planted-keywords.js";

const STORIES_MODEL = path.resolve(import.meta.dirname, "../../../shared/models/stories260K.gguf");
const HAS_STORIES_MODEL = existsSync(STORIES_MODEL);
if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the planning embeddings need ${STORIES_MODEL}, which is not there.`);

const topic = "Home garden care";
/** Keywords sharing no content word with any planted group, nor with each other. */
const LONE = ["birdhouse paint", "greenhouse heater"];

/** The clusters of the planted keywords and the lone ones. */
function clusters(): Cluster[] {
  const { keywords } = plantedKeywords();
  return clusterKeywords([...keywords, ...LONE.map((keyword) => ({ keyword, volume: 5000 }))], { topic, language: "en" });
}

/** Each planted group's keywords lie in one cluster, its own: the lexical groups are neither split nor merged. */
function expectPlantedGroupsKept(out: readonly Cluster[]): void {
  const { keywords, truth } = plantedKeywords();
  const homes = [0, 1, 2, 3, 4, 5].map(
    (g) => new Set(keywords.filter((_, i) => truth[i] === g).map((k) => out.findIndex((c) => c.keywords.includes(k.keyword)))),
  );
  for (const home of homes) expect(home.size).toBe(1);
  expect(new Set(homes.map((home) => [...home][0])).size).toBe(6);
}

describe("placing lone keywords by embeddings", () => {
  it("moves a lone keyword into the group whose centroid is nearest, above the least similarity, after the group's own", async () => {
    const groups: Cluster[] = [
      { primary: "a1", keywords: ["a1", "a2"] },
      { primary: "b1", keywords: ["b1", "b2"] },
      { primary: "near b", keywords: ["near b"] },
      { primary: "far", keywords: ["far"] },
    ];
    const vectors: Record<string, number[]> = {
      a1: [1, 0, 0],
      a2: [1, 0.2, 0],
      b1: [0, 1, 0],
      b2: [0.2, 1, 0],
      "near b": [0.1, 1, 0.1],
      far: [0, 0, 1],
    };
    const { clusters: out, lone } = await placeLoneKeywords(groups, async (texts) => texts.map((t) => vectors[t]!));
    expect(out).toEqual([groups[0], { primary: "b1", keywords: ["b1", "b2", "near b"] }, groups[3]]);
    expect(lone).toEqual([
      { keyword: "near b", primary: "b1", similarity: expect.any(Number), joined: true },
      { keyword: "far", primary: expect.any(String), similarity: expect.any(Number), joined: false },
    ]);
    expect(lone[0]!.similarity).toBeGreaterThanOrEqual(LEAST_SIMILARITY);
    expect(lone[1]!.similarity).toBeLessThan(LEAST_SIMILARITY);
  });

  it("embeds nothing when a plan has more keywords than one may embed, keeping its groups", async () => {
    const big: Cluster[] = [
      { primary: "k0", keywords: Array.from({ length: MOST_EMBEDDED }, (_, i) => `k${i}`) },
      { primary: "lone", keywords: ["lone"] },
    ];
    let asked = 0;
    const placed = await placeLoneKeywords(big, async (texts) => {
      asked += texts.length;
      return texts.map(() => [1, 0]);
    });
    expect(asked).toBe(0);
    expect(placed).toEqual({ clusters: big, lone: [] });
  });
});

// The real path: stories260K's embeddings (64 dimensions, trained on children's stories: weak for meaning).
describe.skipIf(!HAS_STORIES_MODEL)("placing lone keywords by stories260K's embeddings", () => {
  let runtime: ModelRuntime;
  beforeAll(async () => {
    runtime = await ModelRuntime.load({ modelPath: STORIES_MODEL, threads: 1, sequences: 1, queueSize: 0, gpu: "off" });
  });
  afterAll(async () => {
    await runtime?.dispose();
  });

  it("is deterministic, keeps the lexical groups whole, and never makes a placed keyword a primary", { timeout: 60_000 }, async () => {
    const before = clusters();
    expect(
      before
        .filter((c) => c.keywords.length === 1)
        .map((c) => c.primary)
        .sort(),
    ).toEqual(LONE);
    const embed = (texts: readonly string[]) => runtime.embeddings(texts);
    const first = await placeLoneKeywords(before, embed);
    const second = await placeLoneKeywords(before, embed);
    expect(second).toEqual(first);
    expectPlantedGroupsKept(first.clusters);
    const primaries = new Set(first.clusters.map((c) => c.primary));
    expect(first.lone.map((p) => p.keyword).sort()).toEqual(LONE);
    for (const p of first.lone.filter((q) => q.joined)) {
      expect(primaries.has(p.keyword)).toBe(false);
      // It joins after the group's own keywords.
      const own = before.find((c) => c.primary === p.primary)!.keywords.length;
      expect(first.clusters.find((c) => c.primary === p.primary)!.keywords.indexOf(p.keyword)).toBeGreaterThanOrEqual(own);
    }
    // Every keyword is still planned once: placed into a group or left alone.
    expect(first.clusters.flatMap((c) => c.keywords).sort()).toEqual(before.flatMap((c) => c.keywords).sort());
  });
});
