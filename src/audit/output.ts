/** The audit written to a file: the whole report as JSON, or a CSV row per page. */
import { writeFileAtomic } from "../atomic.js";
import path from "node:path";
import { stringify } from "csv-stringify/sync";
import type { AuditReport } from "./audit.js";
import { AuditError } from "./errors.js";

/** Columns of the CSV, one row per page; `failed` lists check ids separated by `;`, as lists are in batch CSV files. */
const COLUMNS = [
  "file",
  "url",
  "title",
  "keyword",
  "language",
  "wordCount",
  "score",
  "failed",
  "orphan",
  "nearDuplicateOf",
  "sharesKeywordWith",
  "brokenLinks",
] as const;

/** Write the report to `file`: `.json` holds everything, `.csv` a row per page (site-wide findings as columns). */
export async function writeAuditReport(report: AuditReport, file: string): Promise<void> {
  const extension = path.extname(file).toLowerCase();
  if (extension !== ".json" && extension !== ".csv") throw new AuditError(`--out must name a .json or .csv file, got ${file}`);
  const text = extension === ".json" ? `${JSON.stringify(report, null, 2)}\n` : csv(report);
  try {
    await writeFileAtomic(file, text, { userFile: true });
  } catch (error) {
    throw new AuditError(`cannot write ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, { cause: error });
  }
}

function csv(report: AuditReport): string {
  const orphans = new Set(report.orphans);
  const others = (groups: readonly { files: string[] }[], file: string) =>
    groups.flatMap((group) => (group.files.includes(file) ? group.files.filter((other) => other !== file) : [])).join(";");
  const rows = report.pages.map((page) => ({
    ...page,
    title: page.title ?? "",
    keyword: page.keyword ?? "",
    failed: page.failed.join(";"),
    orphan: orphans.has(page.file),
    nearDuplicateOf: others(report.nearDuplicates, page.file),
    sharesKeywordWith: others(report.cannibalised, page.file),
    brokenLinks: report.brokenLinks
      .filter((link) => link.file === page.file)
      .map((link) => link.url)
      .join(";"),
  }));
  return stringify(rows, { header: true, columns: [...COLUMNS], cast: { boolean: (value) => (value ? "yes" : "") } });
}
