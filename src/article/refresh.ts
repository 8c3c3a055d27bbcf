/**
 * A refresh: an article given as it is, measured with analyse's code, then mended where its
 * checks fail and nowhere else. The model writes every word of a mend, steered as generate
 * steers it; code splits paragraphs at sentence boundaries, places link and citation markup
 * on words already written, and keeps a change only when the article scores no lower with it.
 */
import { randomUUID } from "node:crypto";
import { createTwoFilesPatch } from "diff";
import type { CheckId } from "../contract/checks.js";
import type { RefreshRequest, RefreshResponse } from "../contract/refresh.js";
import { resolveStyle, type Publisher, type Style } from "../contract/request.js";
import type { Backend } from "../model/backend.js";
import { seoAnswer } from "./answer.js";
import { mendArticle, planRefresh, type RefreshPlan } from "./mend/mend.js";
import { textsHere, type RefreshTexts } from "./mend/reading.js";
import { RefreshWriter } from "./mend/session.js";
import { RefreshState } from "./mend/state.js";
import { unmended } from "./mend/unmended.js";

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

/** Measure an article, mend what fails, measure it again. */
export async function refreshArticle(request: RefreshRequest, options: RefreshOptions): Promise<RefreshedArticle> {
  const started = performance.now();
  // The style, resolved once: every measurement and the plan read it.
  const style = resolveStyle(request.style, options.keyStyle);
  const texts = options.texts ?? textsHere;
  const state = await RefreshState.open(request, { style, ...(options.fileSlug ? { fileSlug: options.fileSlug } : {}) }, texts);
  const planned = planRefresh(state, style);
  const { before, usage } = await mendOnWriter(state, planned, options);
  const failed = new Set<CheckId>(before.checks.filter((c) => c.passed === false).map((c) => c.id));
  const { article, document } = await texts.article({
    markdown: state.markdown,
    report: state.report,
    plan: planned.plan,
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
    usage: { ...usage, durationMs: Math.round(performance.now() - started) },
  };
  return { response, document };
}

/** The mends on one writer borrowed from the backend, given back when they end: the report they started from, and the writer's usage. */
async function mendOnWriter(state: RefreshState, planned: RefreshPlan, options: RefreshOptions) {
  await using writer = await RefreshWriter.open({
    backend: options.backend,
    plan: planned.plan,
    avoid: planned.avoid,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onTokens ? { onTokens: options.onTokens } : {}),
    ...(options.onWords ? { onWords: options.onWords } : {}),
  });
  return { before: seoAnswer(await mendArticle(state, writer, planned)), usage: writer.usage };
}
