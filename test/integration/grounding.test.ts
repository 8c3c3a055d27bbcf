import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MATRIX_MODELS } from "../helpers/matrix.js";
import { startApp, type TestApp } from "../helpers/app.js";
import { distinctSentences } from "../../scripts/fixtures/fake-writer.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, startServer, type TestServer } from "../helpers/server.js";
import * as stopword from "stopword";
import { sentences } from "../helpers/rules.js";
import { STORIES as SOURCES } from "../helpers/citations.js";
import { expectLeftOutNamed, linksOf, type Page } from "../helpers/links.js";

// Grounded articles over real HTTP: the user's pages linked with anchors the model wrote,
// the user's sources cited honestly (story-like sources stories260K can echo), and figures
// no one supplied reported. Answers are read as a client reads them.

if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the stories260K grounding suite needs ${STORIES_MODEL}, which is not there.`);

interface Answer {
  article: { markdown: string; html: string; jsonLd: { "@graph": Array<Record<string, unknown>> } };
  seo: { checks: Array<{ id: string; passed: boolean | null; message: string }> };
  usage: { promptTokens: number };
}

const LINKS = [
  { url: "https://garden.example/compost-guide", title: "A Guide to the Compost Bin", keywords: ["compost bin", "garden soil"] },
  { url: "/blog/garden-tools", title: "Garden Tools for Children", keywords: ["small shovel", "garden tools"] },
  { url: "https://garden.example/tomatoes", title: "Growing Tomatoes in the Garden", keywords: ["red tomatoes", "garden beds"] },
  { url: "/blog/watering", title: "Watering the Garden in Summer", keywords: ["watering can", "garden hose"] },
  { url: "https://garden.example/birds", title: "Birds That Visit the Garden", keywords: ["bird feeder", "garden birds"] },
];

/** Pages of a composting site, for an article whose primary keyword is one of their keywords. */
const COMPOST_PAGES = [
  { url: "/guides/compost-bins", title: "How to choose a compost bin", keywords: ["compost bin"] },
  { url: "/guides/fast", title: "Compost in 18 days", keywords: ["compost bin"] },
  { url: "/guides/leaves", title: "Composting autumn leaves", keywords: [] },
  { url: "/guides/worms", title: "Worm composting: a beginner's guide", keywords: ["worm farm", "vermicompost"] },
  { url: "/shop/gloves", title: "Garden gloves", keywords: ["garden gloves"] },
];

/** The head noun of each page's title: an anchor that is not one of the page's keywords keeps it. */
const HEADS: Record<string, RegExp> = {
  "https://garden.example/compost-guide": /\b(guide|bin)\b/i,
  "/blog/garden-tools": /\btools\b/i,
  "https://garden.example/tomatoes": /\b(growing|tomatoes)\b/i,
  "/blog/watering": /\bwatering\b/i,
  "https://garden.example/birds": /\bbirds\b/i,
  "/guides/compost-bins": /\bbin\b/i,
  "/guides/fast": /\bcompost\b/i,
  "/guides/leaves": /\b(composting|leaves)\b/i,
  "/guides/worms": /\b(composting|guide)\b/i,
  "/shop/gloves": /\bgloves\b/i,
};

/** What is wrong with an anchor by the rules a reader would click by; empty when nothing is. */
function anchorFaults(anchor: string, page: Page, primary: string): string[] {
  const words = anchor.toLowerCase().split(/\s+/u);
  const own = new Set(`${page.title} ${page.keywords.join(" ")}`.toLowerCase().split(/[^\p{L}\p{N}']+/u));
  const keyword = page.keywords.some((k) => k.toLowerCase() === anchor.toLowerCase());
  return [
    words.length === 1 && !keyword ? "a lone word that is not one of the page's keywords" : "",
    words.every((w) => stopword.eng.includes(w)) ? "stop words only" : "",
    words.some((w) => own.has(w) && !stopword.eng.includes(w)) ? "" : "no content word of the page's title or keywords",
    keyword || HEADS[page.url]!.test(anchor) ? "" : "a phrase without its page's head noun",
    anchor.toLowerCase() === primary ? "the article's primary keyword" : "",
    words.length > 6 ? "over 6 words" : "",
  ].filter(Boolean);
}

describe.each(MATRIX_MODELS)("internal links on $name over HTTP", ({ name, path, skip }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!skip) server = await startServer(await path());
  });
  afterAll(() => server?.stop());

  it.skipIf(skip)(
    "an 800-word article given 5 pages links at least 3 of them, each once, never in a heading, with anchors that vary",
    async () => {
      const anchors: string[] = [];
      for (const seed of [21, 22, 23]) {
        const response = await server.generate({
          topic: "A day in the garden",
          length: 800,
          seed,
          seo: { keywords: "garden day" },
          links: LINKS,
        });
        expect(response.status).toBe(200);
        const answer = (await response.json()) as Answer;
        const linked = linksOf(answer.article.markdown);
        const urls = linked.map((l) => l.url);
        expect(new Set(urls).size, `seed ${seed}: ${JSON.stringify(linked)}`).toBe(urls.length);
        expect(urls.length, `seed ${seed}: ${JSON.stringify(linked)}`).toBeGreaterThanOrEqual(3);
        for (const url of urls) {
          expect(LINKS.map((l) => l.url)).toContain(url);
          expect(answer.article.html).toContain(`href="${url}"`);
        }
        const headings = answer.article.markdown.split("\n").filter((line) => line.startsWith("#"));
        for (const heading of headings) expect(heading).not.toMatch(/\]\(/);
        // Never the article's first sentence.
        const firstParagraph = answer.article.markdown.split("\n\n")[1] ?? "";
        // A reader's first sentence (one ending in a closing quote included).
        expect(sentences(firstParagraph, "en")[0]).not.toMatch(/\]\(/);
        for (const l of linked)
          expect(anchorFaults(l.anchor, LINKS.find((p) => p.url === l.url)!, "garden day"), `seed ${seed}: “${l.anchor}”`).toEqual([]);
        // Two links of one article never share an anchor.
        expect(new Set(linked.map((l) => l.anchor.toLowerCase())).size, `seed ${seed}`).toBe(linked.length);
        anchors.push(...linked.map((l) => l.anchor.toLowerCase()));
        expect(answer.seo.checks.find((c) => c.id === "internal-links")?.passed, `seed ${seed}`).toBe(true);
        expectLeftOutNamed(answer, LINKS, urls);
      }
      console.log(`${name}, garden pages: ${anchors.length} anchors, ${new Set(anchors).size} distinct: ${anchors.join(" | ")}`);
      // Over three articles at least half the anchors are distinct. It was two thirds before anchors
      // had to keep their page's head noun and never start after a preposition: each page now has
      // fewer phrases to offer (stories260K: 7 distinct of 12 over seeds 21-23).
      expect(new Set(anchors).size, anchors.join("\n")).toBeGreaterThanOrEqual(anchors.length / 2);
    },
  );

  it.skipIf(skip)(
    "links at least 3 pages, those whose keyword is the article's own by a phrase of their title keeping its head noun, and says which pages it left out and why",
    async () => {
      const anchors: string[] = [];
      for (const seed of [21, 22, 23]) {
        // "garden gloves" is the article's secondary keyword and the gloves page's own keyword and title: a good anchor for it.
        const answer = (await (
          await server.generate({
            topic: "Home composting",
            length: 800,
            seed,
            seo: { keywords: "compost bin, garden gloves" },
            links: COMPOST_PAGES,
          })
        ).json()) as Answer;
        const linked = linksOf(answer.article.markdown);
        for (const l of linked)
          expect(anchorFaults(l.anchor, COMPOST_PAGES.find((p) => p.url === l.url)!, "compost bin"), `seed ${seed}: “${l.anchor}”`).toEqual(
            [],
          );
        expect(new Set(linked.map((l) => l.anchor.toLowerCase())).size, `seed ${seed}`).toBe(linked.length);
        anchors.push(...linked.map((l) => l.anchor.toLowerCase()));
        // "Compost in 18 days" is relevant to "Home composting": word forms match both ways.
        expect(
          linked.map((l) => l.url),
          `seed ${seed}`,
        ).toContain("/guides/fast");
        expect(linked.length, `seed ${seed}: ${JSON.stringify(linked)}`).toBeGreaterThanOrEqual(3);
        expectLeftOutNamed(
          answer,
          COMPOST_PAGES,
          linked.map((l) => l.url),
        );
      }
      console.log(`${name}, composting pages: ${anchors.length} anchors, ${new Set(anchors).size} distinct: ${anchors.join(" | ")}`);
      expect(anchors).toContain("garden gloves");
    },
  );

  it.skipIf(skip)(
    "never writes an anchor that holds a banned phrase: another phrase of the page, or the page left out and said why",
    async () => {
      // "choose" is in every phrase of "How to choose a compost bin" but the primary keyword; "autumn" in every one of "Composting autumn leaves".
      const answer = (await (
        await server.generate({
          topic: "Home composting",
          length: 800,
          seed: 21,
          seo: { keywords: "compost bin" },
          links: COMPOST_PAGES,
          style: { avoid: ["choose", "autumn"] },
        })
      ).json()) as Answer;
      const linked = linksOf(answer.article.markdown);
      for (const l of linked) expect(l.anchor, l.url).not.toMatch(/choose|autumn/i);
      expect(linked.map((l) => l.url)).not.toContain("/guides/compost-bins");
      const check = answer.seo.checks.find((c) => c.id === "internal-links")!;
      expect(check.message).toMatch(
        /\/guides\/compost-bins, \/guides\/leaves \(every descriptive anchor its title and keywords offer holds a phrase of style\.avoid\)/,
      );
      expect(answer.seo.checks.find((c) => c.id === "avoid")?.passed).toBe(true);
    },
  );

  it.skipIf(skip)("a javascript: link is a 422 naming links[i].url", async () => {
    const response = await server.generate({ topic: "Gardens", links: [LINKS[0], { url: "javascript:alert(1)", title: "x" }] });
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { errors: Array<{ path: string }> };
    expect(problem.errors.map((e) => e.path)).toContain("links[1].url");
  });
});

describe.skipIf(!HAS_STORIES_MODEL)("sources on stories260K over HTTP", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(STORIES_MODEL);
  });
  afterAll(() => server?.stop());

  const request = { topic: "Compost for kids", length: 300, seo: { keywords: "compost bin" } };

  it("cites what it restates, lists each cited source with its URL, and invents no URL", async () => {
    let cited = 0;
    let noted = 0;
    // stories260K restates a source in about one article of ten (over HTTP on 2026-11-29, seeds 50, 53 and 60 of 31–60).
    for (const seed of [50, 51, 52]) {
      const without = (await (await server.generate({ ...request, seed })).json()) as Answer;
      const answer = (await (await server.generate({ ...request, seed, sources: SOURCES })).json()) as Answer;
      // Excerpts reach the model as notes where a section's heading and keywords match them (not every article's do).
      if (answer.usage.promptTokens > without.usage.promptTokens) noted++;
      const markers = [...answer.article.markdown.matchAll(/\[\[?(\d+)\]?\]?(?:\(([^)]+)\))?/g)].filter(
        (m) => m[0].startsWith("[[") || !m[0].includes("("),
      );
      const list = answer.article.markdown.slice(answer.article.markdown.lastIndexOf("## Sources"));
      const listed = [...list.matchAll(/^- \\?\[(\d+)\\?\] (.+)$/gm)].map((m) => ({ n: Number(m[1]), entry: m[2]! }));
      for (const m of markers)
        expect(
          listed.map((l) => l.n),
          `seed ${seed}: marker ${m[0]}`,
        ).toContain(Number(m[1]));
      // Only cited sources are listed, numbered 1…n.
      expect(listed.map((l) => l.n)).toEqual(listed.map((_, i) => i + 1));
      const given = new Set([...SOURCES.flatMap((s) => (s.url ? [s.url] : []))]);
      for (const url of answer.article.markdown.match(/https?:\/\/[^\s)\]]+/g) ?? []) expect(given, `seed ${seed}: ${url}`).toContain(url);
      const article = answer.article.jsonLd["@graph"].find((node) => node["@type"] === "Article")!;
      if (listed.length) {
        cited++;
        expect(article.citation, `seed ${seed}`).toEqual(expect.arrayContaining([expect.objectContaining({ "@type": "CreativeWork" })]));
        expect((article.citation as unknown[]).length).toBe(listed.length);
        for (const l of listed) {
          const source = SOURCES.find((s) => l.entry.includes(s.title))!;
          expect(source, `seed ${seed}: ${l.entry}`).toBeDefined();
          if (source.url) expect(l.entry).toContain(source.url);
        }
        expect(answer.seo.checks.find((c) => c.id === "sources-cited")?.passed).toBe(true);
      } else {
        expect(article.citation).toBeUndefined();
      }
    }
    expect(noted, "at least one of three articles was shown excerpts").toBeGreaterThan(0);
    expect(cited, "at least one of three articles cites a source").toBeGreaterThan(0);
  });
});

describe("figures no one supplied, over HTTP in-process", () => {
  // Neither stories260K (it spells numbers out) nor the random-weight test models (their
  // vocabulary has no digits) write figures, so a scripted model does: the report is real.
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp({
      prose: function* () {
        yield "Often, the family picked 42 apples from the old tree.";
        yield* distinctSentences();
      },
    });
  });
  afterAll(() => app?.stop());

  it("an article without sources that states a figure fails unsupported-figures, naming it; a source that gives it passes", async () => {
    const without = (await (await app.generate({ topic: "Counting apples", length: 300, seed: 1 })).json()) as Answer;
    expect(without.article.markdown).toContain("42 apples");
    const check = without.seo.checks.find((c) => c.id === "unsupported-figures")!;
    expect(check.passed).toBe(false);
    expect(check.message).toContain("“42”");
    const sources = [{ title: "Orchard notes", text: "The old tree gave 42 apples this year." }];
    const grounded = (await (await app.generate({ topic: "Counting apples", length: 300, seed: 1, sources })).json()) as Answer;
    expect(grounded.seo.checks.find((c) => c.id === "unsupported-figures")!.passed).toBe(true);
  });
});
