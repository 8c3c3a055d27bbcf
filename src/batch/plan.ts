import { readRows } from "./input.js";
import { Manifest } from "./manifest.js";
import { parseRow, type BadRow, type BatchRow, type RowOptions } from "./row.js";

/** A batch before it runs: what is left to write, and what is not. */
export interface BatchPlan {
  /** Rows in the input, bad ones included. */
  total: number;
  /** Rows to write, in file order. */
  pending: BatchRow[];
  /** Rows an earlier run into the same folder already wrote. */
  skipped: number;
  /** Rows that cannot be written, in line order. */
  failed: BadRow[];
  /** Rows that repeat an earlier row's request, left out since they would only find its article: "same request as line N". */
  duplicates: BadRow[];
  manifest: Manifest;
}

/** Read and validate the input, and leave out the rows the folder's manifest says are done. */
export async function planBatch(input: string, dir: string, options: RowOptions = {}): Promise<BatchPlan> {
  const rows = await readRows(input);
  const manifest = await Manifest.open(dir);
  const plan: BatchPlan = { total: rows.length, pending: [], skipped: 0, failed: [], duplicates: [], manifest };
  const firstLine = new Map<string, number>();
  for (const read of rows) {
    const row = "error" in read ? read : parseRow(read.line, read.fields, options);
    if ("error" in row) {
      plan.failed.push(row);
      continue;
    }
    // A row's key is its identity: a second row with the same request would only find the first one's article.
    const first = firstLine.get(row.key);
    if (first !== undefined) {
      plan.duplicates.push({ line: row.line, error: `same request as line ${first}` });
      continue;
    }
    firstLine.set(row.key, row.line);
    if (manifest.isDone(row.key)) plan.skipped++;
    else plan.pending.push(row);
  }
  return plan;
}
