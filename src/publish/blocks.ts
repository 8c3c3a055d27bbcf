/**
 * A post body as WordPress block markup, so the post opens in the block editor as blocks, not
 * as one Classic block: each top-level element of the sanitised body HTML (post.ts `bodyHtml`,
 * through the one HTML tree of `article/text/html.ts`) inside its block's comment delimiters
 * (`<!-- wp:paragraph -->` … `<!-- /wp:paragraph -->`). The markup is the one WordPress 6.1
 * saves, which later versions read through their blocks' deprecations. An element no core
 * block stands for goes into a Custom HTML block (`wp:html`), never into a freeform one.
 */
import type { Element, ElementContent, Properties, RootContent } from "hast";
import { fromHtml } from "hast-util-from-html";
import rehypeStringify from "rehype-stringify";
import { unified } from "unified";

const processor = unified().use(rehypeStringify);

/** Nodes as HTML, as the body was serialised. */
const html = (nodes: ElementContent[]): string => String(processor.stringify({ type: "root", children: nodes }));

/** One block: its delimiters (with its attributes, when any) around its markup. */
function block(name: string, markup: string, attributes: Record<string, unknown> = {}): string {
  const attrs = Object.keys(attributes).length ? ` ${JSON.stringify(attributes)}` : "";
  return `<!-- wp:${name}${attrs} -->\n${markup}\n<!-- /wp:${name} -->`;
}

/** An element's opening and closing tags around `inner` (already markup), its class names replaced by `className` when given. */
function wrap(node: Element, inner: string, className?: string[]): string {
  const properties: Properties = className ? { ...node.properties, className } : node.properties;
  const empty = html([{ ...node, properties, children: [] }]);
  const at = empty.lastIndexOf("</");
  return `${empty.slice(0, at)}${inner}${empty.slice(at)}`;
}

/** A list, each item a list-item block, a list inside an item a list block of its own. */
function listBlock(node: Element): string {
  const items = node.children.filter((child): child is Element => child.type === "element" && child.tagName === "li");
  const inner = items.map((item) => {
    const parts = item.children.map((child) =>
      child.type === "element" && (child.tagName === "ul" || child.tagName === "ol") ? listBlock(child) : html([child]),
    );
    return block("list-item", wrap(item, parts.join("")));
  });
  return block("list", wrap(node, inner.join("")), node.tagName === "ol" ? { ordered: true } : {});
}

/** The block of one top-level element of the body. */
function blockOf(node: Element): string {
  const { tagName } = node;
  const level = /^h([1-6])$/u.exec(tagName)?.[1];
  if (level) return block("heading", html([node]), level === "2" ? {} : { level: Number(level) });
  if (tagName === "p") return block("paragraph", html([node]));
  if (tagName === "ul" || tagName === "ol") return listBlock(node);
  if (tagName === "blockquote") return block("quote", wrap(node, blocksOf(node.children).join(""), ["wp-block-quote"]));
  if (tagName === "table") return block("table", `<figure class="wp-block-table">${html([node])}</figure>`);
  if (tagName === "pre") return block("code", html([{ ...node, properties: { ...node.properties, className: ["wp-block-code"] } }]));
  if (tagName === "hr") return block("separator", '<hr class="wp-block-separator has-alpha-channel-opacity"/>');
  return block("html", html([node]));
}

/** Blocks of a run of nodes: elements each a block, loose text a paragraph, whitespace dropped. */
function blocksOf(nodes: ReadonlyArray<RootContent | ElementContent>): string[] {
  return nodes.flatMap((node) => {
    if (node.type === "element") return [blockOf(node)];
    if (node.type === "text" && node.value.trim()) return [block("paragraph", `<p>${html([node])}</p>`)];
    return [];
  });
}

/** The body HTML fragment as block markup, one block after another, a blank line between them. */
export function toBlocks(bodyHtml: string): string {
  return blocksOf(fromHtml(bodyHtml, { fragment: true }).children).join("\n\n");
}
