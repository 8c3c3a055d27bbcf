import { defineCommand } from "citty";
import { splitList } from "../contract/fields.js";
import { MAX_JOBS, auditFolder, type AuditReport, type SearchConsoleFigures } from "../audit/audit.js";
import { writeAuditReport } from "../audit/output.js";
import { DECAY } from "../audit/decay.js";
import { readSearchConsole } from "../site/search-console.js";
import { NEAR_DUPLICATE } from "../audit/similarity.js";
import { readSetting, settingArgs } from "../settings.js";
import { AuditProgress } from "./audit-progress.js";
import { UsageError, fail } from "./fail.js";
import { interruption } from "./interrupt.js";
import { repeatedFlag } from "./repeated.js";

/** `inkpress audit`: every Markdown and HTML page of a folder, and what only the whole site shows. */
export const auditCommand = defineCommand({
  meta: {
    name: "audit",
    description:
      "Check every Markdown and HTML page under a folder: scores, common failures, pages on one keyword, near-duplicates, orphans, broken links",
  },
  args: {
    dir: { type: "positional", required: true, description: "A content folder (Hugo, Astro, Jekyll, Eleventy) or a saved site" },
    out: { type: "string", alias: "o", description: "Write the report to a file: report.json (everything) or report.csv (a row per page)" },
    links: {
      type: "string",
      description: "The site's sitemap.xml (or a links file): full URLs on its hosts count as links within the site",
    },
    "base-path": {
      type: "string",
      default: "/",
      description: "The path the folder is served under (/posts/ for Hugo's content/posts), for pages without a front matter url",
    },
    "keywords-from": { type: "string", default: "keywords", description: "The front matter field that holds each page's keywords" },
    avoid: { type: "string", description: "A phrase no page may hold; repeat the flag, or separate phrases with ;" },
    language: { type: "string", description: "ISO 639-1 code every page should be in (else each page's front matter, or detected)" },
    threshold: {
      type: "string",
      default: String(NEAR_DUPLICATE),
      description: "Similarity (0-1, Jaccard of 5-word shingles) from which two pages are near-duplicates",
    },
    "search-console": {
      type: "string",
      description:
        "Search Console's Pages export (CSV, comparing two periods, or one period with --previous): list the pages whose clicks fell",
    },
    previous: { type: "string", description: "With --search-console of one period: the earlier period's Pages export" },
    "decay-drop": { type: "string", default: String(DECAY.minDrop * 100), description: "Percent of its clicks a page must lose to decay" },
    "decay-min-clicks": { type: "string", default: String(DECAY.minClicks), description: "Clicks a page must have had before to decay" },
    jobs: { type: "string", description: `Pages analysed at once, on worker threads (default: the cores, at most ${MAX_JOBS})` },
    ...settingArgs("analyseTimeout", "shutdownGrace"),
  },
  async run({ args, rawArgs }) {
    try {
      const threshold = Number(args.threshold);
      if (!(threshold > 0 && threshold <= 1))
        throw new UsageError(`threshold must be a number above 0 and at most 1, got "${args.threshold}"`);
      const jobs = args.jobs === undefined ? undefined : Number(args.jobs);
      if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1 && jobs <= 64))
        throw new UsageError(`jobs must be a whole number from 1 to 64, got "${args.jobs}"`);
      const searchConsole = await searchConsoleFigures(args);
      const avoid = repeatedFlag(rawArgs, "avoid").flatMap(splitList);
      const pageTimeoutMs = readSetting("analyseTimeout", { flags: args }) * 1000;
      const stop = interruption(readSetting("shutdownGrace", { flags: args }));
      const progress = new AuditProgress();
      let report: AuditReport;
      try {
        report = await auditFolder(args.dir, {
          pageTimeoutMs,
          signal: stop.signal,
          ...(args.links ? { links: args.links } : {}),
          keywordsField: args["keywords-from"],
          basePath: args["base-path"],
          fields: { avoid: avoid.length ? avoid : undefined, language: args.language },
          threshold,
          ...(searchConsole ? { searchConsole } : {}),
          ...(jobs ? { jobs } : {}),
          onStart: (total) => progress.start(total),
          onPage: (file) => progress.page(file),
          onUnreadable: (_file, error) => progress.unreadable(error),
        });
      } catch (error) {
        if (!stop.signal.aborted) throw error;
        progress.stop();
        process.stderr.write("inkpress: audit interrupted; nothing was written\n");
        process.exitCode = 130;
        return;
      } finally {
        progress.stop();
        stop.dispose();
      }
      if (args.out) await writeAuditReport(report, args.out);
      process.stdout.write(summaryText(report, args.out));
      process.exitCode = report.unreadable.length ? 1 : 0;
    } catch (error) {
      fail(error);
    }
  },
});

