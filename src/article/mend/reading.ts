/**
 * Where a refresh reads its article (each reading: `existing/reading.ts`) and renders it once
 * at the end (`output/forms.ts`): a reading parses and measures the whole article, and a
 * refresh reads it again for every change it proposes, so a server does both on a worker
 * thread within the analyse limit ({@link RefreshTexts}); the CLI does them in its own thread.
 */
import { readForRefresh, type Reading, type ReadingInput } from "../existing/reading.js";
import { articleOf, type ArticleInput, type RefreshedForms } from "../output/forms.js";

/** Where a refresh reads and renders its article: here or on a worker thread; each rejects with the error naming `markdown` when the text cannot be read. */
export interface RefreshTexts {
  /** One reading of the article ({@link readForRefresh}). */
  read(input: ReadingInput): Promise<Reading>;
  /** The refreshed article in the answer's forms ({@link articleOf}). */
  article(input: ArticleInput): Promise<RefreshedForms>;
}

/** Read and render in this thread. */
export const textsHere: RefreshTexts = { read: async (input) => readForRefresh(input), article: async (input) => articleOf(input) };
