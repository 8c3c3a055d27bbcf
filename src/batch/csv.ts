import { parse } from "csv-parse/sync";
import type { CsvError } from "csv-parse";
import { BatchError } from "./errors.js";
import { unknownField, type InputRow } from "./row.js";

/**
 * The rows of a CSV file whose first row names the columns. An empty cell is a field not
 * given; a record csv-parse cannot read (a wrong number of cells) is a bad row, not the end.
 */
export function csvRows(text: string): InputRow[] {
  const rows: InputRow[] = [];
  const records = parse(text, {
    bom: true,
    columns: (header: string[]) => {
      const names = header.map((name) => name.trim());
      const unknown = names.map(unknownField).filter(Boolean);
      if (unknown.length) throw new BatchError(`line 1: ${unknown.join("; ")}`);
      if (!names.includes("topic")) throw new BatchError("line 1: the header row has no topic column");
      return names;
    },
    skip_empty_lines: true,
    info: true,
    raw: true,
    skip_records_with_error: true,
    on_skip: (error: CsvError | undefined) => {
      // The message ends with the line number, which the report puts first.
      if (error) rows.push({ line: Number(error.lines), error: error.message.replace(/ (on|at) line \d+$/, "") });
    },
  }) as Array<{ record: Record<string, string>; info: { lines: number }; raw: string }>;
  for (const { record, info, raw } of records) {
    const fields = Object.fromEntries(Object.entries(record).filter(([, cell]) => cell.trim() !== ""));
    rows.push({ line: startLine(info.lines, raw), fields });
  }
  return rows.sort((a, b) => a.line - b.line);
}

/** csv-parse counts the line a record ends on; a quoted cell may span several, and skipped empty lines lead the raw text. */
function startLine(endLine: number, raw: string): number {
  const body = raw.replace(/^(\r?\n)+/, "").replace(/\r?\n$/, "");
  return endLine - (body.match(/\n/g)?.length ?? 0);
}
