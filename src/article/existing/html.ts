/**
 * An HTML page read as an article: the `<title>`, `<meta name="description">` and
 * `<html lang>` of its head, and the body as Markdown's tree (headings, paragraphs, lists,
 * links). What is not the article is left out: scripts, styles, navigation (`<nav>`,
 * `role="navigation"`), forms, asides, the page's footer; when the page marks its content
 * with `<main>` (or a single `<article>`), only that is read.
 */
import type { Element, ElementContent, Root as HastRoot, RootContent as HastContent } from "hast";
import { fromHtml } from "hast-util-from-html";
import { toMdast } from "hast-util-to-mdast";
import type { Root } from "mdast";
import { assertNesting } from "../../contract/nesting.js";

/** An HTML page: its tree as Markdown's, and what its head declares. */
export interface HtmlPage {
  tree: Root;
  title: string | undefined;
  description: string | undefined;
  /** `<html lang>`, as written. */
  language: string | undefined;
}

/** Elements that are never the article's text. */
const IGNORED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "nav",
  "form",
  "aside",
  "footer",
  "iframe",
  "svg",
  "button",
  "select",
  "dialog",
]);

/** Read an HTML page or fragment; one nested too deeply to parse is an error naming `field`. */
export function readHtml(html: string, field = "html"): HtmlPage {
  assertNesting(html, "html", field);
  const page = fromHtml(html);
  const elements = [...walk(page)];
  const named = (tag: string) => elements.find((element) => element.tagName === tag);
  const meta = elements.find(
    (element) => element.tagName === "meta" && String(element.properties.name ?? "").toLowerCase() === "description",
  );
  const title = named("title");
  const language = named("html")?.properties.lang;
  const articles = elements.filter((element) => element.tagName === "article");
  const content = named("main") ?? (articles.length === 1 ? articles[0] : undefined) ?? named("body") ?? page;
  const kept: HastRoot = { type: "root", children: strip(content.children) };
  return {
    tree: toMdast(kept) as Root,
    title: title ? textOf(title).replace(/\s+/gu, " ").trim() || undefined : undefined,
    description:
      typeof meta?.properties.content === "string" ? meta.properties.content.replace(/\s+/gu, " ").trim() || undefined : undefined,
    language: typeof language === "string" && language.trim() ? language.trim() : undefined,
  };
}

/** Every element of the tree, in document order. */
function* walk(node: HastRoot | HastContent): Generator<Element> {
  if (node.type === "element") yield node;
  if ("children" in node) for (const child of node.children) yield* walk(child);
}

/** The children without the elements that are not the article's text (and without comments and doctypes). */
function strip(children: readonly (HastContent | ElementContent)[]): ElementContent[] {
  const kept: ElementContent[] = [];
  for (const child of children) {
    if (child.type === "text") kept.push(child);
    if (
      child.type !== "element" ||
      IGNORED.has(child.tagName) ||
      child.properties.role === "navigation" ||
      child.properties.hidden !== undefined
    )
      continue;
    kept.push({ ...child, children: strip(child.children) });
  }
  return kept;
}

const textOf = (node: ElementContent): string =>
  node.type === "text" ? node.value : "children" in node ? node.children.map(textOf).join("") : "";
