import { runPool } from "./pool.js";
import { writeArticleFiles, type Article } from "./output.js";
import type { BatchPlan } from "./plan.js";
import type { BadRow, BatchRow } from "./row.js";

/** The generate JSON answer for one row, from the local model or a server. */
export type WriteRow = (row: BatchRow, signal: AbortSignal) => Promise<Article & { article: { slug: string } }>;

/** How a batch runs its rows. */
export interface BatchOptions {
  /** Rows written at once. */
  concurrency: number;
  /** Writes one row's article. */
  write: WriteRow;
  /**
   * Stops the run: rows in flight are dropped, finished ones are kept.
   * @default none: the run tries every row
   */
  signal?: AbortSignal;
  /**
   * Keep each article's `# Title` line under the Markdown file's front matter.
   * @default false: the front matter's title alone, as site themes print it
   */
  h1?: boolean;
  /**
   * A row's two files are written (`file`: its Markdown).
   * @default none
   */
  onWritten?(row: BatchRow, file: string): void;
  /**
   * A row could not be written, and why.
   * @default none
   */
  onFailed?(row: BadRow): void;
}

/** What a batch run did, row by row. */
export interface BatchSummary {
  written: number;
  /** Rows an earlier run already wrote. */
  skipped: number;
  /** The plan's bad rows and the rows that failed to write, in line order. */
  failed: BadRow[];
  /** Rows left out as the same request as an earlier line (not failures). */
  duplicates: BadRow[];
  /** Whether `signal` stopped the run before every row was tried. */
  interrupted: boolean;
}

/**
 * Write the plan's pending rows, `concurrency` at a time, each recorded in the manifest as
 * soon as its files are complete. A row that fails is reported and the others go on; a
 * `BatchError` (a key the server refuses) stops them all, as every row would fail the same way.
 */
export async function runBatch(plan: BatchPlan, options: BatchOptions): Promise<BatchSummary> {
  const { manifest } = plan;
  const failed = [...plan.failed];
  let written = 0;
  await runPool(plan.pending, {
    concurrency: options.concurrency,
    ...(options.signal ? { signal: options.signal } : {}),
    work: async (row, signal) => {
      const response = await options.write(row, signal);
      // Once written, the article is kept even when the run is being stopped.
      const name = await manifest.claim(row.key, row.line, row.name ?? response.article.slug);
      const [markdown, json] = manifest.files(name) as [string, string];
      await writeArticleFiles([markdown, json], response, name, {
        request: row.request,
        h1: options.h1,
        ...(row.address ? { address: row.address } : {}),
      });
      await manifest.finish(row.key);
      written++;
      options.onWritten?.(row, markdown);
    },
    failed: (row, error) => {
      const bad = { line: row.line, error: error.message };
      failed.push(bad);
      options.onFailed?.(bad);
    },
  });
  failed.sort((a, b) => a.line - b.line);
  return { written, skipped: plan.skipped, failed, duplicates: plan.duplicates, interrupted: Boolean(options.signal?.aborted) };
}
