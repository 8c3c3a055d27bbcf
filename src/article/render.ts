import type { Root } from "mdast";
import rehypeDocument from "rehype-document";
import rehypeStringify from "rehype-stringify";
import remarkRehype from "remark-rehype";
import { unified } from "unified";
import type { OutlineEntry } from "./document.js";
import type { Outline } from "./outline.js";
import type { Plan } from "./plan.js";
import { cutSlug, slugify } from "./slug.js";

const RTL = new Set(["ar", "he", "fa", "ur", "ps", "yi", "dv", "ku", "sd", "ug"]);

const toHtml = unified().use(remarkRehype).use(rehypeStringify);

/** The article body as an HTML fragment. Model text only ever entered the tree as text nodes, so it is escaped. */
export function renderHtml(tree: Root): string {
  return String(toHtml.stringify(toHtml.runSync(structuredClone(tree)))).trim();
}

/** A full HTML document for `Accept: text/html`: title, description and language in the head. */
export function renderHtmlDocument(tree: Root, meta: { title: string; metaDescription: string; language: string }): string {
  const processor = unified()
    .use(remarkRehype)
    .use(rehypeDocument, {
      title: meta.title,
      language: meta.language,
      dir: RTL.has(meta.language) ? "rtl" : "ltr",
      meta: [{ name: "description", content: meta.metaDescription }],
    })
    .use(rehypeStringify);
  return String(processor.stringify(processor.runSync(structuredClone(tree))));
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
