/**
 * `batch --refresh DIR --only FILE`: the pages a refresh batch takes, from an audit's JSON
 * report (the pages its `decay` lists) or a plain file of paths, one a line (relative to the
 * folder, or to where the command runs). A path that names no Markdown page of the folder is
 * refused by its line, so a typo never refreshes nothing in silence.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { BatchError } from "./errors.js";

/** The names (relative to `dir`, with `/`) of the pages `file` lists; `names` are the folder's pages. */
export async function onlyPages(file: string, dir: string, names: ReadonlySet<string>): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new BatchError(`--only ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  const listed = text.trimStart().startsWith("{") ? reportPages(file, text) : plainPages(text);
  const only = new Set<string>();
  for (const { value, line } of listed) {
    const fromHere = path.relative(dir, path.resolve(value)).split(path.sep).join("/");
    const name = names.has(fromHere) ? fromHere : path.posix.normalize(value.split(path.sep).join("/"));
    if (!names.has(name)) throw new BatchError(`--only ${file}${line ? `:${line}` : ""}: ${value} is no Markdown page of ${dir}`);
    only.add(name);
  }
  return only;
}

/** The pages an audit report's `decay` lists. */
function reportPages(file: string, text: string): { value: string; line?: number }[] {
  let report: unknown;
  try {
    report = JSON.parse(text);
  } catch {
    throw new BatchError(`--only ${file}: not an audit report (JSON) nor a list of paths`);
  }
  const decay = (report as { decay?: unknown }).decay;
  if (!Array.isArray(decay))
    throw new BatchError(`--only ${file}: the report lists no decay; run inkpress audit DIR --search-console EXPORT --out ${file}`);
  return decay.map((page, i) => {
    const value = (page as { file?: unknown })?.file;
    if (typeof value !== "string") throw new BatchError(`--only ${file}: decay entry ${i + 1} names no file`);
    return { value };
  });
}

/** The paths of a plain list, one a line (blank lines and `#` comments skipped). */
function plainPages(text: string): { value: string; line: number }[] {
  return text.split(/\r?\n/u).flatMap((raw, i) => {
    const value = raw.trim();
    return value && !value.startsWith("#") ? [{ value, line: i + 1 }] : [];
  });
}
