/**
 * Every parse of a client's text off the event loop: analysing an article, reading one to
 * refresh (before it is admitted, and each time the refresh measures it), a generate or outline
 * request's sources, and an article to publish cost time that
 * grows with what a client sends, so the server hands them to worker threads with a time
 * limit (the analyse limit), taking turns between keys, and the text's field is refused (a
 * 422 naming it) when its reading runs past the limit.
 */
import type { analyseExisting, RefreshTexts } from "./article/index.js";
import type { AnalyseRequest, AnalysisResponse } from "./contract/analyse.js";
import type { VoiceRequest, VoiceResponse } from "./contract/voice.js";
import { InvalidFieldError } from "./errors.js";
import type { ArticleFields } from "./publish/post.js";
import { TimeLimitError, WorkerPool } from "./worker-pool.js";

/** How the engine analyses an article (the key's style, the file's slug…), as a task carries it to a worker. */
type AnalyseOptions = NonNullable<Parameters<typeof analyseExisting>[1]>;

/** A text to read, and the request field it came from (`markdown`, `sources[2].text`). */
export interface FieldText {
  text: string;
  field: string;
}

/** A request's sources as texts to read, each named by its field (`sources[0].text`). */
export const sourceTexts = (sources: ReadonlyArray<{ text: string }> | undefined): FieldText[] =>
  (sources ?? []).map(({ text }, i) => ({ text, field: `sources[${i}].text` }));

/** One task a worker runs: an analysis, a Markdown text read as the engine will read it, or an article made ready to publish. */
export type TextTask =
  | { kind: "analyse"; request: AnalyseRequest; options: AnalyseOptions }
  | ({ kind: "read" } & FieldText)
  | { kind: "publication"; markdown: string; target: string }
  | { kind: "refresh-reading"; input: Parameters<RefreshTexts["read"]>[0] }
  | { kind: "refreshed-article"; input: Parameters<RefreshTexts["article"]>[0] }
  | { kind: "voice"; request: VoiceRequest };

/** An article of a Markdown file, its body's HTML rendered, and the post id its front matter records. */
export interface Publication {
  article: ArticleFields & { renderedBody: string };
  recordedId?: string;
}

/** Worker threads that read clients' text, each task within a time limit, keys taking turns. */
export class TextPool {
  private readonly pool: WorkerPool<TextTask, unknown>;

  /** Up to `size` workers, started as tasks come; a task may take `timeoutMs`. */
  constructor(options: { size: number; timeoutMs: number }) {
    this.pool = new WorkerPool(new URL("./text-worker.js", import.meta.url), options);
  }

  /** The report of an article given as it is, for `owner` (the API key); past the limit, a 422 naming its field. */
  analyse(task: { request: AnalyseRequest; options: AnalyseOptions }, owner: string): Promise<AnalysisResponse> {
    const field = task.request.markdown === undefined ? "html" : "markdown";
    return this.run({ kind: "analyse", ...task }, owner, field, "analysed") as Promise<AnalysisResponse>;
  }

  /** Read each Markdown text as the engine will (parse and front matter): a text that cannot be read, or not within the limit, is a 422 naming its field. */
  async read(texts: readonly FieldText[], owner: string): Promise<void> {
    await Promise.all(texts.map(({ text, field }) => this.run({ kind: "read", text, field }, owner, field, "read")));
  }

  /** The article of a Markdown file to publish, its HTML rendered; past the limit, a 422 naming `markdown`. */
  publication(markdown: string, target: string, owner: string): Promise<Publication> {
    return this.run({ kind: "publication", markdown, target }, owner, "markdown", "read") as Promise<Publication>;
  }

  /** Where a refresh for `owner` reads its article (each time it measures it) and renders it; past the limit, a 422 naming `markdown`. */
  refreshTexts(owner: string): RefreshTexts {
    return {
      read: (input) => this.run({ kind: "refresh-reading", input }, owner, "markdown", "read") as ReturnType<RefreshTexts["read"]>,
      article: (input) => this.run({ kind: "refreshed-article", input }, owner, "markdown", "read") as ReturnType<RefreshTexts["article"]>,
    };
  }

  /** A house voice learnt from example articles; past the limit, a 422 naming `articles`. */
  voice(request: VoiceRequest, owner: string): Promise<VoiceResponse> {
    return this.run({ kind: "voice", request }, owner, "articles", "read") as Promise<VoiceResponse>;
  }

  /** Refuse new tasks, give running ones up to `graceMs`, then stop the workers. */
  close(graceMs = 0): Promise<void> {
    return this.pool.close(graceMs);
  }

  private async run(task: TextTask, owner: string, field: string, verb: string): Promise<unknown> {
    try {
      return await this.pool.run(task, owner);
    } catch (error) {
      if (!(error instanceof TimeLimitError)) throw error;
      const what = field === "markdown" || field === "html" ? "article" : "text";
      const problem = `could not be ${verb} within ${error.limitMs / 1000} s; send a shorter or simpler ${what}`;
      throw new InvalidFieldError(field, problem, `${field}: ${problem}`);
    }
  }
}
