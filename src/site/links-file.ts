import { readFile } from "node:fs/promises";
import path from "node:path";
import { parse as parseCsv } from "csv-parse/sync";
import { XMLParser } from "fast-xml-parser";
import * as v from "valibot";
import { fieldPath } from "../contract/fields.js";
import { LinkSchema, type Link } from "../contract/request.js";
import { capitalise } from "../article/index.js";
import { InkpressError } from "../errors.js";
import { unreadable } from "./unreadable.js";

/** A links file that cannot be read or holds a bad entry: its message names the file, and the entry. */
export class LinksFileError extends InkpressError {}

/** One page as a links file gives it, and where (for errors). */
interface Entry {
  where: string;
  fields: Record<string, unknown>;
}

/**
 * The link set of `inkpress batch --links FILE`: a sitemap (`.xml`: each `<url>`'s `<loc>`,
 * titled by its `<news:title>` or else by the last segment of its path), or a `.csv` (a
 * header row naming `url`, `title` and optionally `keywords`, comma-separated in one cell)
 * or `.jsonl` file of `{ url, title, keywords? }`. Each page is validated like a request's
 * `links` entry; a bad one stops the batch, naming it.
 */
export async function readLinksFile(file: string): Promise<Link[]> {
  const extension = path.extname(file).toLowerCase();
  const parse =
    extension === ".xml"
      ? sitemapEntries
      : extension === ".csv"
        ? csvEntries
        : extension === ".jsonl" || extension === ".ndjson"
          ? jsonlEntries
          : undefined;
  if (!parse)
    throw new LinksFileError(`${file}: the links file must be a sitemap (.xml), a .csv file (url,title,keywords) or a .jsonl file`);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    throw new LinksFileError(`cannot read ${file}: ${unreadable(error)}`, { cause: error });
  }
  const links: Link[] = [];
  for (const { where, fields } of parse(text, file)) {
    const result = v.safeParse(LinkSchema, pageFields(fields));
    if (!result.success) {
      const issue = result.issues[0];
      throw new LinksFileError(`${file}: ${where}: ${fieldPath(issue.path?.map((p) => p.key) ?? []) ?? "entry"}: ${issue.message}`);
    }
    links.push(result.output);
  }
  if (!links.length) throw new LinksFileError(`${file}: no pages in the links file`);
  return links;
}

/** A page's own fields of an entry: a CSV export or a JSONL file may carry others (`lastmod`), which say nothing to a link. */
function pageFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => Object.hasOwn(LinkSchema.pipe[1].entries, name)));
}

/** A page's title from its address: the last path segment in words ("/blog/rain-barrels.html" → "Rain barrels"), or the host for the home page. */
export function titleFromUrl(url: string): string {
  const parsed = new URL(url, "https://site.invalid");
  const segment = parsed.pathname.split("/").filter(Boolean).at(-1);
  if (!segment) return parsed.host;
  let words = segment;
  try {
    words = decodeURIComponent(segment);
  } catch {
    // A malformed escape: the segment as written.
  }
  words = words
    .replace(/\.(html?|php|aspx?|jsp)$/i, "")
    .replace(/[-_+.]+/g, " ")
    .trim();
  return words ? capitalise(words, "en") : parsed.host;
}

function sitemapEntries(text: string, file: string): Entry[] {
  let xml: Record<string, unknown>;
  try {
    xml = new XMLParser({ removeNSPrefix: true, parseTagValue: false, isArray: (name) => name === "url" }).parse(text, true);
  } catch (error) {
    throw new LinksFileError(`${file}: not a valid sitemap: ${(error as Error).message.split("\n")[0]}`, { cause: error });
  }
  if (xml.sitemapindex) throw new LinksFileError(`${file}: a sitemap index; give one of the sitemaps it lists`);
  const urls = (xml.urlset as { url?: unknown[] } | undefined)?.url;
  if (!Array.isArray(urls)) throw new LinksFileError(`${file}: not a sitemap (no <urlset> of <url> entries)`);
  return urls.map((entry, i) => {
    const { loc, news } = (entry ?? {}) as { loc?: unknown; news?: { title?: unknown } };
    const url = typeof loc === "string" ? loc.trim() : loc;
    const title =
      typeof news?.title === "string" && news.title.trim()
        ? news.title
        : typeof url === "string" && URL.canParse(url)
          ? titleFromUrl(url)
          : "";
    return { where: `<url> ${i + 1}`, fields: { url, title } };
  });
}

function csvEntries(text: string, file: string): Entry[] {
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parseCsv(text, {
      bom: true,
      columns: (header: string[]) => header.map((name) => name.trim()),
      skip_empty_lines: true,
      info: true,
    });
  } catch (error) {
    throw new LinksFileError(`${file}: ${(error as Error).message}`, { cause: error });
  }
  return records.map(({ record, info }) => ({
    where: `line ${info.lines}`,
    fields: Object.fromEntries(Object.entries(record).filter(([, cell]) => cell.trim() !== "")),
  }));
}

function jsonlEntries(text: string, file: string): Entry[] {
  const entries: Entry[] = [];
  for (const [index, line] of text
    .replace(/^\uFEFF/, "")
    .split("\n")
    .entries()) {
    if (line.trim() === "") continue;
    const where = `line ${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new LinksFileError(`${file}: ${where}: not valid JSON: ${(error as Error).message}`, { cause: error });
    }
    entries.push({ where, fields: value as Record<string, unknown> });
  }
  return entries;
}
