import { describe, expect, it } from "vitest";
import { expectArticleBasics, expectArticleShape } from "../helpers/article.js";
import { HAS_STORIES_MODEL, STORIES_MODEL } from "../helpers/server.js";
import { sharedStoriesServer } from "../helpers/stories.js";

if (!HAS_STORIES_MODEL) {
  console.warn(`SKIPPED: the stories260K suite needs ${STORIES_MODEL}, which is not there.`);
}

// The real pretrained fixture through a real `inkpress serve` process: a plain-completion
// model that ends its stories with EOS, so the pipeline must re-prompt to fill each section's
// budget. These are the fast tier's end-to-end runs; the 3000-word article is in
// stories-long.test.ts, in the full tier.
describe.skipIf(!HAS_STORIES_MODEL)("POST /api/v1/generate on stories260K", () => {
  const server = sharedStoriesServer();

  it("writes an 800-word article whose promises hold", async () => {
    const response = await server().generate({ topic: "Keeping chickens", seed: 3, seo: { keywords: "backyard chickens, egg laying" } });
    expect(response.status).toBe(200);
    const body = await response.json();
    expectArticleShape(body);
    expect(body.model).toBe("stories260K");
    expectArticleBasics(body, "backyard chickens", true);
    expect(Math.abs(body.article.wordCount - 800)).toBeLessThanOrEqual(80);
  });

  // stories260K writes children's stories whatever it is asked: the keyword steered in is no
  // evidence, so each article fails on-topic and scores below the green. Measured by meaning, the
  // message names the sections; a subject no word vector knows ("Kubernetes autoscaling") is
  // measured lexically, and the message says so instead of judging sections by vocabulary.
  it.each([
    ["Home composting", "meaning"],
    ["Tax returns for freelancers", "meaning"],
    ["Choosing a mortgage", "meaning"],
    ["Learning SQL joins", "meaning"],
    ["Kubernetes autoscaling", "lexically"],
    ["Sourdough baking", "meaning"],
  ])("fails on-topic for “%s” (measured by %s), and scores at most the cap", async (topic, measured) => {
    const body = await (await server().generate({ topic, length: 150, seed: 5 })).json();
    const onTopic = body.seo.checks.find((check: { id: string }) => check.id === "on-topic");
    expect(onTopic.passed, onTopic.message).toBe(false);
    if (measured === "lexically") expect(onTopic.message).toMatch(/^Measured lexically/);
    else {
      // It names the parts that are not about the topic, each one the article's introduction or one of its sections.
      const parts = [
        "the introduction",
        "the short sections together",
        ...body.article.outline.map((item: { text: string }) => `“${item.text}”`),
      ];
      const named = /not about it: (.*)\.$/u.exec(onTopic.message)?.[1] ?? "";
      expect(named, onTopic.message).not.toBe("");
      for (const name of named.split(/ \(-?[\d.]+\)(?:, |$)/u).filter(Boolean)) expect(parts).toContain(name);
    }
    expect(body.seo.score).toBeLessThanOrEqual(49);
  });

  it("writes without headings when headingTags is false", async () => {
    const body = await (await server().generate({ topic: "Bird watching", length: 300, seo: { headingTags: false } })).json();
    expectArticleBasics(body, "bird watching", false);
  });
});
