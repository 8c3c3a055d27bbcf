/**
 * The refreshed article in every form generate answers with: its Markdown, the HTML fragment
 * and page (one render of its tree, the front matter left out), its structured data, outline
 * and counts, all read from the Markdown as it now is.
 */
import type { Root } from "mdast";
import type { Publisher } from "../../contract/request.js";
import { articleJsonLd } from "./jsonld.js";
import { renderArticle } from "./render.js";
import type { Plan } from "../plan/plan.js";
import { readMarkdown } from "../existing/markdown.js";
import { countBlocks, readPage } from "../existing/page.js";
import { isFrontMatter } from "../text/markdown.js";
import { articleSlug, slugify } from "../text/slug.js";
import type { JsonLd } from "../../contract/jsonld.js";
import type { ExistingReport } from "../existing/analyse.js";
import type { OutlineEntry } from "../outline/outline.js";

/** What the refreshed article is made from: its Markdown as it now is, its report, the plan, and the answer's metadata. */
export interface ArticleInput {
  markdown: string;
  report: ExistingReport;
  plan: Plan;
  created: number;
  publisher?: Publisher;
}

/** The article in the forms an answer carries it in (the `article` of generate's and refresh's answers). */
export interface ArticleForms {
  title: string;
  slug: string;
  metaDescription: string;
  language: string;
  keywords: string[];
  markdown: string;
  html: string;
  outline: OutlineEntry[];
  wordCount: number;
  readingTimeMinutes: number;
  jsonLd: JsonLd;
}

/** A refreshed article: the answer's article, and the full HTML page. */
export interface RefreshedForms {
  article: ArticleForms;
  document: string;
}

/** The article of the answer, and the full HTML page (a parse and a render of the whole article). */
export function articleOf({ markdown, report, plan, ...meta }: ArticleInput): RefreshedForms {
  const language = report.language.value;
  const title = report.title?.value ?? "";
  const metaDescription = report.description?.value ?? "";
  const keywords = report.keywords?.value ?? [];
  const { wordCount, readingTimeMinutes } = report;
  const blocks = countBlocks(readPage({ markdown }).blocks, language);
  const outline = { title, metaDescription, sections: plan.sections.map(() => ({ heading: null, subheadings: [] })) };
  const jsonLd = articleJsonLd({
    plan,
    outline,
    blocks,
    title,
    metaDescription,
    language,
    keywords,
    wordCount,
    readingTimeMinutes,
    created: meta.created,
    ...(meta.publisher ? { publisher: meta.publisher } : {}),
  });
  const { tree } = readMarkdown(markdown);
  const body: Root = { ...tree, children: tree.children.filter((node) => !isFrontMatter(node)) };
  const { html, page } = renderArticle(body, { title, metaDescription, language, jsonLd });
  const slug = (report.slug && slugify(report.slug.value)) || articleSlug(title, keywords[0], language);
  return {
    article: {
      title,
      slug,
      metaDescription,
      language,
      keywords,
      markdown,
      html,
      outline: report.outline,
      wordCount,
      readingTimeMinutes,
      jsonLd,
    },
    document: page,
  };
}
