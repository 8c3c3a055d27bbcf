import type { Nodes } from "mdast";
import { toString } from "mdast-util-to-string";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { occurrences, sentences } from "../helpers/rules.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, startServer, type TestServer } from "../helpers/server.js";

// The model writes every word: articles on unrelated topics share no template text.
// Each article's keywords and topic are blanked; then no sentence, heading, question or list
// item that held a keyword may read the same in three or more articles, and no title or
// description may be "keyword: …". The story model's own stock sentences (no keyword) don't count.

if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the boilerplate test needs ${STORIES_MODEL}, which is not there.`);

const TOPICS = [
  { topic: "Home composting for beginners", keywords: "compost bin, garden waste" },
  { topic: "Choosing a first road bike", keywords: "road bike, frame size" },
  { topic: "How to brew better coffee at home", keywords: "pour over coffee, grind size" },
  { topic: "Saving money on groceries", keywords: "grocery budget, meal planning" },
  { topic: "Learning to play the guitar as an adult", keywords: "guitar chords, practice routine" },
  { topic: "Keeping backyard chickens", keywords: "chicken coop, laying hens" },
  { topic: "Writing a cover letter that gets read", keywords: "cover letter, hiring manager" },
  { topic: "Caring for a sourdough starter", keywords: "sourdough starter, rye flour" },
  { topic: "Planning a weekend hiking trip", keywords: "hiking trail, trail map" },
];

/** The text units a reader would notice repeating: sentences, headings, questions, list items. */
function units(markdown: string): string[] {
  const walk = (node: Nodes): string[] => {
    if (node.type === "heading" || node.type === "listItem") return [toString(node)];
    if (node.type === "paragraph") return sentences(toString(node), "en");
    return "children" in node ? node.children.flatMap(walk) : [];
  };
  return walk(unified().use(remarkParse).parse(markdown));
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A unit with the article's own words blanked, compared without case or punctuation. */
function blanked(unit: string, phrases: string[]): string {
  let text = unit;
  for (const phrase of [...phrases].sort((a, b) => b.length - a.length)) text = text.replace(new RegExp(escape(phrase), "giu"), " K ");
  return text
    .toLowerCase()
    .replace(/[\p{P}\p{S}\s]+/gu, " ")
    .trim();
}

describe.skipIf(!HAS_STORIES_MODEL)("no boilerplate across unrelated articles (stories260K over HTTP)", () => {
  let server: TestServer;
  const answers: { keywords: string[]; topic: string; article: { title: string; metaDescription: string; markdown: string } }[] = [];

  beforeAll(async () => {
    server = await startServer(STORIES_MODEL);
    for (const [i, { topic, keywords }] of TOPICS.entries()) {
      const response = await server.generate({
        topic,
        length: 500,
        structure: i % 2 ? "detailed" : "listicle",
        seed: 7000 + i * 13,
        seo: { keywords },
      });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { article: { title: string; metaDescription: string; markdown: string } };
      answers.push({ keywords: keywords.split(",").map((k) => k.trim()), topic, article: body.article });
    }
  }, 600_000);
  afterAll(() => server?.stop());

  it("no unit that held a keyword reads the same in three or more articles", () => {
    const seenIn = new Map<string, Set<number>>();
    answers.forEach(({ keywords, topic, article }, i) => {
      const held = [article.title, article.metaDescription, ...units(article.markdown)].filter((u) =>
        keywords.some((k) => occurrences(u, k) > 0),
      );
      expect(held.length, `article ${i} holds its keywords`).toBeGreaterThan(3);
      for (const unit of held) {
        const key = blanked(unit, [...keywords, topic]);
        if (!seenIn.has(key)) seenIn.set(key, new Set());
        seenIn.get(key)!.add(i);
      }
    });
    const repeated = [...seenIn]
      .filter(([, articles]) => articles.size >= 3)
      .map(([key, articles]) => `“${key}” in ${articles.size} articles`);
    expect(repeated).toEqual([]);
  });

  it("no title or description is “keyword: …”", () => {
    for (const { keywords, article } of answers) {
      for (const text of [article.title, article.metaDescription]) {
        for (const keyword of keywords) expect(text, text).not.toMatch(new RegExp(`^\\s*${escape(keyword)}\\s*[:–—-]`, "iu"));
      }
    }
  });
});
