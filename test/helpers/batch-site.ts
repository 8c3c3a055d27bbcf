/**
 * `inkpress batch` output for a static site, written by the real CLI on stories260K: rows of
 * every structure, with keywords, sources, links and an article without headings, as the
 * Markdown files a site generator or a linter reads.
 */
import { mkdir, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { STORIES_MODEL, runCli, type CliResult } from "./server.js";

const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.org/compost-bins/</loc></url>
  <url><loc>https://example.org/garden-flowers/</loc></url>
</urlset>`;

const ROWS = [
  "topic,length,seed,structure,keywords,headingTags,sources",
  'Home composting,150,1,sections,"compost bin, garden",,notes.md',
  "Garden flowers,150,2,listicle,flowers,,",
  "Planting a tree,150,3,how-to,,,",
  "Rain barrels,200,4,detailed,rain,,",
  "Quiet mornings,120,5,paragraphs,,false,",
];

/** One Markdown file of the batch: its name, whole text, front matter and body. */
export interface SiteFile {
  name: string;
  text: string;
  data: Record<string, unknown>;
  body: string;
}

/** Run `inkpress batch` over {@link ROWS} into a fresh folder (`flags`, such as `--h1`, added); its Markdown files, in name order. */
export async function writeBatchSite(flags: string[] = []): Promise<{ dir: string; files: SiteFile[]; rerun: () => Promise<CliResult> }> {
  const work = await mkdtemp(path.join(tmpdir(), "inkpress-site-"));
  await writeFile(
    path.join(work, "notes.md"),
    "---\ntitle: Compost notes\nurl: https://example.org/notes\n---\nBrown leaves add carbon to the heap.\n",
  );
  await writeFile(path.join(work, "sitemap.xml"), SITEMAP);
  await writeFile(path.join(work, "rows.csv"), `${ROWS.join("\n")}\n`);
  const dir = path.join(work, "content");
  await mkdir(dir);
  const batch = () =>
    runCli([
      "batch",
      path.join(work, "rows.csv"),
      "--out",
      dir,
      "--links",
      path.join(work, "sitemap.xml"),
      "--model",
      STORIES_MODEL,
      "--threads",
      "1",
      ...flags,
    ]);
  const result = await batch();
  if (result.code !== 0) throw new Error(`inkpress batch exited with ${result.code}: ${result.stderr}`);
  const names = (await readdir(dir)).filter((name) => name.endsWith(".md")).sort();
  if (names.length !== ROWS.length - 1)
    throw new Error(`inkpress batch wrote ${names.length} files for ${ROWS.length - 1} rows: ${result.stderr}`);
  const files = await Promise.all(
    names.map(async (name) => {
      const text = await readFile(path.join(dir, name), "utf8");
      const [, yaml = "", body = ""] = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(text) ?? [];
      return { name, text, data: parse(yaml, { version: "1.1" }) as Record<string, unknown>, body };
    }),
  );
  return { dir, files, rerun: batch };
}
