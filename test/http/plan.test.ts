import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app.js";
import { plantedKeywords } from "../helpers/planted-keywords.js";
import { API_KEY } from "../helpers/server.js";

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
    const target = plan.articles[2].topic;
    const again = await (await post({ topic: "Home garden care", keywords, existing: [{ url: "/old/", keyword: target }] })).json();
    expect(again.articles).toHaveLength(5);
    expect(again.covered).toEqual([{ primary: target, page: "/old/" }]);
  });

  it("names a bad field in a 422", async () => {
    const response = await post({ topic: "Garden", keywords: [{ keyword: "" }] });
    expect(response.status).toBe(422);
    expect((await response.json()).errors.map((e: { path: string }) => e.path)).toEqual(["keywords[0].keyword"]);
  });
});
