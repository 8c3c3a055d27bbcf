import { randomUUID } from "node:crypto";
import type { Backend } from "../model/backend.js";
import { analyse, requestTexts } from "./report/analyse.js";
import type { AvoidList } from "./plan/avoid.js";
import type { AcceptedRequest } from "./accept.js";
import { ArticleDocument } from "./body/document.js";
import { Grounding } from "./grounding/grounding.js";
import { articleJsonLd } from "./output/jsonld.js";
import type { Publisher } from "../contract/request.js";
import { TokenLedger } from "./ledger.js";
import { openAnswer } from "./outline/opening.js";
import { plannedOutline, type Outline, type OutlineEntry } from "./outline/outline.js";
import { plan, planAvoidList, type Plan } from "./plan/plan.js";
import { voiced } from "./plan/voice.js";
import { renderArticle } from "./output/render.js";
import type { GenerateRequest } from "../contract/request.js";
import { articleSlug } from "./text/slug.js";
import type { ArticleResponse, StreamMeta, StreamOutline } from "../contract/response.js";
import { writeBody } from "./body/write.js";
import { seoAnswer } from "./answer.js";

/** A written article in every form the API serves. */
export interface WrittenArticle {
  response: ArticleResponse;
  /** The full HTML document, for `Accept: text/html`. */
  document: string;
}

/** What writing one article needs besides the request. */
export interface WriteArticleOptions {
  backend: Backend;
  /**
   * Aborts the generation (client gone, deadline passed).
   * @default none
   */
  signal?: AbortSignal;
  /**
   * The id, model and request, as soon as the request is accepted and before any model call.
   * @default none
   */
  onMeta?: (meta: StreamMeta) => void;
  /**
   * The title and outline, once planned.
   * @default none
   */
  onOutline?: (outline: StreamOutline) => void;
  /**
   * Markdown as it is written, in document order: the deltas concatenated equal `article.markdown`.
   * @default none
   */
  onDelta?: (text: string) => void;
  /**
   * The running totals of body words and tokens, after every sentence, also when the article is never finished.
   * @default none
   */
  onWords?: (words: number, tokens: number) => void;
  /**
   * Who publishes the article (the key's publisher, else the server's), for its structured data.
   * @default none (no `publisher` in the JSON-LD)
   */
  publisher?: Publisher;
}

/**
 * One request, start to finish, each stage entered once: plan (pure) → outline (one
 * grammar-constrained answer) → body (one continuing, steered generation appending to the
 * document) → analyse (reads the document) → structured data → render (the document as
 * HTML, the page with the structured data in its head). Every stage talks to the model
 * through one writer, on one slot of the backend.
 */
export async function writeArticle(request: AcceptedRequest, options: WriteArticleOptions): Promise<WrittenArticle> {
  const { backend } = options;
  const started = performance.now();
  const id = `art_${randomUUID().replaceAll("-", "")}`;
  options.onMeta?.({ id, model: backend.name, request });

  const articlePlan = plan(request);
  const keywords = [articlePlan.primary, ...articlePlan.secondary];
  const avoid = planAvoidList(articlePlan);
  const document = new ArticleDocument(request.language, keywords, options.onDelta);
  const written = await writeAnswer({ request, articlePlan, avoid, document }, options);
  return articleAnswer({ ...written, id, started, request, articlePlan, keywords, document }, options);
}

/** What the outline and body pass start from. */
interface AnswerInput {
  request: GenerateRequest;
  articlePlan: Plan;
  avoid: AvoidList;
  document: ArticleDocument;
}

/** What the outline and body pass leave: the outline, its planned entries, the grounding, and the writer's usage. */
interface WrittenAnswer {
  outline: Outline;
  planned: OutlineEntry[];
  grounding: Grounding;
  usage: ArticleResponse["usage"];
}

