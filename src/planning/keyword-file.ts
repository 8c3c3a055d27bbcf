import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { InkpressError } from "../errors.js";
import type { PlanKeyword } from "./clusters.js";

/** A number as keyword tools write it ("1,300", "1300", ""), or undefined. */
const numberIn = (cell: string | undefined) => {
  const n = Number((cell ?? "").replace(/[,\s]/gu, ""));
  return cell?.trim() && Number.isFinite(n) ? n : undefined;
};

/**
 * The keywords of a CSV as keyword tools export it: a header row with a column whose name holds
 * "keyword", and, where present, one holding "volume" and one "difficulty" (or "KD").
 */
export async function readKeywordFile(file: string): Promise<PlanKeyword[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new InkpressError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { status: 400 });
  }
  const rows = parse(text, { bom: true, columns: true, skip_empty_lines: true, relax_column_count: true }) as Array<Record<string, string>>;
  const names = Object.keys(rows[0] ?? {});
  const column = (test: RegExp) => names.find((name) => test.test(name));
  const keyword = column(/keyword/iu);
  if (!keyword) throw new InkpressError(`${file}: the header row has no keyword column`, { status: 400 });
  const volume = column(/volume/iu);
  const difficulty = column(/difficulty|^kd$/iu);
  return rows.flatMap((row) => {
    const phrase = row[keyword]?.trim();
    if (!phrase) return [];
    const v = volume ? numberIn(row[volume]) : undefined;
    const d = difficulty ? numberIn(row[difficulty]) : undefined;
    return [{ keyword: phrase, ...(v === undefined ? {} : { volume: v }), ...(d === undefined ? {} : { difficulty: d }) }];
  });
}
