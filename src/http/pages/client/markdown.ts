/**
 * The article's Markdown as DOM while it streams in: remark parses it, rehype-sanitize keeps
 * only what GitHub keeps in user content (no raw HTML, no `javascript:` links), and the tree
 * becomes nodes directly (text only ever as text nodes), never through `innerHTML`.
 */
import type { Root } from "hast";
import { toDom } from "hast-util-to-dom";
import rehypeSanitize from "rehype-sanitize";
import remarkParse from "remark-parse";
import remarkRehype from "remark-rehype";
import { unified } from "unified";

const processor = unified().use(remarkParse).use(remarkRehype).use(rehypeSanitize);

/** Render Markdown (headings, paragraphs, lists, links, emphasis…) into a fragment of sanitised nodes. */
export function renderMarkdown(markdown: string): DocumentFragment {
  const tree = processor.runSync(processor.parse(markdown)) as Root;
  return toDom(tree, { fragment: true }) as DocumentFragment;
}
