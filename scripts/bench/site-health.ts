/**
 * `npm run bench` (and run alone): how long `inkpress links` and `inkpress audit
 * --search-console`'s decay take over a thousand pages.
 *
 * Builds a folder of Markdown pages of README prose (as scripts/bench/audit.ts does), each
 * page's keyword a two-word phrase of its own first paragraph, so the pages that share that
 * paragraph mention it, and a Search Console comparison export of every page; then times the
 * links proposal (reading the site, ranking, placing) and the decay findings (reading the
 * export, matching each URL, flagging) in-process as the CLI runs them.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { decayedPages } from "../../src/audit/decay.js";
import { readSearchConsole } from "../../src/site/search-console.js";
import { pageFinder } from "../../src/site/addresses.js";
import { proposeLinks } from "../../src/backfill/propose.js";
import { readSite } from "../../src/backfill/site.js";
import { withFrontMatter } from "../fixtures/readmes.js";
import { paragraphs } from "./audit.js";

/** What the two commands' work took over the built site. */
export interface SiteHealthFigures {
  pages: number;
  linksS: number;
  /** The links' CPU time (user and system): the wall of a loaded machine is mostly waiting. */
  linksCpuS: number;
  proposals: number;
  decayS: number;
  decayed: number;
}

/** A two-word phrase of letters from a paragraph, or undefined. */
const phraseOf = (paragraph: string) => /\b([a-z]{4,} [a-z]{4,})\b/u.exec(paragraph)?.[1];

async function buildSite(dir: string, pages: number, words: number): Promise<void> {
  const pool = paragraphs();
  let next = 0;
  const rows = [
    "Top pages,Last 28 days Clicks,Previous 28 days Clicks,Last 28 days Impressions,Previous 28 days Impressions,Last 28 days CTR,Previous 28 days CTR,Last 28 days Position,Previous 28 days Position",
  ];
  for (let page = 0; page < pages; page++) {
    const body: string[] = [];
    for (let count = 0; count < words; ) {
      const paragraph = pool[(next = (next + 7919) % pool.length)]!;
      body.push(paragraph);
      count += paragraph.split(" ").length;
    }
    const keyword = phraseOf(body[0]!) ?? `topic ${page}`;
    await writeFile(
      path.join(dir, "pages", `page-${page}.md`),
      withFrontMatter({ title: `Page ${page}`, keywords: [keyword] }, `${body.join("\n\n")}\n`),
    );
    const [now, before] = [40 + (page % 50), 40 + ((page * 7) % 90)];
    rows.push(`https://site.example/pages/page-${page}/,${now},${before},1000,1000,${now / 10}%,${before / 10}%,5.1,4.9`);
  }
  await writeFile(path.join(dir, "pages.csv"), `${rows.join("\n")}\n`);
}

/** Build the site and time `links` and the decay findings over it. */
export async function siteHealthTime({ pages, words }: { pages: number; words: number }): Promise<SiteHealthFigures> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "inkpress-bench-health-"));
  try {
    await mkdir(path.join(dir, "pages"));
    await buildSite(dir, pages, words);
    let started = performance.now();
    const cpu = process.cpuUsage();
    const site = await readSite(dir);
    const proposals = proposeLinks(site.pages);
    const linksS = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    started = performance.now();
    const rows = await readSearchConsole(path.join(dir, "pages.csv"));
    const find = pageFinder(site.pages);
    const { decay } = decayedPages(rows, (pathname) => site.pages[find(pathname) ?? -1]?.file);
    const decayS = (performance.now() - started) / 1000;
    return {
      pages: site.pages.length,
      linksS,
      linksCpuS: (used.user + used.system) / 1e6,
      proposals: proposals.length,
      decayS,
      decayed: decay.length,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const f = await siteHealthTime({ pages: Number(process.env.PAGES ?? 1000), words: Number(process.env.WORDS ?? 1000) });
  console.log(
    `links over ${f.pages} pages: ${f.linksS.toFixed(1)} s wall, ${f.linksCpuS.toFixed(1)} s CPU (${f.proposals} links proposed)`,
  );
  console.log(`audit --search-console's decay over ${f.pages} pages: ${f.decayS.toFixed(2)} s (${f.decayed} decaying)`);
}
