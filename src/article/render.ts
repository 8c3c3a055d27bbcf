import type { Element, Root as HastRoot } from "hast";
import type { Root } from "mdast";
import rehypeDocument from "rehype-document";
import rehypeStringify from "rehype-stringify";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import { serialiseJsonLd, type JsonLd } from "./jsonld.js";

const RTL = new Set(["ar", "he", "fa", "ur", "ps", "yi", "dv", "ku", "sd", "ug"]);

const toHtml = unified().use(remarkRehype).use(rehypeStringify);

/** The article body as an HTML fragment. Model text only ever entered the tree as text nodes, so it is escaped. */
export function renderHtml(tree: Root): string {
  return String(toHtml.stringify(toHtml.runSync(structuredClone(tree)))).trim();
}

/**
 * A full HTML document for `Accept: text/html`: title, description, language and the
 * JSON-LD structured data in the head.
 */
export function renderHtmlDocument(tree: Root, meta: { title: string; metaDescription: string; language: string; jsonLd: JsonLd }): string {
  const processor = unified()
    .use(remarkRehype)
    .use(rehypeDocument, {
      title: meta.title,
      language: meta.language,
      dir: RTL.has(meta.language) ? "rtl" : "ltr",
      meta: [{ name: "description", content: meta.metaDescription }],
    })
    .use(headScript, serialiseJsonLd(meta.jsonLd))
    .use(rehypeStringify);
  return String(processor.stringify(processor.runSync(structuredClone(tree))));
}

/**
 * Append `<script type="application/ld+json">` to the head. Its text is written raw (as
 * the text of any script), so it must be the escaped serialisation, which holds no `<`.
 */
function headScript(json: string) {
  return (tree: HastRoot) => {
    const html = tree.children.find((n): n is Element => n.type === "element" && n.tagName === "html");
    const head = html?.children.find((n): n is Element => n.type === "element" && n.tagName === "head");
    if (!head) throw new Error("The HTML document has no head.");
    const script: Element = { type: "element", tagName: "script", properties: { type: "application/ld+json" }, children: [{ type: "text", value: json }] };
    const last = head.children.at(-1);
    const trailing = last?.type === "text" && last.value.trim() === "" ? 1 : 0;
    head.children.splice(head.children.length - trailing, 0, { type: "text", value: "\n" }, script);
  };
}
