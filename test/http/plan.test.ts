import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app.js";
import { plantedKeywords } from "../helpers/planted-keywords.js";
import { API_KEY, testModel } from "../helpers/server.js";

// POST /api/v1/plan on the app served in-process: the cluster plan of sixty planted keywords, and its 422s.
describe("POST /api/v1/plan", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app.stop());
  const post = (body: unknown) =>
    app.fetch("/api/v1/plan", {
      method: "POST",
      headers: { "x-api-key": API_KEY, "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("plans a pillar and five cluster articles, and leaves the group an existing page targets to it", async () => {
    const { keywords } = plantedKeywords();
    const response = await post({ topic: "Home garden care", keywords });
    expect(response.status).toBe(200);
    const plan = await response.json();
    expect(plan.articles).toHaveLength(6);
    expect(plan.articles.filter((a: { role: string }) => a.role === "pillar")).toHaveLength(1);
    // The scripted writer has no embeddings: nothing is placed by them.
    expect(plan.lone).toEqual([]);
    const target = plan.articles[2].topic;
    const again = await (await post({ topic: "Home garden care", keywords, existing: [{ url: "/old/", keyword: target }] })).json();
    expect(again.articles).toHaveLength(5);
    expect(again.covered).toEqual([{ primary: target, page: "/old/" }]);
  });

  it("cleans keywords as every text field (control and format characters out) and plans 100 copies of one as one article", async () => {
    const copies = Array.from({ length: 100 }, (_, i) => ({ keyword: i % 2 ? "Rose Pruning" : "rose pruning", volume: 10 }));
    const response = await post({
      topic: "Garden",
      keywords: [...copies, { keyword: "rose\u0007 care\u202e\u200b" }, { keyword: "\u0000tomato stakes" }],
    });
    expect(response.status).toBe(200);
    const { articles } = await response.json();
    expect(articles.map((a: { keywords: string[] }) => a.keywords)).toEqual([["rose pruning", "rose care"], ["tomato stakes"]]);
    expect(new Set(articles.map((a: { slug: string }) => a.slug)).size).toBe(2);
    const invisible = await post({ topic: "Garden", keywords: [{ keyword: "rose" }, { keyword: "\u200b\u200b" }] });
    expect(invisible.status).toBe(422);
    expect((await invisible.json()).errors).toEqual([
      expect.objectContaining({ path: "keywords[1].keyword", message: "keyword must not be empty" }),
    ]);
  });

  it("names a bad field in a 422", async () => {
    const response = await post({ topic: "Garden", keywords: [{ keyword: "" }] });
    expect(response.status).toBe(422);
    expect((await response.json()).errors.map((e: { path: string }) => e.path)).toEqual(["keywords[0].keyword"]);
  });
});

// With a model loaded (the random-weight test model), a keyword that shares no term with any group is placed by its embeddings.
describe("POST /api/v1/plan on a loaded model", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({ model: await testModel("plain") });
  });
  afterAll(() => app?.stop());

  it("places lone keywords deterministically and keeps the six lexical groups whole", async () => {
    const { keywords, truth } = plantedKeywords();
    const lone = [{ keyword: "birdhouse paint" }, { keyword: "greenhouse heater" }];
    const post = async () =>
      (
        await app.fetch("/api/v1/plan", {
          method: "POST",
          headers: { "x-api-key": API_KEY, "content-type": "application/json" },
          body: JSON.stringify({ topic: "Home garden care", keywords: [...keywords, ...lone] }),
        })
      ).json();
    const [first, second] = [await post(), await post()];
    expect(second).toEqual(first);
    const rows = first.articles as Array<{ topic: string; keywords: string[] }>;
    // Each lone keyword is answered with its nearest group; it joins it or keeps an article of its own, never both, never lost.
    expect(first.lone.map((p: { keyword: string }) => p.keyword).sort()).toEqual(lone.map((k) => k.keyword));
    for (const { keyword } of lone) {
      const placed = first.lone.find((p: { keyword: string }) => p.keyword === keyword).joined;
      expect(rows.filter((row) => row.keywords.includes(keyword))).toHaveLength(1);
      expect(rows.some((row) => row.topic === keyword)).toBe(!placed);
    }
    const home = (k: string) => rows.findIndex((row) => row.keywords.includes(k));
    for (const g of [0, 1, 2, 3, 4, 5]) expect(new Set(keywords.filter((_, i) => truth[i] === g).map((k) => home(k.keyword))).size).toBe(1);
    expect(new Set(keywords.map((k) => home(k.keyword))).size).toBe(6);
  });
});
