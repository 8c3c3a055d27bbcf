/**
 * A site audit: every Markdown and HTML page under a folder analysed as `inkpress analyse`
 * analyses one (its front matter giving its targets), then what only the whole site shows:
 * the failures most pages share, pages that compete for one primary keyword, near-duplicate
 * pages, orphan pages no other page links to, and links within the site that reach no page.
 */
import os from "node:os";
import path from "node:path";
import { type CheckId, CHECK_LABELS } from "../contract/checks.js";
import type { RequestField } from "../contract/fields.js";
import { readSetting } from "../settings.js";
import { readLinksFile } from "../site/links-file.js";
import { pageFiles } from "../site/pages.js";
import type { MeasuredPage } from "./page.js";
import { measurePages } from "./pool.js";
import { NEAR_DUPLICATE, nearDuplicates } from "./similarity.js";
import { DECAY, type DecayedPage, type DecayThresholds, decayedPages } from "./decay.js";
import type { ExportRow } from "../site/search-console.js";
import { type BrokenLink, brokenLinks, inboundLinks, normaliseBasePath, pageAddress, pageFinder } from "../site/addresses.js";

/** Most worker threads an audit starts by default. */
export const MAX_JOBS = 8;

/** One page's row of the audit: where it is, and what was measured. */
export interface PageRow extends Pick<MeasuredPage, "title" | "keyword" | "language" | "wordCount" | "score" | "failed"> {
  /** The file, relative to the folder, with `/` separators. */
  file: string;
  /** The address it is published at. */
  url: string;
}

/** The whole audit. */
export interface AuditReport {
  pages: PageRow[];
  /** Files that could not be analysed, with why. */
  unreadable: { file: string; error: string }[];
  /** Each failing check with the number of pages that fail it, most frequent first. */
  failures: { check: CheckId; label: string; pages: number }[];
  /** Primary keywords that more than one page targets, with those pages' files. */
  cannibalised: { keyword: string; files: string[] }[];
  /** Groups of near-duplicate pages (Jaccard similarity of word shingles at least `threshold`). */
  nearDuplicates: { files: string[]; similarity: number }[];
  threshold: number;
  /** Pages no other page links to (the home page `/` is not counted). */
  orphans: string[];
  /** Links within the site that reach no page of the folder, with the linking page and line. */
  brokenLinks: BrokenLink[];
  /** With Search Console's figures: the pages whose clicks fell, most clicks lost first. */
  decay?: DecayedPage[];
  /** With Search Console's figures: the files read, the thresholds, and the URLs that match no page. */
  searchConsole?: { export: string; previous: string | null; unmatched: string[] } & DecayThresholds;
}

/** Search Console's figures for the audit, read ({@link readSearchConsole}). */
export interface SearchConsoleFigures {
  /** The export's file, and its rows. */
  file: string;
  rows: readonly ExportRow[];
  /** The earlier period's export, for two single-period ones. @default none: the export compares two periods */
  previous?: { file: string; rows: readonly ExportRow[] };
  /** @default {@link DECAY} */
  thresholds?: DecayThresholds;
}

/** How a folder is audited. */
export interface AuditOptions {
  /**
   * A sitemap (or links file) of the site: full URLs on its hosts count as links within the site.
   * @default none: a full URL counts when its path is a page's address
   */
  links?: string;
  /**
   * The path the folder is served under (`/posts/` for Hugo's `content/posts`): a page's address
   * is it and the page's path, unless its front matter gives its own `url` or `permalink`.
   * @default "/"
   */
  basePath?: string;
  /**
   * The front matter field that holds each page's keywords.
   * @default "keywords"
   */
  keywordsField?: string;
  /**
   * Targets for every page as flat request fields (`avoid`, `language`, `length`, …), over each page's own.
   * @default {}
   */
  fields?: Partial<Record<RequestField, unknown>>;
  /**
   * Near-duplicate threshold (Jaccard similarity of word shingles).
   * @default {@link NEAR_DUPLICATE}
   */
  threshold?: number;
  /** The pages found, before any is analysed. @default none */
  onStart?: (total: number) => void;
  /**
   * Pages measured at once (worker threads).
   * @default the cores, at most {@link MAX_JOBS}
   */
  jobs?: number;
  /**
   * Milliseconds one page may take to analyse; a page past it is listed with those that could not be read.
   * @default the analyse limit (INKPRESS_ANALYSE_TIMEOUT_S)
   */
  pageTimeoutMs?: number;
  /**
   * Stops the audit: pages being analysed are abandoned and the call rejects.
   * @default none
   */
  signal?: AbortSignal;
  /** Search Console's figures: the report then lists the decaying pages. @default none */
  searchConsole?: SearchConsoleFigures;
  /** A page analysed. @default none */
  onPage?: (file: string) => void;
  /** A page that could not be analysed. @default none */
  onUnreadable?: (file: string, error: string) => void;
}

