import { describe, expect, it } from "vitest";
import { clusterKeywords, planSite } from "../../src/planning/clusters.js";
import { adjustedRand, plantedKeywords } from "../helpers/planted-keywords.js";

describe("topic clusters", () => {
  const topic = "Home garden care";

  it("recovers six planted groups of word forms and shared terms (ARI ≥ 0.8) and picks each group's most searched keyword", () => {
    const { keywords, truth } = plantedKeywords();
    const clusters = clusterKeywords(keywords, { topic, language: "en" });
    const found = keywords.map((k) => clusters.findIndex((c) => c.keywords.includes(k.keyword)));
    expect(adjustedRand(truth, found)).toBeGreaterThanOrEqual(0.8);
    expect(clusters).toHaveLength(6);
    for (const cluster of clusters) {
      const best = keywords.filter((k) => cluster.keywords.includes(k.keyword)).sort((x, y) => y.volume! - x.volume!)[0]!;
      expect(cluster.primary).toBe(best.keyword);
    }
    // The index is not fooled: one group split in two scores lower.
    expect(
      adjustedRand(
        truth,
        truth.map((g, i) => (g === 0 && i % 2 ? 6 : g)),
      ),
    ).toBeLessThan(1);
  });

  it("plans a pillar and five cluster articles linked both ways, no page an orphan", () => {
    const { keywords } = plantedKeywords();
    const { articles, covered } = planSite(clusterKeywords(keywords, { topic, language: "en" }), { topic, language: "en" });
    expect(articles).toHaveLength(6);
    expect(covered).toEqual([]);
    const [pillar, ...rest] = articles;
    expect(pillar!.role).toBe("pillar");
    expect(pillar!.links.map((l) => l.url).sort()).toEqual(rest.map((a) => a.url).sort());
    for (const article of rest) {
      expect(article.links[0]!.url).toBe(pillar!.url);
      expect(article.links.length - 1).toBeGreaterThanOrEqual(2);
      expect(article.links.length - 1).toBeLessThanOrEqual(3);
      expect(article.links.map((l) => l.url)).not.toContain(article.url);
    }
    const inbound = new Map(articles.map((a) => [a.url, 0]));
    for (const article of articles) for (const link of article.links) inbound.set(link.url, inbound.get(link.url)! + 1);
    expect([...inbound.values()].every((n) => n > 0)).toBe(true);
  });

  it("puts every address and link under the base path the site serves the articles at", () => {
    const { keywords } = plantedKeywords();
    const clusters = clusterKeywords(keywords, { topic, language: "en" });
    const { articles } = planSite(clusters, { topic, language: "en", basePath: "/posts/" });
    expect(articles.map((a) => a.url)).toEqual(articles.map((a) => `/posts/${a.slug}/`));
    const urls = new Set(articles.map((a) => a.url));
    expect(articles.flatMap((a) => a.links.map((l) => l.url)).filter((url) => !urls.has(url))).toEqual([]);
  });

  it("leaves a group whose primary keyword an existing page targets to that page, and names it", () => {
    const { keywords } = plantedKeywords();
    const clusters = clusterKeywords(keywords, { topic, language: "en" });
    const target = clusters[3]!.primary;
    const { articles, covered } = planSite(clusters, {
      topic,
      language: "en",
      existing: [{ url: "/old/ponds/", keyword: target.toUpperCase() }],
    });
    expect(articles).toHaveLength(5);
    expect(articles.flatMap((a) => a.keywords)).not.toContain(target);
    expect(covered).toEqual([{ primary: target, page: "/old/ponds/" }]);
  });
});
