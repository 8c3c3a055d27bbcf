import { fromHtml } from "hast-util-from-html";
import { toText } from "hast-util-to-text";
import type { Root } from "mdast";
import { toString } from "mdast-util-to-string";
import { renderArticle, articleSlug, slugify, readMarkdown } from "../article/index.js";
import type { PublishField } from "../contract/publish.js";
import { InvalidFieldError } from "../errors.js";

/** What a post holds, whichever CMS it goes to: every field but `html` plain text (no tags, no markup of any kind). */
export interface Post {
  title: string;
  /** The body as an HTML fragment, without the title's H1 (the CMS prints the title). */
  html: string;
  /** The meta description: the excerpt, and the SEO plugin's description. */
  excerpt: string;
  slug: string;
  /** Whether the request named the slug: only then does an update change an existing post's slug (its address). */
  slugChosen: boolean;
  /** The article's keywords; the first is the SEO plugin's focus keyword. */
  keywords: string[];
  language: string;
  categories: string[];
  tags: string[];
  /** The status a new post gets. */
  status: "draft" | "publish" | "future";
  /** Whether the request named the status: only then does an update change an existing post's status. */
  statusChosen: boolean;
  /** When a `future` post goes live, ISO 8601. */
  date?: string;
  /** The post's id on the target, when the article recorded one (front matter `posts.<target>`). */
  recordedId?: string;
  /** The article's JSON-LD, serialised, when it has one (a generate answer's; a Markdown file carries none). */
  jsonLd?: string;
}

/** The parts of an article a post is made from: a generate answer's, or a Markdown file's front matter. */
export interface ArticleFields {
  title: string;
  metaDescription: string;
  slug: string;
  keywords: string[];
  language: string;
  markdown: string;
  /**
   * The body's HTML ({@link bodyHtml}), when it was rendered already (off the event loop). Not
   * `html`: the API's article has an `html` of its own, the whole page with its H1.
   */
  renderedBody?: string;
  /** The article's JSON-LD (a generate answer's `article.jsonLd`), for a site that prints it. */
  jsonLd?: unknown;
}

/** The post of an article, with the request's publish fields over the target's default status. */
export function postOf(article: ArticleFields, field: PublishField, defaultStatus: "draft" | "publish", recordedId?: string): Post {
  const title = plainText(article.title);
  if (!title) throw new InvalidFieldError("title", "no text", "title: the article's title holds no text once its markup is dropped");
  return {
    title,
    html: article.renderedBody ?? bodyHtml(article),
    excerpt: plainText(article.metaDescription),
    slug: field.slug ?? article.slug,
    slugChosen: field.slug !== undefined,
    keywords: article.keywords.map(plainText),
    language: article.language,
    categories: (field.categories ?? []).map(plainText).filter(Boolean),
    tags: (field.tags ?? []).map(plainText).filter(Boolean),
    status: field.status ?? defaultStatus,
    statusChosen: field.status !== undefined,
    ...(field.date ? { date: new Date(field.date).toISOString() } : {}),
    ...(recordedId ? { recordedId } : {}),
    ...(article.jsonLd ? { jsonLd: JSON.stringify(article.jsonLd) } : {}),
  };
}

/**
 * The article of a Markdown file as `inkpress batch` writes it: title, description, slug,
 * keywords and language from the front matter; a missing title or slug is a 422 naming `markdown`.
 */
export function articleOfMarkdown(markdown: string, target: string): { article: ArticleFields; recordedId?: string } {
  const { tree, frontMatter } = readMarkdown(markdown);
  const h1 = tree.children.find((node) => node.type === "heading" && node.depth === 1);
  const text = (key: string) => (typeof frontMatter[key] === "string" ? (frontMatter[key] as string).trim() : "");
  const title = text("title") || (h1 ? toString(h1) : "");
  if (!title)
    throw new InvalidFieldError("markdown", "no title", "markdown: the article has no title (front matter `title` or a `# Title` line)");
  // slugify never answers empty (a text without letters gets a hash): a file without a slug takes its title's.
  const slug = text("slug") ? slugify(text("slug")) : articleSlug(title, undefined, text("language") || "en");
  const keywords = Array.isArray(frontMatter.keywords) ? frontMatter.keywords.filter((k): k is string => typeof k === "string") : [];
  const posts = frontMatter.posts as Record<string, unknown> | undefined;
  const recorded = posts && typeof posts === "object" ? posts[target] : undefined;
  return {
    article: { title, metaDescription: text("description"), slug, keywords, language: text("language") || "en", markdown },
    ...(typeof recorded === "string" || typeof recorded === "number" ? { recordedId: String(recorded) } : {}),
  };
}

/** The post id a Markdown file's front matter records for a target (`posts: { blog: 123 }`), if any; unreadable front matter records none. */
export function recordedPostId(markdown: string, target: string): string | undefined {
  try {
    return articleOfMarkdown(markdown, target).recordedId;
  } catch {
    return undefined;
  }
}

/**
 * A field's text as plain text: what a browser would show of it read as HTML (tags and what
 * scripts and styles hold dropped, entities decoded), on one line. Text without `<` or `&` is
 * already that and stays byte for byte as it was.
 */
export function plainText(text: string): string {
  if (!/[<&]/.test(text)) return text;
  return toText(fromHtml(text, { fragment: true }))
    .replace(/\s+/g, " ")
    .trim();
}

/** The body's HTML through the one Markdown processor, without front matter or the H1 (on a worker thread for the publish route). */
export function bodyHtml(article: ArticleFields): string {
  const { tree } = readMarkdown(article.markdown);
  const body: Root = {
    type: "root",
    children: tree.children.filter(
      (node, i) => !["yaml", "toml"].includes(node.type as string) && !(node.type === "heading" && node.depth === 1 && i <= 1),
    ),
  };
  return renderArticle(body, {
    title: article.title,
    metaDescription: article.metaDescription,
    language: article.language,
    jsonLd: {} as never,
  }).html;
}
