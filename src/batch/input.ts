import { readFile } from "node:fs/promises";
import path from "node:path";
import { splitList } from "../contract/fields.js";
import { csvRows } from "./csv.js";
import { BatchError } from "./errors.js";
import { jsonlRows } from "./jsonl.js";
import { LinksFileError, readLinksFile } from "../site/links-file.js";
import { readOutlineFile } from "../planning/outline-file.js";
import type { InputRow } from "./row.js";
import { SourceFileError, readSourceFiles } from "../site/source-files.js";
import { unreadable } from "../site/unreadable.js";
import { voiceOfField } from "../voice/files.js";

/**
 * The rows of a `.csv` (header row first) or `.jsonl` file, in file order. A row's
 * `sources` given as text names files (`;`-separated, relative to the input file), read here,
 * as are the JSON file an `outline`, the links file a `links` and the voice file a `voice` given as text name.
 */
export async function readRows(file: string): Promise<InputRow[]> {
  const extension = path.extname(file).toLowerCase();
  const parse = extension === ".csv" ? csvRows : extension === ".jsonl" || extension === ".ndjson" ? jsonlRows : undefined;
  if (!parse) throw new BatchError(`${file}: the input must be a .csv file (with a header row) or a .jsonl file`);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new BatchError(`cannot read ${file}: ${unreadable(error)}`, { cause: error });
  }
  const base = path.dirname(file);
  return Promise.all(
    parse(text).map(async (row) =>
      withVoiceFile(await withLinksFile(await withOutlineFile(await withSourceFiles(row, base), base), base), base),
    ),
  );
}

/** The row with the voice file its `voice` cell names (ending in `.json`, relative to the input file) read into its profile; else a style note. */
async function withVoiceFile(row: InputRow, base: string): Promise<InputRow> {
  if ("error" in row || row.fields.voice === undefined) return row;
  return voiceOfField(row.fields.voice, base).then(
    (voice) => ({ line: row.line, fields: { ...row.fields, voice } }),
    (error: Error) => ({ line: row.line, error: `voice: ${error.message}` }),
  );
}

/** The row with the edited outline its `outline` cell names (a JSON file, relative to the input file) read; a file that cannot be read is the row's error. */
async function withOutlineFile(row: InputRow, base: string): Promise<InputRow> {
  if ("error" in row || typeof row.fields.outline !== "string") return row;
  try {
    return { line: row.line, fields: { ...row.fields, outline: await readOutlineFile(row.fields.outline, base) } };
  } catch (error) {
    return { line: row.line, error: `outline: ${(error as Error).message}` };
  }
}

/**
 * The row with the pages its `links` cell names read (a links file, relative to the input file, as `--links` reads one); a file that cannot
 * be read is the row's error.
 */
async function withLinksFile(row: InputRow, base: string): Promise<InputRow> {
  if ("error" in row || typeof row.fields.links !== "string") return row;
  try {
    return { line: row.line, fields: { ...row.fields, links: await readLinksFile(path.resolve(base, row.fields.links)) } };
  } catch (error) {
    if (error instanceof LinksFileError) return { line: row.line, error: `links: ${error.message}` };
    throw error;
  }
}

/** The row with the files its `sources` cell names read as sources; a file that cannot be read is the row's error. */
async function withSourceFiles(row: InputRow, base: string): Promise<InputRow> {
  if ("error" in row || typeof row.fields.sources !== "string") return row;
  try {
    return { line: row.line, fields: { ...row.fields, sources: await readSourceFiles({ paths: splitList(row.fields.sources), base }) } };
  } catch (error) {
    if (error instanceof SourceFileError) return { line: row.line, error: `sources: ${error.message}` };
    throw error;
  }
}
