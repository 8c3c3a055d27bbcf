import type { Heading, Nodes, Root } from "mdast";
import { toString } from "mdast-util-to-string";
import remarkParse from "remark-parse";
import { unified } from "unified";
import { expect } from "vitest";

/** The parts of a returned article a test looks at, read from its Markdown. */
export interface ParsedArticle {
  tree: Root;
  headings: { depth: number; text: string }[];
  paragraphs: string[];
  /** Body words counted independently of the server: every word but the H1. */
  bodyWords: number;
}

const words = (text: string, language: string) =>
  [...new Intl.Segmenter(language, { granularity: "word" }).segment(text)].filter((s) => s.isWordLike).length;

/** Parse returned Markdown. */
export function parseArticle(markdown: string, language = "en"): ParsedArticle {
  const tree = unified().use(remarkParse).parse(markdown);
  const headings = tree.children.filter((n): n is Heading => n.type === "heading").map((h) => ({ depth: h.depth, text: toString(h) }));
  const paragraphs = tree.children.filter((n) => n.type === "paragraph").map((n) => toString(n));
  // Count every paragraph and heading on its own: a list's items joined by toString would glue words together.
  let bodyWords = 0;
  const count = (node: Nodes): void => {
    if (node.type === "heading" && node.depth === 1) return;
    if (node.type === "paragraph" || node.type === "heading") bodyWords += words(toString(node), language);
    else if ("children" in node) node.children.forEach(count);
  };
  count(tree);
  return { tree, headings, paragraphs, bodyWords };
}

/** Case-insensitive whole-phrase test, as the SEO report counts. */
export function mentions(text: string, phrase: string): boolean {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, "iu").test(text);
}

/** The JSON answer has the documented shape. */
export function expectArticleShape(body: any): void {
  expect(body).toMatchObject({
    id: expect.stringMatching(/^art_[0-9a-f]{32}$/),
    object: "article",
    created: expect.any(Number),
    model: expect.any(String),
    request: expect.any(Object),
    article: {
      title: expect.any(String),
      slug: expect.stringMatching(/^[a-z0-9]+(-[a-z0-9]+)*$/),
      metaDescription: expect.any(String),
      language: expect.any(String),
      keywords: expect.any(Array),
      markdown: expect.any(String),
      html: expect.any(String),
      outline: expect.any(Array),
      wordCount: expect.any(Number),
      readingTimeMinutes: expect.any(Number),
    },
    seo: { score: expect.any(Number), checks: expect.any(Array), keywordDensity: expect.any(Object) },
    usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number), durationMs: expect.any(Number) },
  });
  expect(Math.abs(body.created - Date.now() / 1000)).toBeLessThan(600);
  expect(body.seo.score).toBeGreaterThanOrEqual(0);
  expect(body.seo.score).toBeLessThanOrEqual(100);
  for (const check of body.seo.checks) {
    expect(check).toMatchObject({ id: expect.any(String), message: expect.any(String) });
    expect([true, false, null]).toContain(check.passed);
  }
  expect(body.usage.completionTokens).toBeGreaterThan(0);
  expect(body.usage.promptTokens).toBeGreaterThan(0);
}

/**
 * The promises of the first pipeline, read from the returned Markdown and HTML:
 * headings as asked, the primary keyword in title, first paragraph and description,
 * whole sentences, and no model text passed through as HTML.
 */
export function expectArticleBasics(body: any, primary: string, headingTags: boolean): ParsedArticle {
  const { article } = body;
  const parsed = parseArticle(article.markdown, article.language);
  if (headingTags) {
    expect(parsed.headings[0]).toEqual({ depth: 1, text: article.title });
    expect(parsed.headings.filter((h) => h.depth === 1)).toHaveLength(1);
    expect(parsed.headings.filter((h) => h.depth === 2).length).toBeGreaterThan(0);
    expect(article.markdown.startsWith(`# `)).toBe(true);
  } else {
    expect(parsed.headings).toEqual([]);
    expect(article.markdown).not.toMatch(/^#/m);
    expect(article.html).not.toMatch(/<h[1-6][\s>]/);
  }
  expect(mentions(article.title, primary)).toBe(true);
  expect(mentions(parsed.paragraphs[0]!, primary)).toBe(true);
  expect(mentions(article.metaDescription, primary)).toBe(true);
  expect(article.keywords[0].toLowerCase()).toBe(primary.toLowerCase());
  for (const paragraph of parsed.paragraphs) expect(paragraph).toMatch(/[.!?。！？]["'”’)]*$/u);
  expect(article.wordCount).toBe(parsed.bodyWords);
  // Only the tags the template makes; model text never becomes markup.
  const tags = new Set([...article.html.matchAll(/<\/?([a-z0-9]+)/g)].map((m) => m[1]));
  for (const tag of tags) expect(["h1", "h2", "h3", "p", "ul", "li"]).toContain(tag);
  return parsed;
}
