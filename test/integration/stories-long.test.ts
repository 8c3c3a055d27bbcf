import { describe, expect, it } from "vitest";
import { expectArticleBasics } from "../helpers/article.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, storiesServer } from "../helpers/server.js";

if (!HAS_STORIES_MODEL) {
  console.warn(`SKIPPED: the stories260K suite needs ${STORIES_MODEL}, which is not there.`);
}

// The real pretrained fixture through a real `inkpress serve` process, on an article longer
// than its 2048-token context: the pipeline must write it section by section. (The shorter
// runs are in stories.test.ts, in the fast tier.)
describe.skipIf(!HAS_STORIES_MODEL)("POST /api/v1/generate on stories260K", () => {
  const server = storiesServer();

  it("writes a long article section by section inside the 2048-token context", async () => {
    const body = await (await server().generate({ topic: "Learning to swim", length: 3000, seed: 5 })).json();
    expectArticleBasics(body, "learning to swim", true);
    // Far more tokens than one context window holds.
    expect(body.usage.completionTokens).toBeGreaterThan(2048);
    expect(Math.abs(body.article.wordCount - 3000)).toBeLessThanOrEqual(300);
  });
});
