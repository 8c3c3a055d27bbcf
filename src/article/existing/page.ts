/**
 * An existing article, Markdown or HTML, read into the document model's blocks: the parsers
 * give one tree, the structure reader gives its blocks, and counting them in the article's
 * language gives the blocks the analyser measures, as the document does while writing.
 */
import type { Block } from "../body/document.js";
import { countWords, splitSentences } from "../text/text.js";
import { readHtml } from "./html.js";
import { readMarkdown } from "./markdown.js";
import { readStructure, type ArticleStructure, type RawBlock } from "./structure.js";

export type { FoundLink } from "./structure.js";

/** What a page declares about itself: its front matter, or its HTML head. */
export interface Declared {
  title?: string;
  description?: string;
  language?: string;
  slug?: string;
  /** Every front matter field, for a keyword field chosen by name. */
  fields: Record<string, unknown>;
  /** Where these came from. */
  from: "front-matter" | "html";
}

/** A page read, not yet counted. */
export interface ExistingPage extends ArticleStructure {
  declared: Declared;
}

/** Read a Markdown or HTML page; a page's front matter that cannot be read, or nesting too deep, is an error naming `field`. */
export function readPage(page: { markdown: string } | { html: string }, field?: string): ExistingPage {
  if ("html" in page) {
    const { tree, title, description, language } = readHtml(page.html, field);
    return { ...readStructure(tree), declared: { ...defined({ title, description, language }), fields: {}, from: "html" } };
  }
  const { tree, frontMatter } = readMarkdown(page.markdown, field);
  const text = (name: string) => {
    const value = frontMatter[name];
    return typeof value === "string" && value.trim() ? value.trim() : undefined;
  };
  const declared = defined({
    title: text("title"),
    description: text("description"),
    language: text("language") ?? text("lang"),
    slug: text("slug"),
  });
  return { ...readStructure(tree), declared: { ...declared, fields: frontMatter, from: "front-matter" } };
}

/** The prose of a page as one text, for telling its language. */
export const proseText = (page: ExistingPage) => page.blocks.flatMap((block) => (block.kind === "prose" ? [block.text] : [])).join("\n");

/** The blocks counted in the article's language: words and sentences, as the document counts them. */
export function countBlocks(blocks: readonly RawBlock[], language: string): Block[] {
  return blocks.map((block) =>
    block.kind === "heading"
      ? { kind: "heading", depth: block.depth, text: block.text, words: countWords(block.text, language) }
      : {
          kind: "prose",
          text: block.text,
          words: countWords(block.text, language),
          sentences: splitSentences(block.text, language),
          ...(block.group === undefined ? {} : { group: block.group }),
        },
  );
}

function defined<T extends Record<string, string | undefined>>(values: T): Partial<Record<keyof T, string>> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<Record<keyof T, string>>;
}
