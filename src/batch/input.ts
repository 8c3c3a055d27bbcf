import { readFile } from "node:fs/promises";
import path from "node:path";
import { csvRows } from "./csv.js";
import { BatchError } from "./errors.js";
import { jsonlRows } from "./jsonl.js";

/** One row as read from the input: its fields, or why it could not be read; `line` is where it starts (1-based). */
export type InputRow = { line: number; fields: Record<string, unknown> } | { line: number; error: string };

/** The rows of a `.csv` (header row first) or `.jsonl` file, in file order. */
export async function readRows(file: string): Promise<InputRow[]> {
  const extension = path.extname(file).toLowerCase();
  const parse = extension === ".csv" ? csvRows : extension === ".jsonl" || extension === ".ndjson" ? jsonlRows : undefined;
  if (!parse) throw new BatchError(`${file}: the input must be a .csv file (with a header row) or a .jsonl file`);
  let text;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new BatchError(`cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  return parse(text);
}