/** Audit every page under a folder. */
export async function auditFolder(dir: string, options: AuditOptions = {}): Promise<AuditReport> {
  const files = await pageFiles(dir);
  const hosts = options.links
    ? new Set(
        (await readLinksFile(options.links)).flatMap((link) => (URL.canParse(link.url) ? [new URL(link.url).host.toLowerCase()] : [])),
      )
    : new Set<string>();
  const relative = files.map((file) => path.relative(dir, file).split(path.sep).join("/"));
  const basePath = normaliseBasePath(options.basePath ?? "/");
  options.onStart?.(files.length);
  const results = await measurePages(files, {
    jobs: options.jobs ?? Math.min(os.availableParallelism(), MAX_JOBS),
    timeoutMs: options.pageTimeoutMs ?? readSetting("analyseTimeout") * 1000,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.keywordsField ? { keywordsField: options.keywordsField } : {}),
    ...(options.fields ? { fields: options.fields } : {}),
    onResult: (i, result) => ("page" in result ? options.onPage?.(relative[i]!) : options.onUnreadable?.(relative[i]!, result.error)),
  });
  const measured = results.flatMap((result, i) => ("page" in result ? [{ file: relative[i]!, ...result.page }] : []));
  const rows: PageRow[] = measured.map(({ file, fields, title, keyword, language, wordCount, score, failed }) => ({
    file,
    url: pageAddress({ file, fields }, basePath),
    title,
    keyword,
    language,
    wordCount,
    score,
    failed,
  }));
  const threshold = options.threshold ?? NEAR_DUPLICATE;
  const inbound = inboundLinks(measured, { hosts, basePath });
  return {
    pages: rows,
    unreadable: results.flatMap((result, i) => ("error" in result ? [{ file: relative[i]!, error: result.error }] : [])),
    failures: failureCounts(rows),
    cannibalised: cannibalised(rows),
    nearDuplicates: nearDuplicates(
      measured.map((page) => page.shingles),
      threshold,
    ).map((group) => ({ files: group.pages.map((i) => rows[i]!.file), similarity: group.similarity })),
    threshold,
    orphans: rows.filter((row, i) => inbound[i] === 0 && row.url !== "/").map((row) => row.file),
    brokenLinks: brokenLinks(measured, { hosts, basePath }),
    ...(options.searchConsole ? searchConsoleFindings(options.searchConsole, rows, basePath) : {}),
  };
}

/** The decay findings of Search Console's figures over the audited pages. */
function searchConsoleFindings(figures: SearchConsoleFigures, rows: readonly PageRow[], basePath: string): Partial<AuditReport> {
  const find = pageFinder(
    rows.map((row) => ({ file: row.file, fields: { url: row.url } })),
    basePath,
  );
  const thresholds = figures.thresholds ?? DECAY;
  const { decay, unmatched } = decayedPages(figures.rows, (pathname) => rows[find(pathname) ?? -1]?.file, {
    ...(figures.previous ? { previous: figures.previous.rows } : {}),
    thresholds,
  });
  return { decay, searchConsole: { export: figures.file, previous: figures.previous?.file ?? null, unmatched, ...thresholds } };
}

function failureCounts(rows: readonly PageRow[]): AuditReport["failures"] {
  const counts = new Map<CheckId, number>();
  for (const row of rows) for (const check of row.failed) counts.set(check, (counts.get(check) ?? 0) + 1);
  return [...counts].map(([check, pages]) => ({ check, label: CHECK_LABELS[check], pages })).sort((a, b) => b.pages - a.pages);
}

function cannibalised(rows: readonly PageRow[]): AuditReport["cannibalised"] {
  const byKeyword = new Map<string, string[]>();
  for (const row of rows) if (row.keyword) byKeyword.set(row.keyword, [...(byKeyword.get(row.keyword) ?? []), row.file]);
  return [...byKeyword].filter(([, files]) => files.length > 1).map(([keyword, files]) => ({ keyword, files }));
}
