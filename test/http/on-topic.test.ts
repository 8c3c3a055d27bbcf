import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { humanArticles, stuffedStory } from "../../scripts/fixtures/articles.js";
import { startApp, type TestApp } from "../helpers/app.js";
import { analyser } from "../helpers/analyse.js";

// POST /api/v1/analyse on the app served in-process: the on-topic check by meaning, on articles
// written for the suite (test/fixtures/articles/) under their own subject and an unrelated one,
// a children's story with the keyword in every paragraph, short sections, and a language
// without word vectors.

describe("the on-topic check in POST /api/v1/analyse", () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startApp();
  });
  afterAll(() => server?.stop());

  const { analyse, check } = analyser((path, init) => server.fetch(path, init));

  const articles = humanArticles();

  it.each(articles.map((article) => [article.name, article] as const))(
    "passes the %s article under its own subject, without loops, scoring 70 or more, and fails it under an unrelated one",
    async (_, { markdown, topic, keywords, unrelated }) => {
      const own = await analyse({ markdown, topic, seo: { keywords } });
      const onTopic = check(own, "on-topic");
      expect(onTopic.passed, onTopic.message).toBe(true);
      expect(onTopic.message).toMatch(/^Measured by meaning/u);
      const loops = check(own, "no-loops");
      expect(loops.passed, loops.message).toBe(true);
      expect(own.seo.score).toBeGreaterThanOrEqual(70);
      const off = await analyse({ markdown, topic: unrelated, seo: { title: unrelated } });
      expect(check(off, "on-topic").passed, check(off, "on-topic").message).toBe(false);
      expect(check(off, "on-topic").message).toMatch(/not about it: (the introduction|“)/u);
      expect(off.seo.score).toBeLessThanOrEqual(49);
    },
  );

  it("fails a children's story with the keyword in every paragraph, naming its sections, and caps its score", async () => {
    const analysis = await analyse({ markdown: stuffedStory(), topic: "Home composting for beginners", seo: { keywords: "compost bin" } });
    const onTopic = check(analysis, "on-topic");
    expect(onTopic.passed, onTopic.message).toBe(false);
    expect(onTopic.message).toContain("keyword phrases taken out");
    // The kite's flight and the tree are the story's own; "Up the hill" (the house, the garden's grass) comes near "home".
    expect(onTopic.message).toMatch(/not about it: .*“The kite flies”.*“Stuck in the tree”/u);
    expect(analysis.seo.score).toBeLessThanOrEqual(49);
  });

  it("fails an article whose only words of the subject are its keyword phrase", async () => {
    const markdown = "# Compost bin\n\nCompost bin. Compost bins, compost bin!\n";
    const onTopic = check(await analyse({ markdown, seo: { keywords: "compost bin" } }), "on-topic");
    expect(onTopic.passed).toBe(false);
    expect(onTopic.message).toContain("no words of its own");
  });

  it("judges short sections together, never one alone, and says so", async () => {
    const { markdown, topic, keywords } = articles.find((article) => article.name === "composting")!;
    const short = `${markdown}\n## A note on rats\n\nRats love cooked food. Keep it out of the heap.\n`;
    const onTopic = check(await analyse({ markdown: short, topic, seo: { keywords } }), "on-topic");
    expect(onTopic.passed, onTopic.message).toBe(true);
    expect(onTopic.message).not.toContain("A note on rats");
  });

  it("measures lexically in a language without word vectors: passes on a word of the subject outside the keyword, fails on none", async () => {
    const text = "Ein Komposthaufen braucht Luft, Wasser und Geduld. Im Garten verrotten Laub und Schalen langsam zu Erde.";
    const passed = check(await analyse({ language: "de", markdown: `# Kompost\n\n${text}\n`, topic: "Kompost im Garten" }), "on-topic");
    expect(passed.passed, passed.message).toBe(true);
    expect(passed.message).toMatch(/^Measured lexically \(there are no word vectors for “de”, so no part is judged by its vocabulary\)/u);
    const story = "Der Hund lief mit dem Drachen über die Wiese. Sam lachte laut. Die Komposttonne stand still.";
    const failed = check(
      await analyse({ language: "de", markdown: `# Der Drachen\n\n${story}\n`, topic: "Komposttonne", seo: { keywords: "Komposttonne" } }),
      "on-topic",
    );
    expect(failed.passed, failed.message).toBe(false);
    expect(failed.message).toContain("no word of the subject occurs outside keyword phrases");
  });
});
