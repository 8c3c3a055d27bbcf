import type { Heading, List, Nodes, Paragraph, Root } from "mdast";
import { toString } from "mdast-util-to-string";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../scripts/gguf.js";
import { ArticleDocument } from "../../src/article/body/document.js";
import { renderArticle } from "../../src/article/output/render.js";
import { countPhrase, countWords } from "../../src/article/text/text.js";
import { blocksOf, parseMarkdown } from "../helpers/blocks.js";

// The document on hand-fed text: no model. Its Markdown is checked by parsing it back with
// remark (an independent reader) and its HTML by decoding what rehype wrote.

/** Every node of a tree, depth first, in document order. */
function nodes(node: Nodes): Nodes[] {
  return [node, ...("children" in node ? node.children.flatMap((child) => nodes(child)) : [])];
}

const headingsOf = (tree: Root) =>
  nodes(tree)
    .filter((n): n is Heading => n.type === "heading")
    .map((h) => ({ depth: h.depth, text: toString(h) }));
const topParagraphs = (tree: Root) => tree.children.filter((n): n is Paragraph => n.type === "paragraph").map((n) => toString(n));
const listsOf = (tree: Root) => tree.children.filter((n): n is List => n.type === "list");

/** Decode the character references rehype-stringify writes, in one pass (so "&#x26;amp;" stays "&amp;"). */
function decodeHtml(value: string): string {
  const named: Record<string, string> = { quot: '"', lt: "<", gt: ">", amp: "&" };
  return value.replace(/&(?:#x([0-9a-f]+)|#(\d+)|(quot|lt|gt|amp));/gi, (_, hex?: string, dec?: string, name?: string) =>
    hex ? String.fromCodePoint(parseInt(hex, 16)) : dec ? String.fromCodePoint(Number(dec)) : named[name!.toLowerCase()]!,
  );
}

/** The elements rehype wrote, by tag name. */
const tags = (html: string) => [...html.matchAll(/<([a-z][a-z0-9]*)[\s>/]/g)].map((m) => m[1]);

/** A document that records its deltas. */
function documentWith(keywords: string[] = ["compost bins", "kitchen scraps"], language = "en") {
  const deltas: string[] = [];
  const doc = new ArticleDocument(language, keywords, (delta) => deltas.push(delta));
  return { doc, deltas };
}

/** A small article in every shape the engine writes: title, paragraphs, headings, a list. */
function sampleArticle() {
  const { doc, deltas } = documentWith();
  doc.addTitle("Compost bins for small gardens");
  doc.addSentence("Compost bins turn kitchen scraps into soil.", true);
  doc.addSentence("They need little space.", false);
  doc.addSentence("A new paragraph starts here.", true);
  doc.addHeading(2, "Key takeaways");
  doc.addListItem("Add greens and browns.");
  doc.addListItem("Keep the heap moist. Turn it weekly.");
  doc.addHeading(2, "Choosing compost bins");
  doc.addHeading(3, "Size matters");
  doc.addSentence("Small compost bins fit on a balcony.", false);
  doc.addListItem("A list after prose opens a new list.");
  doc.addSentence("Prose after a list opens a new paragraph.", false);
  doc.finish();
  return { doc, deltas };
}

describe("ArticleDocument: Markdown", () => {
  it("is the deltas concatenated, and ends with one newline", () => {
    const { doc, deltas } = sampleArticle();
    expect(deltas.join("")).toBe(doc.markdown());
    expect(doc.markdown().endsWith("\n")).toBe(true);
    expect(doc.markdown().endsWith("\n\n")).toBe(false);
    expect(deltas.every((p) => p !== "")).toBe(true);
  });

  it("parses back to the headings, paragraphs and lists that were appended", () => {
    const { doc } = sampleArticle();
    const tree = parseMarkdown(doc.markdown());
    expect(headingsOf(tree)).toEqual([
      { depth: 1, text: "Compost bins for small gardens" },
      { depth: 2, text: "Key takeaways" },
      { depth: 2, text: "Choosing compost bins" },
      { depth: 3, text: "Size matters" },
    ]);
    expect(topParagraphs(tree)).toEqual([
      "Compost bins turn kitchen scraps into soil. They need little space.",
      "A new paragraph starts here.",
      "Small compost bins fit on a balcony.",
      "Prose after a list opens a new paragraph.",
    ]);
    const lists = listsOf(tree);
    expect(lists.map((l) => l.children.map((item) => toString(item)))).toEqual([
      ["Add greens and browns.", "Keep the heap moist. Turn it weekly."],
      ["A list after prose opens a new list."],
    ]);
    expect(lists.every((l) => !l.ordered)).toBe(true);
    // The tree the document keeps says the same as the Markdown it wrote.
    expect(headingsOf(doc.tree)).toEqual(headingsOf(tree));
    expect(topParagraphs(doc.tree)).toEqual(topParagraphs(tree));
  });

  it("has the blocks a reader of its Markdown finds (the H1 title is not one)", () => {
    const { doc } = sampleArticle();
    const parsed = blocksOf(doc.markdown());
    expect(doc.hasTitle).toBe(true);
    expect(parsed.hasTitle).toBe(true);
    expect(doc.blocks).toEqual(parsed.blocks);
  });

  it("writes no title when none is added, and nothing at all for an empty document", () => {
    const { doc, deltas } = documentWith();
    doc.finish();
    expect(doc.markdown()).toBe("");
    expect(deltas).toEqual([]);
    const other = documentWith().doc;
    other.addSentence("Just one sentence here.", true);
    other.finish();
    expect(other.hasTitle).toBe(false);
    expect(other.markdown()).toBe("Just one sentence here.\n");
  });

  it("close() makes the next sentence start a new paragraph", () => {
    const { doc } = documentWith();
    doc.addSentence("One sentence here.", true);
    doc.close();
    doc.addSentence("Another sentence here.", false);
    doc.finish();
    expect(topParagraphs(parseMarkdown(doc.markdown()))).toEqual(["One sentence here.", "Another sentence here."]);
  });
});

describe("ArticleDocument: counts", () => {
  it("counts body words (not the title) as the analyser's reader does", () => {
    const { doc } = sampleArticle();
    const parsed = blocksOf(doc.markdown());
    const words = parsed.blocks.reduce((n, b) => n + b.words, 0);
    expect(doc.wordCount).toBe(words);
    // 7 + 4 + 5 | 2 | 4 + 7 | 3 + 2 + 7 | 8 + 8 words.
    expect(doc.wordCount).toBe(57);
  });

  it("counts keyword occurrences in the body, headings included, title excluded, case-insensitively", () => {
    const { doc } = sampleArticle();
    // Title: not counted. Prose: 2 ("Compost bins", "Small compost bins"). Heading: 1.
    expect(doc.occurrences("compost bins")).toBe(3);
    expect(doc.occurrences("kitchen scraps")).toBe(1);
    expect(doc.occurrences("not a keyword")).toBe(0);
    const parsed = blocksOf(doc.markdown());
    expect(parsed.blocks.reduce((n, b) => n + countPhrase(b.text, "compost bins", "en"), 0)).toBe(3);
  });

  it("keeps the open paragraph's words, and resets them for a new paragraph", () => {
    const { doc } = documentWith();
    expect(doc.paragraphWords).toBe(0);
    doc.addSentence("One two three four.", true);
    doc.addSentence("Five six.", false);
    expect(doc.paragraphWords).toBe(6);
    doc.addSentence("Seven eight nine.", true);
    expect(doc.paragraphWords).toBe(3);
    doc.addHeading(2, "A heading");
    expect(doc.paragraphWords).toBe(0);
    expect(doc.wordCount).toBe(11);
  });

  it("counts Japanese words by segmentation", () => {
    const { doc } = documentWith(["堆肥箱"], "ja");
    doc.addTitle("堆肥箱の使い方");
    doc.addSentence("堆肥箱は台所の生ごみを土に変えます。", true);
    doc.addSentence("小さな庭でも堆肥箱は使えます。", false);
    doc.finish();
    expect(doc.wordCount).toBe(countWords("堆肥箱は台所の生ごみを土に変えます。小さな庭でも堆肥箱は使えます。", "ja"));
    expect(doc.wordCount).toBeGreaterThan(8);
    expect(doc.occurrences("堆肥箱")).toBe(2);
    expect(topParagraphs(parseMarkdown(doc.markdown()))).toEqual(["堆肥箱は台所の生ごみを土に変えます。 小さな庭でも堆肥箱は使えます。"]);
  });
});

// Model text is text: whatever the model writes, the Markdown and HTML show it as written.
const HOSTILE = [
  "<script>alert(1)</script> runs here.",
  "# not a heading",
  "## not a heading either",
  "*x* is not emphasis.",
  "_y_ is not emphasis either.",
  "[a](b) is not a link.",
  "![img](http://x.test/i.png) is not an image.",
  "<http://example.com> is not an autolink.",
  "`code` is not code.",
  "1. not a list",
  "- not a bullet",
  "+ not a bullet",
  "> not a quote",
  "---",
  "===",
  "| a | b |",
  "&amp; stays an ampersand and &lt; stays too.",
  "A backslash \\ and a trailing one \\",
  "    four spaces are not code.",
  "~~~ not a fence",
  "**bold** and __bold__ are not strong.",
  "<!-- not a comment -->",
  "[ref]: http://x.test",
];

describe("ArticleDocument: model text stays text", () => {
  it.each(HOSTILE)("%s", (sentence) => {
    // At the start of a paragraph, after a sentence on the same line, as a list item and as headings.
    const { doc } = documentWith();
    doc.addTitle(sentence);
    doc.addSentence(sentence, true);
    doc.addSentence("Before it.", true);
    doc.addSentence(sentence, false);
    doc.addHeading(2, sentence);
    doc.addHeading(3, sentence);
    doc.addListItem(sentence);
    doc.finish();

    const tree = parseMarkdown(doc.markdown());
    const kinds = tree.children.map((n) => (n.type === "heading" ? `h${n.depth}` : n.type));
    expect(kinds).toEqual(["h1", "paragraph", "paragraph", "h2", "h3", "list"]);
    // remark reads back exactly the text (a leading space run is kept as an escape).
    const texts = tree.children.map((n) => toString(n));
    expect(texts).toEqual([sentence, sentence, `Before it. ${sentence}`, sentence, sentence, sentence]);
    // Nothing but text inside: no emphasis, link, code, html or break node.
    const inline = nodes(tree).filter((n) => !["root", "heading", "paragraph", "list", "listItem", "text"].includes(n.type));
    expect(inline.map((n) => n.type)).toEqual([]);

    const html = renderArticle(doc.tree, {
      title: "t",
      metaDescription: "d",
      language: "en",
      jsonLd: { "@context": "https://schema.org", "@graph": [] } as never,
    }).html;
    expect(tags(html).sort()).toEqual(["h1", "h2", "h3", "li", "p", "p", "ul"].sort());
    const shown = [...html.matchAll(/<(h1|h2|h3|p|li)>([\s\S]*?)<\/\1>/g)].map((m) => decodeHtml(m[2]!));
    expect(shown).toEqual([sentence, sentence, `Before it. ${sentence}`, sentence, sentence, sentence]);
  });

  it("never lets a tag through to the HTML", () => {
    const { doc } = documentWith();
    doc.addSentence('<img src=x onerror="alert(1)"> and <a href="javascript:alert(1)">x</a>.', true);
    doc.finish();
    const html = renderArticle(doc.tree, {
      title: "t",
      metaDescription: "d",
      language: "en",
      jsonLd: { "@context": "https://schema.org", "@graph": [] } as never,
    }).html;
    expect(html).not.toMatch(/<(img|a|script)\b/);
    expect(html.startsWith("<p>")).toBe(true);
  });

  it("joins random Markdown-like sentences without making structure across them", () => {
    const random = mulberry32(20240611);
    const alphabet = [
      "*",
      "_",
      "`",
      "[",
      "]",
      "(",
      ")",
      "<",
      ">",
      "!",
      "#",
      "\\",
      "&",
      ";",
      "-",
      "=",
      "+",
      "|",
      "~",
      ".",
      ":",
      "/",
      " ",
      "a",
      "b",
      "1",
      "x",
    ];
    const word = () =>
      Array.from({ length: 1 + Math.floor(random() * 6) }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
    const sentence = () =>
      Array.from({ length: 1 + Math.floor(random() * 5) }, word)
        .join(" ")
        .trim() || "x";
    for (let round = 0; round < 200; round++) {
      const { doc } = documentWith();
      const paragraph = Array.from({ length: 1 + Math.floor(random() * 4) }, sentence);
      const item = sentence();
      for (const [i, s] of paragraph.entries()) doc.addSentence(s, i === 0);
      doc.addListItem(item);
      doc.finish();
      const tree = parseMarkdown(doc.markdown());
      const where = JSON.stringify({ paragraph, item, markdown: doc.markdown() });
      expect(
        tree.children.map((n) => n.type),
        where,
      ).toEqual(["paragraph", "list"]);
      expect(toString(tree.children[0]!), where).toBe(paragraph.join(" "));
      expect(toString(tree.children[1]!), where).toBe(item);
      expect(
        nodes(tree).filter((n) => !["root", "paragraph", "list", "listItem", "text"].includes(n.type)),
        where,
      ).toEqual([]);
    }
  });
});
