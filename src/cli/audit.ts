import { defineCommand } from "citty";
import { splitList } from "../contract/fields.js";
import { MAX_JOBS, auditFolder, type AuditReport } from "../audit/audit.js";
import { writeAuditReport } from "../audit/output.js";
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
    `${pages.length} page${pages.length === 1 ? "" : "s"} analysed, mean score ${mean}/100${report.unreadable.length ? `; ${report.unreadable.length} could not be read` : ""}`,
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
