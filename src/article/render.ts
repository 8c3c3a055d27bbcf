import type { Element, Root as HastRoot } from "hast";
import type { Root } from "mdast";
import rehypeDocument from "rehype-document";
import rehypeStringify from "rehype-stringify";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import type { OutlineEntry } from "./document.js";
import { serialiseJsonLd, type JsonLd } from "./jsonld.js";
import type { Outline } from "./outline.js";
import type { Plan } from "./plan.js";
import { cutSlug, slugify } from "./slug.js";

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

/** The slug starts with the primary keyword, then the rest of the title. */
export function articleSlug(title: string, primary: string): string {
  const keyword = slugify(primary);
  const rest = slugify(title).split("-").filter((w) => !keyword.split("-").includes(w));
  return cutSlug([keyword, ...rest].filter(Boolean).join("-"));
}

/**
 * The logical sections with the levels they have (or would have) as headings: sections
 * shown without a heading (the introduction, a short article's closing) are listed by
 * their label.
 */
export function articleOutline(plan: Plan, outline: Outline): OutlineEntry[] {
  const entries: OutlineEntry[] = [];
  for (const [i, section] of plan.sections.entries()) {
    const written = outline.sections[i]!;
    if (section.kind === "body" && !written.heading && plan.preset === "paragraphs") continue;
    const fallback = section.kind === "conclusion" ? plan.labels.conclusion : plan.labels.introduction;
    const heading = section.label ?? (written.heading && section.number !== null ? `${section.number}. ${written.heading}` : written.heading);
    entries.push({ level: 2, text: heading ?? fallback });
    for (const sub of written.subheadings) entries.push({ level: 3, text: sub });
  }
  return entries;
}
