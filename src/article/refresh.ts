/**
 * A refresh: an article given as it is, measured with analyse's code, then mended where its
 * checks fail and nowhere else. The model writes every word of a mend, steered as generate
 * steers it; code splits paragraphs at sentence boundaries, places link and citation markup
 * on words already written, and keeps a change only when the article scores no lower with it.
 */
import { randomUUID } from "node:crypto";
import { createTwoFilesPatch } from "diff";
import { AvoidList } from "./plan/avoid.js";
import type { CheckId } from "./report/analyse.js";
import type { Publisher } from "../contract/request.js";
import { resolveStyle, type Style } from "../contract/request.js";
import type { Backend } from "../model/backend.js";
import type { Mending } from "./mend/context.js";
import { linkGrounding, mendCitations, mendLinks } from "./mend/grounding.js";
import { mendParagraphs, mendRuns } from "./mend/structure.js";
import { mendBannedHeadings, mendBannedSentences, mendIntroduction, mendLength } from "./mend/text.js";
import { mendTitle, rewrittenFields } from "./mend/title.js";
import { unmended } from "./mend/unmended.js";
import { mirrorSections, refreshPlan } from "./mend/plan.js";
import type { RefreshRequest, RefreshResponse } from "../contract/refresh.js";
import { RefreshWriter } from "./mend/session.js";
import { textsHere, type RefreshTexts } from "./mend/reading.js";
import { RefreshState } from "./mend/state.js";
import { seoAnswer } from "./answer.js";

/** What a refresh needs besides the request. */
export interface RefreshOptions {
  backend: Backend;
  /**
   * Aborts the work (client gone, deadline passed).
   * @default none
   */
  signal?: AbortSignal;
  /**
   * The key's default style, under the request's own.
   * @default none
   */
  keyStyle?: Style;
  /**
   * The slug when neither the request nor the front matter gives one: a file's name.
   * @default none
   */
  fileSlug?: string;
  /**
   * Who publishes the article, for its structured data.
   * @default none
   */
  publisher?: Publisher;
  /**
   * Reads the article for each measure of it, and renders it at the end (on a server, a worker thread within the analyse limit).
   * @default this thread
   */
  texts?: RefreshTexts;
  /**
   * Tokens written so far, after every sentence.
   * @default none
   */
  onTokens?: (tokens: number) => void;
  /**
   * Words the model wrote so far, kept or not, after every sentence: what a refresh that never
   * ends (aborted, timed out, cancelled) is charged.
   * @default none
   */
  onWords?: (words: number) => void;
}

/** A refreshed article: the answer, and the full HTML page. */
export interface RefreshedArticle {
  response: RefreshResponse;
  document: string;
}

/** The mends in the order they run: text first, then links, citations, and the structure the text now has. */
const MENDS: ReadonlyArray<(m: Mending) => void | Promise<void>> = [mendBannedHeadings, mendBannedSentences, mendIntroduction, mendLength];

/** Measure an article, mend what fails, measure it again. */
export async function refreshArticle(request: RefreshRequest, options: RefreshOptions): Promise<RefreshedArticle> {
  const started = performance.now();
  // The style, resolved once: every measurement and the plan read it.
  const style = resolveStyle(request.style, options.keyStyle);
  const texts = options.texts ?? textsHere;
  const state = await RefreshState.open(request, { style, ...(options.fileSlug ? { fileSlug: options.fileSlug } : {}) }, texts);
  const keep = [...(state.report.keywords?.value ?? []), ...(request.links ?? []).flatMap((link) => link.keywords)];
  const avoid = new AvoidList({ style, language: state.language, keep });
  const rewritten = rewrittenFields(state, (text) => avoid.holds(text));
  const planned = refreshPlan(request, state.report, { style, rewritten });
  const writer = await RefreshWriter.open({
    backend: options.backend,
    plan: planned,
    avoid,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onTokens ? { onTokens: options.onTokens } : {}),
    ...(options.onWords ? { onWords: options.onWords } : {}),
  });
  let before: RefreshResponse["before"];
  try {
    const outline = await writer.outline();
    const { plan, title } = mirrorSections(planned, state.located);
    const m: Mending = { state, writer, plan, avoid, title };
    const links = linkGrounding(m);
    if (links) await state.wantLinks(links.wanted, links.leftOut);
    before = seoAnswer(state.report);
    await mendTitle(m, outline, rewritten);
    m.title = state.report.title?.value ?? m.title;
    for (const mend of MENDS) await mend(m);
    if (links) await mendLinks(m, linkGrounding(m)!.grounding);
    await mendCitations(m);
    await mendParagraphs(m);
    await mendRuns(m);
  } finally {
    await writer.dispose();
  }
  const failed = new Set<CheckId>(before.checks.filter((c) => c.passed === false).map((c) => c.id));
  const { article, document } = await texts.article({
    markdown: state.markdown,
    report: state.report,
    plan: planned,
    created: Math.floor(Date.now() / 1000),
    ...(options.publisher ? { publisher: options.publisher } : {}),
  });
  const response: RefreshResponse = {
    id: `ref_${randomUUID().replaceAll("-", "")}`,
    object: "refresh",
    created: Math.floor(Date.now() / 1000),
    model: options.backend.name,
    seed: request.seed,
    article,
    before,
    after: seoAnswer(state.report),
    changes: state.changes,
    unmended: unmended(state, failed),
    diff:
      state.markdown === request.markdown
        ? ""
        : createTwoFilesPatch("a/article.md", "b/article.md", request.markdown, state.markdown, undefined, undefined, { context: 3 }),
    wordsWritten: state.wordsWritten,
    usage: { ...writer.usage, durationMs: Math.round(performance.now() - started) },
  };
  return { response, document };
}
