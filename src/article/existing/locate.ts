/**
 * Where each part of a Markdown article stands in its text: the front matter's title and
 * description values, the H1, and every top-level heading and paragraph with its sentences.
 * A refresh edits the text at these spans only, so everything else stays byte for byte.
 * Blocks are read by the same structure reader as analyse (one top-level node at a time).
 */
import type { Root, RootContent } from "mdast";
import { readMarkdown } from "./markdown.js";
import { readStructure } from "./structure.js";
import { countWords, splitSentences } from "../text/text.js";

/** A stretch of the article's text: `start` to `end`, in UTF-16 offsets. */
export interface Span {
  start: number;
  end: number;
}

/** A sentence of a paragraph; `span` where its words stand as they are in the text (no markup inside). */
export interface LocatedSentence {
  text: string;
  span: Span | undefined;
}

/** A top-level block of the body. */
export type LocatedBlock =
  | { kind: "heading"; depth: number; text: string; span: Span; section: number }
  | { kind: "paragraph"; text: string; words: number; span: Span; sentences: LocatedSentence[]; section: number; linked: boolean }
  /** Lists, quotes, code, tables: read by analyse, never edited by a refresh. */
  | { kind: "other"; words: number; span: Span; section: number };

/** A section: the introduction (no heading) or a heading with the blocks under it, up to the next heading. */
export interface LocatedSection {
  /** The heading's text, or "Introduction". */
  name: string;
  /** The heading block's index, or -1 for the introduction. */
  heading: number;
  depth: number;
  /** Block indexes of the section's own blocks (the heading not included). */
  blocks: number[];
}

/** The article's parts and where they stand. */
export interface LocatedArticle {
  markdown: string;
  /** The front matter's `title` and `description` values, when each is a plain one-line value. */
  frontMatter: { title?: Span; description?: Span; span: Span } | undefined;
  /** The opening H1's text. */
  h1: { text: string; span: Span } | undefined;
  blocks: LocatedBlock[];
  sections: LocatedSection[];
}

/** The section name of the text before the first heading. */
export const INTRODUCTION = "Introduction";

/** Read where the parts of a Markdown article stand. */
export function locate(markdown: string, language: string): LocatedArticle {
  const { tree } = readMarkdown(markdown);
  const at = (node: RootContent): Span => ({ start: node.position!.start.offset!, end: node.position!.end.offset! });
  const located: LocatedArticle = {
    markdown,
    frontMatter: undefined,
    h1: undefined,
    blocks: [],
    sections: [{ name: INTRODUCTION, heading: -1, depth: 1, blocks: [] }],
  };
  for (const node of tree.children) {
    if (node.type === "yaml") {
      located.frontMatter = { span: at(node), ...frontMatterValues(markdown, at(node)) };
      continue;
    }
    const read = readStructure({ type: "root", children: [node] } as Root);
    if (node.type === "heading" && node.depth === 1 && located.h1 === undefined && located.blocks.length === 0) {
      located.h1 = { text: read.h1 ?? "", span: headingText(markdown, at(node)) };
      continue;
    }
    addBlock(located, node, read, at(node), language);
  }
  return located;
}

function addBlock(located: LocatedArticle, node: RootContent, read: ReturnType<typeof readStructure>, span: Span, language: string): void {
  const section = located.sections.length - 1;
  const index = located.blocks.length;
  const first = read.blocks[0];
  if (node.type === "heading" && first?.kind === "heading") {
    located.blocks.push({
      kind: "heading",
      depth: node.depth,
      text: first.text,
      span: headingText(located.markdown, span),
      section: section + 1,
    });
    located.sections.push({ name: first.text, heading: index, depth: node.depth, blocks: [] });
    return;
  }
  const words = read.blocks.reduce((n, block) => n + countWords(block.text, language), 0);
  if (node.type === "paragraph" && first?.kind === "prose") {
    const sentences = locateSentences(located.markdown, span, splitSentences(first.text, language));
    located.blocks.push({ kind: "paragraph", text: first.text, words, span, sentences, section, linked: read.links.length > 0 });
  } else if (read.blocks.length) located.blocks.push({ kind: "other", words, span, section });
  else return;
  located.sections[section]!.blocks.push(index);
}

/** Each sentence's span in the paragraph's text, in order, where it stands as plain words (any run of spaces or a line break between them). */
function locateSentences(markdown: string, paragraph: Span, sentences: string[]): LocatedSentence[] {
  const source = markdown.slice(paragraph.start, paragraph.end);
  let from = 0;
  return sentences.map((text) => {
    const loose = new RegExp(text.split(/\s+/u).map(escape).join("\\s+"), "gu");
    loose.lastIndex = from;
    const found = loose.exec(source);
    if (!found) return { text, span: undefined };
    from = found.index + found[0].length;
    return { text, span: { start: paragraph.start + found.index, end: paragraph.start + from } };
  });
}

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");

/** The span of a heading's text: after its `#`s and space, before closing `#`s. */
function headingText(markdown: string, span: Span): Span {
  const line = markdown.slice(span.start, span.end);
  const open = /^#{1,6}[ \t]+/u.exec(line)?.[0].length ?? 0;
  const close = /[ \t]+#+[ \t]*$/u.exec(line)?.index ?? line.trimEnd().length;
  return { start: span.start + open, end: span.start + Math.max(open, close) };
}

/** The spans of the front matter's one-line `title:` and `description:` values (quotes included). */
function frontMatterValues(markdown: string, span: Span): { title?: Span; description?: Span } {
  const values: { title?: Span; description?: Span } = {};
  const text = markdown.slice(span.start, span.end);
  for (const name of ["title", "description"] as const) {
    const found = new RegExp(`^${name}:[ \\t]*(\\S.*?)[ \\t]*$`, "mu").exec(text);
    // A block scalar (`|`, `>`) or an anchor is not a one-line value: it is left alone.
    if (!found || /^[|>&*]/u.test(found[1]!)) continue;
    const start = span.start + found.index + found[0].indexOf(found[1]!);
    values[name] = { start, end: start + found[1]!.length };
  }
  return values;
}
