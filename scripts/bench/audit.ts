/**
 * `npm run bench:audit`: how long `inkpress audit` takes over a thousand 1,000-word pages.
 *
 * Builds a folder of Markdown pages (front matter with a title and keywords, about
 * a given number of words of prose each, drawn from README files of packages in node_modules in a fixed
 * order, linked to one another) and audits it in-process as the CLI does, timing the wall
 * clock and the process's CPU time. `npm run bench` runs it for BENCHMARKS.md; run alone, it prints
 * one line per figure.
 */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { auditFolder } from "../../src/audit/audit.js";
import { readme, readmePackages, withFrontMatter } from "../fixtures/readmes.js";

/** What one audit of the built site took. */
export interface AuditFigures {
  pages: number;
  /** Words a page, on average. */
  words: number;
  wallS: number;
  /** User and system CPU of the process and its worker threads. */
  cpuS: number;
  /** Load averages (1, 5, 15 minutes) when the audit started. */
  load: number[];
}

/** Prose paragraphs of the READMEs: no code, tables, HTML or headings. */
export function paragraphs(): string[] {
  return readmePackages(100).flatMap((name) =>
    readme(name)
      .split(/\n{2,}/)
      .map((block) => block.replace(/\s+/g, " ").trim())
      .filter((block) => /^[A-Z][^|<`#]{80,}[.!?]$/.test(block)),
  );
}

/** Write the site's pages into `dir`/pages; resolves to the words written in all. */
async function buildSite(dir: string, pages: number, words: number): Promise<number> {
  const pool = paragraphs();
  let written = 0;
  let next = 0;
  for (let page = 0; page < pages; page++) {
    const body: string[] = [];
    for (let count = 0; count < words; ) {
      // A stride through the pool, so pages share few paragraphs.
      const paragraph = pool[(next = (next + 7919) % pool.length)]!;
      body.push(paragraph);
      count += paragraph.split(" ").length;
      if (body.length % 4 === 0) body.push(`## Part ${body.length / 4}`);
    }
    body.push(`See also [the next page](/pages/page-${(page + 1) % pages}/).`);
    const text = body.join("\n\n");
    written += text.split(/\s+/).length;
    await writeFile(
      path.join(dir, "pages", `page-${page}.md`),
      withFrontMatter({ title: `Page ${page} of the benchmark site`, keywords: [`topic ${page % 97}`] }, `# Page ${page}\n\n${text}\n`),
    );
  }
  return written;
}

/** Build a site of `pages` pages of about `words` words and audit it as `inkpress audit` does. */
export async function auditTime({ pages, words }: { pages: number; words: number }): Promise<AuditFigures> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "inkpress-bench-audit-"));
  try {
    await mkdir(path.join(dir, "pages"));
    const written = await buildSite(dir, pages, words);
    const load = os.loadavg();
    const cpu = process.cpuUsage();
    const started = performance.now();
    const report = await auditFolder(dir);
    const wallS = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    if (report.pages.length !== pages) throw new Error(`the audit measured ${report.pages.length} of ${pages} pages`);
    return { pages, words: Math.round(written / pages), wallS, cpuS: (used.user + used.system) / 1e6, load };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const figures = await auditTime({ pages: Number(process.env.PAGES ?? 1000), words: Number(process.env.WORDS ?? 1000) });
  console.log(`pages: ${figures.pages} (${figures.words} words a page on average)`);
  console.log(`wall: ${figures.wallS.toFixed(1)} s (${((figures.wallS * 1000) / figures.pages).toFixed(1)} ms a page)`);
  console.log(`cpu (user + system, this process and its workers): ${figures.cpuS.toFixed(1)} s`);
  console.log(
    `machine: ${os.availableParallelism()} cores, ${os.cpus()[0]?.model ?? "unknown CPU"}; load average at start ${figures.load.map((n) => n.toFixed(2)).join(", ")}; Node ${process.version}`,
  );
}
