import { randomUUID } from "node:crypto";
import type { ModelRuntime } from "../model/runtime.js";
import { ModelWriter } from "../model/writer.js";
import { analyse, type SeoCheck } from "./analyse.js";
import { generate } from "./generate.js";
import { plan } from "./plan.js";
import type { GenerateRequest } from "./request.js";
import { MarkdownDeltas, articleOutline, htmlDocument, template, type OutlineEntry } from "./template.js";

/** The JSON answer of `POST /api/v1/generate`. */
export interface ArticleResponse {
  id: string;
  object: "article";
  created: number;
  model: string;
  request: GenerateRequest;
  article: {
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
  };
  seo: { score: number; checks: SeoCheck[]; keywordDensity: Record<string, number> };
  usage: { promptTokens: number; completionTokens: number; durationMs: number };
}

/** A written article in every form the API serves. */
export interface WrittenArticle {
  response: ArticleResponse;
  /** The full HTML document, for `Accept: text/html`. */
  document: string;
}

/** What is known once the article is planned: sent first when streaming. */
export interface ArticleMeta {
  request: GenerateRequest;
  title: string;
  outline: OutlineEntry[];
}

/** What writing one article needs besides the request. */
export interface WriteArticleOptions {
  runtime: ModelRuntime;
  /** Aborts the generation (client gone, deadline passed). */
  signal?: AbortSignal;
  /** The title and outline, as soon as they are written. */
  onMeta?: (meta: ArticleMeta) => void;
  /** Markdown as it is written, in document order: the deltas concatenated equal `article.markdown`. */
  onDelta?: (text: string) => void;
  /** The running total of words written, also when the article is never finished. */
  onWords?: (words: number) => void;
}

/**
 * One request, start to finish: plan → generate (on a sequence borrowed from the pool)
 * → template → analyse. This is the whole pipeline; each stage is its own module.
 */
export async function writeArticle(request: GenerateRequest, options: WriteArticleOptions): Promise<WrittenArticle> {
  const { runtime, signal, onMeta, onDelta, onWords } = options;
  const started = performance.now();
  const articlePlan = plan(request);
  const deltas = new MarkdownDeltas(articlePlan);
  const sequence = await runtime.pool.acquire(signal);
  let writer: ModelWriter;
  let generated;
  try {
    writer = await ModelWriter.start(runtime, sequence);
    generated = await generate(articlePlan, {
      writer,
      signal,
      onWords,
      onOutline: onMeta && ((a) => onMeta({ request, title: a.title, outline: articleOutline(articlePlan, a) })),
      onProgress: onDelta && ((a) => {
        const text = deltas.update(a);
        if (text) onDelta(text);
      }),
    });
  } finally {
    runtime.pool.release(sequence);
  }
  const article = template(articlePlan, generated);
  if (onDelta) onDelta(deltas.finish(article.markdown));
  const report = analyse({
    markdown: article.markdown,
    title: article.title,
    metaDescription: article.metaDescription,
    slug: article.slug,
    keywords: [articlePlan.primary, ...articlePlan.secondary],
    language: request.language,
    headingTags: request.seo.headingTags,
    preset: articlePlan.preset,
    targetLength: request.length,
  });
  const response: ArticleResponse = {
    id: `art_${randomUUID().replaceAll("-", "")}`,
    object: "article",
    created: Math.floor(Date.now() / 1000),
    model: runtime.name,
    request,
    article: {
      title: article.title,
      slug: article.slug,
      metaDescription: article.metaDescription,
      language: request.language,
      keywords: [articlePlan.primary, ...articlePlan.secondary],
      markdown: article.markdown,
      html: article.html,
      outline: article.outline,
      wordCount: report.wordCount,
      readingTimeMinutes: report.readingTimeMinutes,
    },
    seo: { score: report.score, checks: report.checks, keywordDensity: report.keywordDensity },
    usage: { ...writer.usage, durationMs: Math.round(performance.now() - started) },
  };
  return { response, document: htmlDocument(articlePlan, article) };
}
