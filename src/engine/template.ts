import type { Heading, Root, RootContent } from "mdast";
import rehypeDocument from "rehype-document";
import rehypeStringify from "rehype-stringify";
import remarkRehype from "remark-rehype";
import remarkStringify, { type Options as StringifyOptions } from "remark-stringify";
import { unified } from "unified";
import type { GeneratedArticle, GeneratedSection } from "./generate.js";
import type { Plan } from "./plan.js";
import { cutSlug, slugify } from "./slug.js";

/** One entry of the article's logical outline (listed even when headings are off). */
export interface OutlineEntry {
  level: number;
  text: string;
}

/** The assembled article, serialised once. */
export interface TemplatedArticle {
  tree: Root;
  title: string;
  slug: string;
  metaDescription: string;
  outline: OutlineEntry[];
  markdown: string;
  /** The article body as an HTML fragment. */
  html: string;
}

/** Fixed serialiser options: the same tree always gives the same bytes. */
const MARKDOWN: StringifyOptions = {
  bullet: "-",
  emphasis: "_",
  strong: "*",
  fence: "`",
  rule: "-",
  listItemIndent: "one",
  setext: false,
  incrementListMarker: true,
};

const RTL = new Set(["ar", "he", "fa", "ur", "ps", "yi", "dv", "ku", "sd", "ug"]);

const toMarkdown = unified().use(remarkStringify, MARKDOWN);
const toHtml = unified().use(remarkRehype).use(rehypeStringify);

/**
 * Deterministic assembly: the generated sections become one mdast tree whose
 * structure follows the preset and `headingTags`, whatever the model wrote.
 * Model text only ever enters as text nodes, so it is escaped, never raw HTML.
 */
export function template(plan: Plan, article: GeneratedArticle): TemplatedArticle {
  const tree = assemble(plan, article);
  return {
    tree,
    title: article.title,
    slug: articleSlug(article.title, plan.primary),
    metaDescription: article.metaDescription,
    outline: articleOutline(plan, article),
    markdown: toMarkdown.stringify(tree),
    html: String(toHtml.stringify(toHtml.runSync(tree))).trim(),
  };
}

/** The document tree: H1 title and H2 sections when headings are on, none at all when off. */
export function assemble(plan: Plan, article: GeneratedArticle): Root {
  const showHeadings = plan.headings;
  const subheadings = showHeadings && plan.preset !== "paragraphs";
  const children: RootContent[] = [];
  if (showHeadings) children.push(heading(1, article.title));
  for (const section of article.sections) {
    if (section.heading && subheadings) children.push(heading(2, section.heading));
    children.push(...sectionBody(section, subheadings));
  }
  return { type: "root", children };
}

/**
 * Markdown deltas of an article that grows at its end: each call with the grown
 * article yields the text added since the last call, so the deltas concatenated
 * equal the final Markdown byte for byte. The final newline is held back until
 * `finish`, since a growing document always ends with one.
 */
export class MarkdownDeltas {
  private emitted = "";

  constructor(private readonly plan: Plan) {}

  /** The Markdown added since the last call ("" when nothing new is safe to send). */
  update(article: GeneratedArticle): string {
    const markdown = toMarkdown.stringify(assemble(this.plan, article)).replace(/\n$/, "");
    if (!markdown.startsWith(this.emitted) || markdown.length === this.emitted.length) return "";
    const delta = markdown.slice(this.emitted.length);
    this.emitted = markdown;
    return delta;
  }

  /** The rest of the final Markdown. */
  finish(markdown: string): string {
    if (!markdown.startsWith(this.emitted)) throw new Error("streamed Markdown diverged from the final article");
    return markdown.slice(this.emitted.length);
  }
}

/** A full HTML document for `Accept: text/html`: title, description and language in the head. */
export function htmlDocument(plan: Plan, article: TemplatedArticle): string {
  const language = plan.request.language;
  const processor = unified()
    .use(remarkRehype)
    .use(rehypeDocument, {
      title: article.title,
      language,
      dir: RTL.has(language) ? "rtl" : "ltr",
      meta: [{ name: "description", content: article.metaDescription }],
    })
    .use(rehypeStringify);
  return String(processor.stringify(processor.runSync(structuredClone(article.tree))));
}

/** A section's content; without visible subheadings, H3s go, and FAQ questions stay as their own paragraph. */
function sectionBody(section: GeneratedSection, subheadings: boolean): RootContent[] {
  if (subheadings) return section.children;
  return section.children.flatMap((node): RootContent[] => {
    if (node.type !== "heading") return [node];
    return section.kind === "faq" ? [{ type: "paragraph", children: node.children }] : [];
  });
}

function heading(depth: 1 | 2, text: string): Heading {
  return { type: "heading", depth, children: [{ type: "text", value: text }] };
}

/** The logical sections, with the levels they have (or would have) as headings. */
export function articleOutline(plan: Plan, article: GeneratedArticle): OutlineEntry[] {
  const entries: OutlineEntry[] = [];
  for (const section of article.sections) {
    // Sections shown without a heading (the introduction, a short article's closing) are listed by their label.
    const label = section.kind === "conclusion" ? plan.labels.conclusion : plan.labels.introduction;
    entries.push({ level: 2, text: section.heading ?? label });
    for (const node of section.children) {
      if (node.type === "heading") entries.push({ level: 3, text: node.children.map((c) => ("value" in c ? c.value : "")).join("") });
    }
  }
  return entries;
}

/** The slug starts with the primary keyword, then the rest of the title. */
function articleSlug(title: string, primary: string): string {
  const keyword = slugify(primary);
  const rest = slugify(title).split("-").filter((w) => !keyword.split("-").includes(w));
  return cutSlug([keyword, ...rest].filter(Boolean).join("-"));
}
