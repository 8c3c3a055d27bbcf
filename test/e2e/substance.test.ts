import { describe, expect, it } from "vitest";
import { readme } from "../../scripts/fixtures/readmes.js";
import { analyser } from "../helpers/analyse.js";
import { HAS_STORIES_MODEL, STORIES_MODEL } from "../helpers/server.js";
import { sharedStoriesServer } from "../helpers/stories.js";

// POST /api/v1/analyse over real HTTP (a real `inkpress serve`) on human READMEs and planted text:
// the substance checks (on topic, no loops) and their cap, keyword word forms, and code read as code.

if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the substance tests serve ${STORIES_MODEL}, which is not there.`);

describe.skipIf(!HAS_STORIES_MODEL)("substance in POST /api/v1/analyse", () => {
  const server = sharedStoriesServer();

  const { analyse, check } = analyser((path, init) => fetch(`${server().url}${path}`, init));

  it.each([
    ["unified", "unified: processing content with syntax trees and plugins"],
    ["valibot", "Valibot, a schema library for validating data"],
    ["minisearch", "MiniSearch, full-text search in JavaScript"],
  ])(
    "passes %s's README on topic and without loops under its own subject, and fails it on topic under an unrelated one",
    async (pkg, topic) => {
      const own = await analyse({ markdown: readme(pkg), topic });
      expect(check(own, "on-topic").passed, check(own, "on-topic").message).toBe(true);
      expect(check(own, "no-loops").passed, check(own, "no-loops").message).toBe(true);
      expect(check(own, "duplicate-sentences").passed, check(own, "duplicate-sentences").message).toBe(true);
      const unrelated = await analyse({ markdown: readme(pkg), topic: "Tax returns for freelancers" });
      expect(check(unrelated, "on-topic").passed).toBe(false);
      expect(check(unrelated, "on-topic").message).toMatch(/not about it: .*“/u);
      expect(unrelated.seo.score).toBeLessThanOrEqual(49);
    },
  );

  // The same text gets the same on-topic verdict from generate and analyse: both take every
  // keyword phrase out before measuring, and both judge against the request's subject.
  it.each([
    ["Home composting", "compost bin", 11],
    ["Choosing a mortgage", "fixed rate mortgage", 12],
    ["Learning SQL joins", "inner join", 13],
  ])(
    "gives a stories260K article on “%s” the on-topic verdict generate gave it when handed back to analyse",
    async (topic, keywords, seed) => {
      const written = await (await server().generate({ topic, length: 150, seed, seo: { keywords } })).json();
      const verdict = check(written, "on-topic");
      const analysis = await analyse({ markdown: written.article.markdown, topic, seo: { keywords } });
      expect(check(analysis, "on-topic").passed, check(analysis, "on-topic").message).toBe(verdict.passed);
      expect(verdict.passed, verdict.message).toBe(false);
      expect(written.seo.score).toBeLessThanOrEqual(49);
      expect(analysis.seo.score).toBeLessThanOrEqual(49);
    },
  );

  it("fails no-loops on an article whose middle says one paragraph 4 times, naming it, and caps its score", async () => {
    const paragraphs = readme("valibot").split(/\n\n/u);
    const loop =
      "Valibot validates the data of a form before it is sent. It checks every field against its schema and says which one is wrong. The schema is written once and typed for you.";
    const middle = Math.floor(paragraphs.length / 2);
    const markdown = [...paragraphs.slice(0, middle), loop, loop, loop, loop, ...paragraphs.slice(middle)].join("\n\n");
    const analysis = await analyse({ markdown, topic: "Valibot, a schema library for validating data" });
    const loops = check(analysis, "no-loops");
    expect(loops.passed).toBe(false);
    expect(loops.message).toContain("most repeated: “Valibot validates the data of a form before…” (4 times)");
    expect(analysis.seo.score).toBeLessThanOrEqual(49);
    // Substance comes before form in the report.
    expect(analysis.seo.checks.slice(0, 2).map((c) => c.id)).toEqual(["on-topic", "no-loops"]);
  });

  it.each([
    ["en", "compost bin", "Compost bins compared"],
    ["de", "Komposttonne", "Komposttonnen im Vergleich"],
    ["fr", "bac à compost", "Les bacs à compost comparés"],
  ])("counts a plural for the keyword in the title (%s)", async (language, keywords, title) => {
    const analysis = await analyse({ markdown: `# ${title}\n\nA short text.\n`, language, seo: { keywords } });
    const inTitle = check(analysis, "keyword-in-title");
    expect(inTitle.passed, inTitle.message).toBe(true);
    expect(inTitle.message).toContain("word forms counted");
  });

  it("says a keyword is matched as written in a language without a stemmer", async () => {
    const analysis = await analyse({ markdown: "# 堆肥箱の比較\n\n短い文章です。\n", language: "ja", seo: { keywords: "堆肥箱" } });
    expect(check(analysis, "keyword-in-title").message).toContain("matched as written");
  });

  it("reads no version of semver's README as a figure", async () => {
    const figures = check(await analyse({ markdown: readme("semver"), topic: "Semantic versioning" }), "unsupported-figures");
    expect(figures.message).not.toMatch(/“\d+\.\d+\.\d+/u);
  });

  it("counts no list item of inline code as a sentence, and drops a title's emoji", async () => {
    const items = Array.from({ length: 6 }, (_, i) => `- \`require("semver/functions/f${i}")\``).join("\n");
    const markdown = `# 🛠 Helpers\n\nThese helpers load one function each.\n\n${items}\n\nEach one loads quickly.\n`;
    const analysis = await analyse({ markdown });
    expect(analysis.title?.value).toBe("Helpers");
    expect(check(analysis, "consecutive-sentence-starts").message).not.toContain("require");
    expect(check(analysis, "sentence-length").message).toContain("(0 of 2)");
    expect((await analyse({ markdown: readme("bullmq") })).title?.value).toBe("Tutorials");
  });
});
