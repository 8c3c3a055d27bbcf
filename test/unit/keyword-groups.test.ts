import { describe, expect, it } from "vitest";
import { type Cluster, clusterKeywords, MOST_PER_ARTICLE, type PlanKeyword, planSite } from "../../src/planning/clusters.js";
import { coffeeExport } from "../helpers/coffee-keywords.js";
import { adjustedRand, plantedKeywords } from "../helpers/planted-keywords.js";

/** The export's rows as the keyword file gives them. */
function coffeeRows(): { keywords: PlanKeyword[]; truth: number[] } {
  const { csv, truth } = coffeeExport();
  const keywords = csv
    .split("\n")
    .slice(1)
    .map((line) => {
      const [keyword, volume, difficulty] = line.split(",");
      return { keyword: keyword!, volume: Number(volume), difficulty: Number(difficulty) };
    });
  return { keywords, truth };
}

/** Each keyword's group, and every keyword in exactly one. */
function groupsOf(keywords: readonly PlanKeyword[], clusters: readonly Cluster[]): number[] {
  const all = clusters.flatMap((c) => c.keywords);
  expect(all.sort()).toEqual(keywords.map((k) => k.keyword).sort());
  return keywords.map((k) => clusters.findIndex((c) => c.keywords.includes(k.keyword)));
}

describe("keyword groups with search modifiers", () => {
  it("recovers seven topics of a keyword export full of modifiers (ARI ≥ 0.8), losing no keyword", () => {
    const { keywords, truth } = coffeeRows();
    const clusters = clusterKeywords(keywords, { topic: "Coffee brewing at home", language: "en" });
    const ari = adjustedRand(truth, groupsOf(keywords, clusters));
    console.log(`coffee export: ${keywords.length} keywords, 7 topics → ${clusters.length} groups, adjusted Rand index ${ari.toFixed(3)}`);
    expect(ari).toBeGreaterThanOrEqual(0.8);
    // "best", "vs", "ratio" and "recipe" each span several topics: no group holds two topics' heads.
    const espresso = clusters.find((c) => c.keywords.includes("espresso machine"))!;
    expect(espresso.keywords).not.toContain("best french press");
    expect(espresso.keywords).not.toContain("cold brew ratio");
  });

  it("never chains groups through a modifier: 'vs' for 'or' in five keywords of five groups keeps the six planted groups", () => {
    const { keywords, truth } = plantedKeywords();
    // Keyword 4 of each of the first five groups names its two words "a vs b"; "or" was a stop word, "vs" is a modifier.
    const edited = keywords.map((k, i) => (i % 10 === 4 && i < 50 ? { ...k, keyword: k.keyword.replace(" ", " vs ") } : k));
    expect(edited.filter((k) => k.keyword.includes(" vs "))).toHaveLength(5);
    const clusters = clusterKeywords(edited, { topic: "Home garden care", language: "en" });
    expect(adjustedRand(truth, groupsOf(edited, clusters))).toBe(1);
  });

  it("leaves modifiers out in other languages the stemmer covers (German 'beste', 'günstige', 'Test', 'für')", () => {
    const keywords = [
      "beste Kaffeemühle",
      "Kaffeemühle elektrisch",
      "Kaffeemühle Test",
      "günstige Kaffeemühle",
      "bester Milchaufschäumer",
      "Milchaufschäumer elektrisch Test",
      "günstiger Milchaufschäumer",
      "Milchaufschäumer für Hafermilch",
    ].map((keyword) => ({ keyword }));
    const clusters = clusterKeywords(keywords, { topic: "Kaffee zu Hause", language: "de" });
    expect(clusters.map((c) => c.keywords.length).sort()).toEqual([4, 4]);
    expect(clusters.find((c) => c.keywords.includes("beste Kaffeemühle"))!.keywords).not.toContain("bester Milchaufschäumer");
  });

  it("merges duplicates and case variants before grouping: 100 copies of one keyword are one article", () => {
    const copies = Array.from({ length: 100 }, (_, i) => ({ keyword: i % 2 ? "rose pruning" : "Rose  Pruning", volume: i }));
    const clusters = clusterKeywords(copies, { topic: "Garden", language: "en" });
    // The most searched spelling (volume 99, "rose pruning") stands for all.
    expect(clusters).toEqual([{ primary: "rose pruning", keywords: ["rose pruning"] }]);
    const { articles } = planSite(clusters, { topic: "Garden", language: "en" });
    expect(articles).toHaveLength(1);
    expect(articles[0]!.links).toEqual([]);
  });

  it("cuts a group larger than an article takes into parts, every keyword in one, and gives every article its own slug", () => {
    const words =
      "pruning care disease fertilizer variety planting watering soil pests climbing winter summer seeds cuttings colors shade pots leaves yellow spots height spacing companion support mulch harvest indoor bloom smell black"
        .split(" ")
        .map((w, i) => ({ rose: w, tomato: `${w}${i}x` }));
    // Thirty keywords a head, sharing only their head.
    const keywords = (["rose", "tomato"] as const).flatMap((head) =>
      words.map((w, i) => ({ keyword: `${head} ${w[head]}`, volume: 1000 - i })),
    );
    const clusters = clusterKeywords(keywords, { topic: "Garden", language: "en" });
    groupsOf(keywords, clusters);
    expect(Math.max(...clusters.map((c) => c.keywords.length))).toBeLessThanOrEqual(MOST_PER_ARTICLE);
    // Two parts of fifteen a head, no part mixing the heads.
    expect(clusters.map((c) => c.keywords.length)).toEqual([15, 15, 15, 15]);
    for (const c of clusters) expect(new Set(c.keywords.map((k) => k.split(" ")[0])).size).toBe(1);
    const alike = clusterKeywords([{ keyword: "C++ tips" }, { keyword: "c-- tips!" }, { keyword: "lawn" }], { topic: "x", language: "en" });
    const slugs = planSite(alike, { topic: "x", language: "en" }).articles.map((a) => a.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
  });
});
