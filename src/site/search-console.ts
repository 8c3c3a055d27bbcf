/**
 * Search Console's Pages export, read: the comparison export (`Top pages`, then each of
 * Clicks, Impressions, CTR and Position for two periods, `Last 28 days Clicks` and
 * `Previous 28 days Clicks`, whatever the periods are called), or a single period's
 * (`Top pages, Clicks, Impressions, CTR, Position`). CTR as `4.08%`, positions as decimals,
 * figures with thousands separators. A file without a pages column, or with text where a
 * figure belongs, is refused by its name (and line).
 */
import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { InkpressError } from "../errors.js";

/** An export that cannot be read as Search Console's: its message names the file (and line). */
class SearchConsoleError extends InkpressError {
  constructor(message: string) {
    super(message, { status: 400 });
  }
}

/** One period's figures of a page. */
export interface PeriodFigures {
  clicks: number;
  impressions: number;
  /** Clicks over impressions, 0–1. */
  ctr: number;
  position: number;
}

/** A page of the export: its URL, and its figures now and (in a comparison export) before. */
export interface ExportRow {
  url: string;
  now: PeriodFigures;
  before?: PeriodFigures;
}

/** The figures of a period, by the name Search Console gives each column. */
const METRICS = ["clicks", "impressions", "ctr", "position"] as const;
/** Names of the column holding the page. */
const PAGE_COLUMN = /^(top pages|pages?|urls?|landing pages?)$/iu;

/** A CSV export's header and records; a file that cannot be read or parsed is refused by name. */
async function readTable(file: string): Promise<{ header: string[]; records: string[][] }> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new SearchConsoleError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let records: string[][];
  try {
    records = parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true, trim: true });
  } catch (error) {
    throw new SearchConsoleError(`${file}: not a CSV file (${(error as Error).message.split("\n")[0]})`);
  }
  return { header: records[0] ?? [], records: records.slice(1) };
}

/** A query a page ranks for, from an export of queries by page. */
export interface QueryRow {
  query: string;
  url: string;
  impressions: number;
  position: number;
}

/** Names of the column holding the query. */
const QUERY_COLUMN = /^(top queries|quer(y|ies)|search query)$/iu;

/**
 * Read an export of queries by page (Search Console's bulk data export or a Looker Studio table:
 * a query, a page, impressions and position): the Performance report's own Queries export holds
 * no page column, and is refused as such.
 */
export async function readQueriesExport(file: string): Promise<QueryRow[]> {
  const { header, records } = await readTable(file);
  const column = (pattern: RegExp, name: string) => {
    const i = header.findIndex((cell) => pattern.test(cell));
    if (i < 0) throw new SearchConsoleError(`${file}: no ${name} column; export queries by page, with their impressions and position`);
    return i;
  };
  const [query, page] = [column(QUERY_COLUMN, "query"), column(PAGE_COLUMN, "page")];
  const [impressions, position] = [column(/impressions$/iu, "impressions"), column(/position$/iu, "position")];
  return records.map((record, i) => ({
    query: record[query] ?? "",
    url: record[page] ?? "",
    impressions: figure(`${file}:${i + 2}`, header, record, impressions, "count"),
    position: figure(`${file}:${i + 2}`, header, record, position, "decimal"),
  }));
}

/** Read an export: one row a page, in its order. */
export async function readSearchConsole(file: string): Promise<ExportRow[]> {
  const { header, records } = await readTable(file);
  const page = header.findIndex((name) => PAGE_COLUMN.test(name));
  if (page < 0)
    throw new SearchConsoleError(`${file}: no pages column ("Top pages"); export the Pages table of Search Console's Performance report`);
  const columns = metricColumns(file, header);
  return records.map((record, i) => {
    const at = `${file}:${i + 2}`;
    const figures = (period: Record<(typeof METRICS)[number], number>): PeriodFigures => ({
      clicks: figure(at, header, record, period.clicks, "count"),
      impressions: figure(at, header, record, period.impressions, "count"),
      ctr: figure(at, header, record, period.ctr, "percent"),
      position: figure(at, header, record, period.position, "decimal"),
    });
    const url = record[page] ?? "";
    if (!url) throw new SearchConsoleError(`${at}: no page URL in "${header[page]}"`);
    return { url, now: figures(columns.now), ...(columns.before ? { before: figures(columns.before) } : {}) };
  });
}

/** Each metric's column for now and, in a comparison export, before. */
function metricColumns(file: string, header: readonly string[]) {
  const of = (metric: string) =>
    header.flatMap((name, i) => (name.toLowerCase() === metric || name.toLowerCase().endsWith(` ${metric}`) ? [i] : []));
  const found = METRICS.map((metric) => of(metric));
  const missing = METRICS.find((_, m) => found[m]!.length === 0);
  if (missing)
    throw new SearchConsoleError(`${file}: no ${missing === "ctr" ? "CTR" : missing} column; export the Pages table with every metric`);
  const period = (pick: (columns: number[]) => number) =>
    Object.fromEntries(METRICS.map((metric, m) => [metric, pick(found[m]!)])) as Record<(typeof METRICS)[number], number>;
  if (found.every((columns) => columns.length === 1)) return { now: period((c) => c[0]!) };
  if (!found.every((columns) => columns.length === 2))
    throw new SearchConsoleError(`${file}: a metric has more than two periods' columns; export one period, or a comparison of two`);
  // Search Console names the earlier period "Previous …" and lists the later one first.
  const earlier = (columns: number[]) => columns.find((i) => /^previous\b/iu.test(header[i]!)) ?? columns[1]!;
  return { now: period((c) => c.find((i) => i !== earlier(c))!), before: period(earlier) };
}

/** A cell's figure: a count (`1,234`), a percentage (`4.08%`, as 0.0408) or a decimal (`3.7`); anything else is refused. */
function figure(
  at: string,
  header: readonly string[],
  record: readonly string[],
  column: number,
  kind: "count" | "percent" | "decimal",
): number {
  const cell = record[column] ?? "";
  const bare = cell.replace(/[,\s\u00a0]/gu, "");
  const pattern = kind === "percent" ? /^\d+(?:\.\d+)?%?$/u : kind === "count" ? /^\d+$/u : /^\d+(?:\.\d+)?$/u;
  if (!pattern.test(bare)) throw new SearchConsoleError(`${at}: "${cell}" in "${header[column]}" is not a figure`);
  const value = Number(bare.replace("%", ""));
  // Rounded as the export rounds it: 4.88% is 0.0488, not 0.048799999999999996.
  return kind === "percent" && bare.endsWith("%") ? Math.round(value * 1e4) / 1e6 : value;
}
