import type { Nodes, PhrasingContent, Root } from "mdast";
import remarkParse from "remark-parse";
import { unified } from "unified";
import type { Block } from "../../src/article/body/document.js";
import type { AnalyseInput } from "../../src/article/report/analyse.js";
import { countWords, splitSentences } from "../../src/article/text/text.js";

/**
 * The analyser's input read from a Markdown string with remark-parse: an oracle that
 * does not share code with ArticleDocument. The first node, when it is an H1, is the
 * title (`hasTitle`) and not a body block; every other heading is a heading block; every
 * paragraph (list items and block quotes included) is a prose block. Code, HTML and
 * thematic breaks have no paragraphs, so they are not prose.
 */
export interface ParsedBlocks {
  blocks: Block[];
  hasTitle: boolean;
  tree: Root;
}

export function parseMarkdown(markdown: string): Root {
  return unified().use(remarkParse).parse(markdown);
}

/** Text of inline content as a reader sees it: a hard line break is a space, not nothing. */
function inlineText(nodes: readonly PhrasingContent[]): string {
  return nodes
    .map((node) => {
      if (node.type === "break") return " ";
      if ("value" in node && typeof node.value === "string") return node.type === "html" ? "" : node.value;
      if ("children" in node) return inlineText(node.children as PhrasingContent[]);
      return "";
    })
    .join("");
}

const tidy = (text: string) => text.replace(/\s+/gu, " ").trim();

export function blocksOf(markdown: string, language = "en"): ParsedBlocks {
  const tree = parseMarkdown(markdown);
  const first = tree.children[0];
  const hasTitle = first?.type === "heading" && first.depth === 1;
  const blocks: Block[] = [];
  // A list's paragraphs are its items: each list is a group of its own, numbered from 1.
  let lists = 0;
  let list: number | undefined;
  const visit = (node: Nodes, top: boolean): void => {
    if (node.type === "heading") {
      if (top && hasTitle && node === first) return;
      const text = tidy(inlineText(node.children));
      blocks.push({ kind: "heading", depth: node.depth, text, words: countWords(text, language) });
    } else if (node.type === "paragraph") {
      const text = tidy(inlineText(node.children));
      const group = list === undefined ? {} : { group: list };
      blocks.push({ kind: "prose", text, words: countWords(text, language), sentences: splitSentences(text, language), ...group });
    } else if (node.type === "list") {
      const outer = list;
      list = ++lists;
      for (const child of node.children) visit(child, false);
      list = outer;
    } else if ("children" in node) {
      for (const child of node.children as Nodes[]) visit(child, false);
    }
  };
  for (const node of tree.children) visit(node, true);
  return { blocks, hasTitle, tree };
}

/** The analyser's input for a document written as Markdown (read by remark, not by the engine), defaults for the rest. */
export function analyseInput(markdown: string, overrides: Partial<AnalyseInput> = {}): AnalyseInput {
  const language = overrides.language ?? "en";
  const { blocks, hasTitle } = blocksOf(markdown, language);
  return {
    blocks,
    hasTitle,
    title: "A title",
    metaDescription: "A description.",
    slug: "a-title",
    keywords: [],
    language,
    headingTags: true,
    preset: "sections",
    targetLength: 300,
    ...overrides,
  };
}
