/**
 * `npm run bench:audit`: how long `inkpress audit` takes over a thousand 1,000-word pages.
 *
 * Builds a folder of PAGES Markdown pages (front matter with a title and keywords, about
 * WORDS words of prose each, drawn from README files of packages in node_modules in a fixed
 * order, linked to one another) and audits it in-process as the CLI does, timing the wall
 * clock and the process's CPU time. Prints one line per figure, for docs/performance.md.
 */
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { auditFolder } from "../../src/audit/audit.js";
import { readme, readmePackages, withFrontMatter } from "../fixtures/readmes.js";

const PAGES = Number(process.env.PAGES ?? 1000);
const WORDS = Number(process.env.WORDS ?? 1000);

/** Prose paragraphs of the READMEs: no code, tables, HTML or headings. */
function paragraphs(): string[] {
  return readmePackages(100).flatMap((name) =>
    readme(name)
      .split(/\n{2,}/)
      .map((block) => block.replace(/\s+/g, " ").trim())
      .filter((block) => /^[A-Z][^|<`#]{80,}[.!?]$/.test(block)),
  );
}

async function buildSite(dir: string): Promise<number> {
  const pool = paragraphs();
  let words = 0;
  let next = 0;
  for (let page = 0; page < PAGES; page++) {
    const body: string[] = [];
    for (let count = 0; count < WORDS; ) {
      // A stride through the pool, so pages share few paragraphs.
      const paragraph = pool[(next = (next + 7919) % pool.length)]!;
      body.push(paragraph);
      count += paragraph.split(" ").length;
      if (body.length % 4 === 0) body.push(`## Part ${body.length / 4}`);
    }
    body.push(`See also [the next page](/pages/page-${(page + 1) % PAGES}/).`);
    const text = body.join("\n\n");
    words += text.split(/\s+/).length;
    await writeFile(path.join(dir, "pages", `page-${page}.md`), withFrontMatter({ title: `Page ${page} of the benchmark site`, keywords: [`topic ${page % 97}`] }, `# Page ${page}\n\n${text}\n`));
  }
  return words;
}

const dir = await mkdtemp(path.join(os.tmpdir(), "inkpress-bench-audit-"));
try {
  await mkdir(path.join(dir, "pages"));
  const words = await buildSite(dir);
  const load = os.loadavg().map((n) => n.toFixed(2)).join(", ");
  const cpu = process.cpuUsage();
  const started = performance.now();
  const report = await auditFolder(dir);
  const wall = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  console.log(`pages: ${report.pages.length} (${Math.round(words / PAGES)} words a page on average), unreadable: ${report.unreadable.length}`);
  console.log(`wall: ${wall.toFixed(1)} s (${((wall * 1000) / PAGES).toFixed(1)} ms a page)`);
  console.log(`cpu (user + system, this process and its workers): ${((used.user + used.system) / 1e6).toFixed(1)} s`);
  console.log(`near-duplicate groups: ${report.nearDuplicates.length}, orphans: ${report.orphans.length}, keyword groups: ${report.cannibalised.length}`);
  console.log(`machine: ${os.availableParallelism()} cores, ${os.cpus()[0]?.model ?? "unknown CPU"}; load average at start ${load}, at the end ${os.loadavg().map((n) => n.toFixed(2)).join(", ")}; Node ${process.version}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
