import type { Element, ElementContent, Root as HastRoot } from "hast";
import type { Root } from "mdast";
import rehypeStringify from "rehype-stringify";
import { unified } from "unified";
import { htmlTree } from "../text/html.js";
import { serialiseJsonLd } from "./jsonld.js";
import type { JsonLd } from "../../contract/jsonld.js";

const RTL = new Set(["ar", "he", "fa", "ur", "ps", "yi", "dv", "ku", "sd", "ug"]);

/**
 * Built once: the sanitised HTML tree (text/html.ts) → text. Model text only ever entered the
 * tree as text nodes, so it is escaped. `<!DOCTYPE html>` upper-case, as HTML validators prefer.
 */
const processor = unified().use(rehypeStringify, { upperDoctype: true });

/** What the HTML page shows besides the body. */
export interface PageMeta {
  title: string;
  metaDescription: string;
  language: string;
  /** Written into the head as `<script type="application/ld+json">`. */
  jsonLd: JsonLd;
}

/** The article as HTML: the body fragment (`article.html`) and the full page (`Accept: text/html`). */
export interface RenderedArticle {
  html: string;
  page: string;
}

/**
 * Render the article once: the Markdown tree becomes one HTML tree, serialised as the body
 * fragment and, inside a document with the title, description, language and JSON-LD in
 * its head, as the page.
 */
export function renderArticle(tree: Root, meta: PageMeta): RenderedArticle {
  const body = htmlTree(tree);
  const html = String(processor.stringify(body)).trim();
  const page = String(processor.stringify(pageTree(body.children as ElementContent[], meta)));
  return { html, page };
}

const el = (tagName: string, properties: Element["properties"], children: ElementContent[] = []): Element => ({
  type: "element",
  tagName,
  properties,
  children,
});
const nl = (): ElementContent => ({ type: "text", value: "\n" });

/**
 * The page around the body. The JSON-LD script's text is written raw (as the text of any
 * script), so it must be the escaped serialisation, which holds no `<`.
 */
function pageTree(body: ElementContent[], meta: PageMeta): HastRoot {
  const head = el("head", {}, [
    nl(),
    el("meta", { charSet: "utf-8" }),
    nl(),
    el("title", {}, [{ type: "text", value: meta.title }]),
    nl(),
    el("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
    nl(),
    el("meta", { name: "description", content: meta.metaDescription }),
    nl(),
    el("script", { type: "application/ld+json" }, [{ type: "text", value: serialiseJsonLd(meta.jsonLd) }]),
    nl(),
  ]);
  const html = el("html", { lang: meta.language, dir: RTL.has(meta.language) ? "rtl" : "ltr" }, [
    nl(),
    head,
    nl(),
    el("body", {}, [nl(), ...body, nl()]),
    nl(),
  ]);
  return { type: "root", children: [{ type: "doctype" }, nl(), html, nl()] };
}
