/**
 * The article's Markdown as DOM while it streams in: the one Markdown processor reads it (as
 * analyse and batch read it), the one HTML path sanitises it as the API's `html` is (no raw
 * HTML, no `javascript:` links), and the tree becomes nodes directly (text only ever as text
 * nodes), never through `innerHTML`.
 */
import { toDom } from "hast-util-to-dom";
import { htmlTree } from "../../../article/text/html.js";
import { parseMarkdown } from "../../../article/text/markdown.js";

/** Render Markdown (headings, paragraphs, lists, tables, links, emphasis…) into a fragment of sanitised nodes. */
export function renderMarkdown(markdown: string): DocumentFragment {
  return toDom(htmlTree(parseMarkdown(markdown)), { fragment: true }) as DocumentFragment;
}
