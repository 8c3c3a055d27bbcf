/**
 * The article's Markdown as DOM while it streams in: the one Markdown processor reads it (as
 * analyse and batch read it), rehype-sanitize keeps only what GitHub keeps in user content (no
 * raw HTML, no `javascript:` links), and the tree becomes nodes directly (text only ever as
 * text nodes), never through `innerHTML`.
 */
import type { Root } from "hast";
import { toDom } from "hast-util-to-dom";
import rehypeSanitize from "rehype-sanitize";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { parseMarkdown } from "../../../article/text/markdown.js";

const processor = unified().use(remarkRehype).use(rehypeSanitize);

/** Render Markdown (headings, paragraphs, lists, tables, links, emphasis…) into a fragment of sanitised nodes. */
export function renderMarkdown(markdown: string): DocumentFragment {
  const tree = processor.runSync(parseMarkdown(markdown)) as Root;
  return toDom(tree, { fragment: true }) as DocumentFragment;
}
