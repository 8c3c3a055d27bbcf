import { writeArticle } from "../article/article.js";
import type { Backend } from "../model/backend.js";
import type { WriteRow } from "./run.js";

/** Rows written in this process, each on a sequence of the backend (a local model). */
export function localWriter(backend: Backend): WriteRow {
  return async (row, signal) => (await writeArticle(row.request, { backend, signal })).response;
}