/** The Search Console flags read: the exports (refused in one line naming the file) and the thresholds. */
async function searchConsoleFigures(args: Record<string, unknown>): Promise<SearchConsoleFigures | undefined> {
  const file = args["search-console"] as string | undefined;
  const previous = args.previous as string | undefined;
  if (file === undefined) {
    if (previous !== undefined) throw new UsageError("--previous is for --search-console: the later period's export");
    return undefined;
  }
  const drop = Number(args["decay-drop"]);
  if (!(drop > 0 && drop <= 100))
    throw new UsageError(`decay-drop must be a percentage above 0 and at most 100, got "${args["decay-drop"]}"`);
  const minClicks = Number(args["decay-min-clicks"]);
  if (!(Number.isInteger(minClicks) && minClicks >= 1))
    throw new UsageError(`decay-min-clicks must be a whole number from 1, got "${args["decay-min-clicks"]}"`);
  const rows = await readSearchConsole(file);
  const compares = rows.some((row) => row.before);
  if (compares && previous) throw new UsageError(`${file} already compares two periods; --previous is for a single period's export`);
  if (!compares && !previous && rows.length)
    throw new UsageError(`${file} holds one period; give the earlier period's export with --previous, or export a comparison`);
  const earlier = previous ? { file: previous, rows: await readSearchConsole(previous) } : undefined;
  if (earlier?.rows.some((row) => row.before)) throw new UsageError(`--previous ${previous} must be a single period's export`);
  return { file, rows, ...(earlier ? { previous: earlier } : {}), thresholds: { minClicks, minDrop: drop / 100 } };
}

/** The most frequent failures shown. */
const TOP_FAILURES = 10;
/** The lowest-scoring pages shown. */
const LOWEST = 10;

/** The audit in a few lines: counts, the most frequent failures, keyword overlaps, near-duplicates, orphans, broken links, the lowest scores. */
export function summaryText(report: AuditReport, out?: string): string {
  const { pages } = report;
  const mean = pages.length ? Math.round(pages.reduce((total, page) => total + page.score, 0) / pages.length) : 0;
  const section = (title: string, lines: string[]) => (lines.length ? ["", title, ...lines.map((line) => `  ${line}`)] : []);
  const lines = [
    `${pages.length} page${pages.length === 1 ? "" : "s"} analysed, mean score ${mean}/100${
      report.unreadable.length ? `; ${report.unreadable.length} could not be read` : ""
    }`,
    ...section(
      "Most frequent failures:",
      report.failures.slice(0, TOP_FAILURES).map((f) => `${String(f.pages).padStart(5)}  ${f.label} (${f.check})`),
    ),
    ...section(
      "Pages on the same primary keyword:",
      report.cannibalised.map((c) => `“${c.keyword}”: ${c.files.join(", ")}`),
    ),
    ...section(
      `Near-duplicate pages (similarity ≥ ${report.threshold}):`,
      report.nearDuplicates.map((d) => `${d.similarity.toFixed(2)}  ${d.files.join(", ")}`),
    ),
    ...section("Orphan pages (no other page links to them):", report.orphans),
    ...section(
      "Broken links (within the site, reaching no page of the folder):",
      report.brokenLinks.map((link) => `${link.file}${link.line ? `:${link.line}` : ""}  ${link.url}`),
    ),
    ...decaySection(report),
    ...section(
      "Lowest scores:",
      [...pages]
        .sort((a, b) => a.score - b.score)
        .slice(0, LOWEST)
        .map((p) => `${String(p.score).padStart(3)}  ${p.file}`),
    ),
    ...section(
      "Could not be read:",
      report.unreadable.map((u) => u.error),
    ),
    ...(out ? ["", `The full report is in ${out}.`] : []),
  ];
  return `${lines.join("\n")}\n`;
}

/** The decaying pages as a table (clicks, position, CTR before and now), and the export's URLs that match no page. */
function decaySection(report: AuditReport): string[] {
  const sc = report.searchConsole;
  if (!sc || !report.decay) return [];
  const percent = (ctr: number) => `${(ctr * 100).toFixed(1)}%`;
  const rows = report.decay.map((d) => [
    `${d.clicks.before} → ${d.clicks.now}`,
    `-${Math.round((100 * (d.clicks.before - d.clicks.now)) / d.clicks.before)}%`,
    `${d.position.before.toFixed(1)} → ${d.position.now.toFixed(1)}`,
    `${percent(d.ctr.before)} → ${percent(d.ctr.now)}`,
    d.file,
  ]);
  const table = [["clicks", "change", "position", "CTR", "page"], ...rows];
  const widths = table[0]!.map((_, c) => Math.max(...table.map((row) => row[c]!.length)));
  const lines = table.map((row) => row.map((cell, c) => (c < row.length - 1 ? cell.padEnd(widths[c]!) : cell)).join("  "));
  const title = `Decaying pages (clicks down at least ${Math.round(sc.minDrop * 100)}% from at least ${sc.minClicks}), most clicks lost first:`;
  return [
    ...(rows.length
      ? ["", title, `  ${lines[0]}`, ...lines.slice(1).flatMap((line, i) => [`  ${line}`, `      ${report.decay![i]!.reason}`])]
      : ["", `No decaying pages in ${sc.export}.`]),
    ...(sc.unmatched.length ? ["", "Search Console URLs that match no page of the folder:", ...sc.unmatched.map((url) => `  ${url}`)] : []),
  ];
}