/** The outline, then the body in the same continuing answer, on one writer borrowed from the backend. */
async function writeAnswer({ request, articlePlan, avoid, document }: AnswerInput, options: WriteArticleOptions): Promise<WrittenAnswer> {
  const { backend, signal, onWords } = options;
  await using writer = TokenLedger.of(await backend.writer(signal));
  const outline = await openAnswer({ plan: articlePlan, writer, prompting: backend.prompting, seed: request.seed, avoid, signal });
  const planned = plannedOutline(articlePlan, outline);
  options.onOutline?.({ title: outline.title, outline: planned });
  const grounding = Grounding.ofPlan(articlePlan, outline, avoid);
  await writeBody(articlePlan, outline, {
    writer,
    document,
    avoid,
    grounding,
    seed: request.seed,
    ...(signal ? { signal } : {}),
    ...(onWords ? { onWords } : {}),
  });
  return { outline, planned, grounding, usage: { ...writer.usage, discardedTokens: writer.discarded, durationMs: 0 } };
}

/** Everything the answer is assembled from. */
interface AnswerParts extends WrittenAnswer {
  id: string;
  started: number;
  request: GenerateRequest;
  articlePlan: Plan;
  keywords: string[];
  document: ArticleDocument;
}

/** The answer in every form the API serves: the report, the structured data and the HTML, from the written document. */
function articleAnswer(parts: AnswerParts, options: WriteArticleOptions): WrittenArticle {
  const { id, request, articlePlan, keywords, document, outline, planned, grounding } = parts;
  const slug = articleSlug(outline.title, articlePlan.primary, articlePlan.request.language);
  const { title, metaDescription } = outline;
  const report = articleReport({ request, articlePlan, keywords, title, metaDescription, slug, document, grounding });
  const created = Math.floor(Date.now() / 1000);
  const { wordCount, readingTimeMinutes } = report;
  const jsonLd = articleJsonLd({
    plan: articlePlan,
    outline,
    blocks: document.blocks,
    title,
    metaDescription,
    language: request.language,
    keywords,
    wordCount,
    readingTimeMinutes,
    created,
    cited: grounding.citedSources(),
    ...(request.seo.author ? { author: request.seo.author } : {}),
    ...(options.publisher ? { publisher: options.publisher } : {}),
  });
  const { html, page } = renderArticle(document.tree, { title, metaDescription, language: request.language, jsonLd });
  const article = {
    title,
    slug,
    metaDescription,
    language: request.language,
    keywords,
    markdown: document.markdown(),
    html,
    // The headings the article shows, or the planned sections when it shows none.
    outline: articlePlan.subheadings ? document.headings() : planned,
    wordCount,
    readingTimeMinutes,
    jsonLd,
  };
  const usage = { ...parts.usage, durationMs: Math.round(performance.now() - parts.started) };
  const response: ArticleResponse = {
    id,
    object: "article",
    created,
    model: options.backend.name,
    request,
    article,
    seo: seoAnswer(report),
    usage,
  };
  return { response, document: page };
}

/** What the report of a written article reads: the request, its plan and what the engine wrote. */
interface ReportInput {
  request: GenerateRequest;
  articlePlan: Plan;
  keywords: string[];
  title: string;
  metaDescription: string;
  slug: string;
  document: ArticleDocument;
  grounding: Grounding;
}

/** The SEO report of the written article, measured as analyse measures any article. */
function articleReport({ request, articlePlan, keywords, title, metaDescription, slug, document, grounding }: ReportInput) {
  return analyse({
    blocks: document.blocks,
    hasTitle: document.hasTitle,
    title,
    metaDescription,
    slug,
    keywords,
    ...substanceTargets(request, keywords),
    language: request.language,
    headingTags: request.seo.headingTags,
    preset: articlePlan.preset,
    targetLength: request.length,
    ...voiced(articlePlan.style),
    given: requestTexts(request),
    sources: request.sources ?? [],
    grounding: grounding.stats(),
    ...(request.outline ? { outline: request.outline } : {}),
  });
}

/**
 * What the on-topic check measures a written article against: the topic and a title the request
 * gave (the model chose its own title, so it says nothing), and the phrases code steered in (every
 * keyword and link anchor phrase), whose occurrences are not the article's own words.
 */
function substanceTargets(request: GenerateRequest, keywords: readonly string[]): { about: string[]; steered: string[] } {
  return {
    about: [request.topic, request.seo.title].filter((text): text is string => Boolean(text)),
    steered: [...keywords, ...(request.links ?? []).flatMap((link) => [link.title, ...link.keywords])],
  };
}
