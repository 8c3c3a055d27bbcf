import { stat } from "node:fs/promises";
import type { CsvError } from "csv-parse";
import { parse } from "csv-parse/sync";
import * as v from "valibot";
import { LIMITS } from "../contract/request.js";
import { MOST_KEYWORDS, PlanKeywordSchema } from "../contract/site-plan.js";
import { InkpressError } from "../errors.js";
import { unreadable } from "../site/unreadable.js";
import { NotTextError, readTextFile } from "../text-file.js";
import type { PlanKeyword } from "./clusters.js";

/** Most characters one row may hold: a wide export's row is under a few thousand, and a keyword is at most 80. */
const MOST_ROW = 64 * 1024;

/** Largest keyword file read at all: {@link MOST_KEYWORDS} rows of {@link MOST_ROW} would not fit, but no export is so wide. */
const MOST_BYTES = 32 * 1024 * 1024;

/** A number as keyword tools write it ("1,300", "1300", ""), or undefined. */
const numberIn = (cell: string | undefined) => {
  const n = Number((cell ?? "").replace(/[,\s]/gu, ""));
  return cell?.trim() && Number.isFinite(n) ? n : undefined;
};

/** A refusal naming the file and the line, in one line. */
const refusal = (file: string, line: number, why: string) => new InkpressError(`${file}: line ${line}: ${why}`, { status: 400 });

/**
 * The keywords of a CSV as keyword tools export it: a header row with a column whose name holds
 * "keyword", and, where present, one holding "volume" and one "difficulty" (or "KD"). Read as
 * strictly as the API reads a plan: UTF-8 text without NUL bytes, each keyword cleaned and at
 * most 80 characters, at most {@link MOST_KEYWORDS} rows; the first row that breaks a rule
 * stops the plan, named by its line. A row of empty cells is skipped.
 */
export async function readKeywordFile(file: string): Promise<PlanKeyword[]> {
  const { names, records } = parseRecords(file, await keywordText(file));
  const column = (test: RegExp) => names.find((name) => test.test(name));
  const keyword = column(/keyword/iu);
  if (!keyword) throw new InkpressError(`${file}: the header row has no keyword column`, { status: 400 });
  const volume = column(/volume/iu);
  const difficulty = column(/difficulty|^kd$/iu);
  if (!records.length) throw new InkpressError(`${file}: no keywords after the header row`, { status: 400 });
  return records.map(({ record, info }, index) => {
    if (index === MOST_KEYWORDS)
      throw refusal(file, info.lines, `more than ${MOST_KEYWORDS} keywords, the most one plan takes; split the file`);
    const searches = volume ? numberIn(record[volume]) : undefined;
    const kd = difficulty ? numberIn(record[difficulty]) : undefined;
    const entry = {
      keyword: record[keyword] ?? "",
      ...(searches === undefined ? {} : { volume: searches }),
      ...(kd === undefined ? {} : { difficulty: kd }),
    };
    const result = v.safeParse(PlanKeywordSchema, entry);
    if (result.success) return result.output;
    // Each message names its field ("keyword must not be empty").
    throw refusal(file, info.lines, result.issues[0].message);
  });
}

/** The file's text, read by the strict text reader; a file too large, unreadable or not text is refused by name (and line). */
async function keywordText(file: string): Promise<string> {
  const cannotRead = (error: unknown) => new InkpressError(`cannot read ${file}: ${unreadable(error)}`, { status: 400, cause: error });
  const { size } = await stat(file).catch((error) => Promise.reject(cannotRead(error)));
  if (size > MOST_BYTES) {
    throw new InkpressError(`${file}: ${size} bytes; a keyword file is read up to ${MOST_BYTES} (${MOST_KEYWORDS} keywords)`, {
      status: 400,
    });
  }
  try {
    return (await readTextFile(file)).text;
  } catch (error) {
    if (!(error instanceof NotTextError)) throw cannotRead(error);
    throw error.line
      ? refusal(file, error.line, "a NUL byte; a keyword file is text")
      : new InkpressError(`${file}: ${error.message}`, { status: 400 });
  }
}

/** The CSV's column names and records after its header row, with where each ends; one past the most a plan takes is read, no more. */
function parseRecords(
  file: string,
  text: string,
): { names: string[]; records: Array<{ record: Record<string, string>; info: { lines: number } }> } {
  let names: string[] = [];
  try {
    const records = parse(text, {
      bom: true,
      columns: (header: string[]) => (names = header),
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      relax_column_count: true,
      info: true,
      to: MOST_KEYWORDS + 1,
      max_record_size: MOST_ROW,
    }) as Array<{ record: Record<string, string>; info: { lines: number } }>;
    return { names, records };
  } catch (error) {
    const { code, lines, message } = error as CsvError & { lines?: number };
    if (!lines) throw new InkpressError(`${file}: ${message}`, { status: 400 });
    const why =
      code === "CSV_MAX_RECORD_SIZE"
        ? `a row of over ${MOST_ROW} characters (a keyword holds at most ${LIMITS.keyword})`
        : message.replace(/^[\w ]+: /u, "").replace(/ (on|at) line \d+$/u, "");
    throw refusal(file, lines, why);
  }
}
