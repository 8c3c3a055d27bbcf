import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { adjustedRand, plantedKeywords } from "../helpers/planted-keywords.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, runCli } from "../helpers/server.js";

if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the plan-to-site suite needs ${STORIES_MODEL}, which is not there.`);

interface Row {
  topic: string;
  keywords: string;
  slug: string;
  url: string;
  links: Array<{ url: string }>;
  outline: { headings: Array<{ level: 2 | 3; text: string }> };
}

/** The keyword CSV of the planted groups, as a keyword tool exports it. */
async function keywordCsv(dir: string, extra: string[] = []): Promise<void> {
  const { keywords } = plantedKeywords();
  const lines = [...keywords.map((k) => `${k.keyword},${k.volume},${k.difficulty}`), ...extra.map((k) => `${k},5,50`)];
  await writeFile(path.join(dir, "keywords.csv"), ["keyword,volume,difficulty", ...lines].join("\n"));
}

/** The H2 and H3 lines of a Markdown article, as `level text`. */
const headingsOf = (markdown: string) => [...markdown.matchAll(/^(#{2,3}) (.+)$/gmu)].map((m) => `${m[1]!.length} ${m[2]!.trim()}`);

// inkpress plan → inkpress batch → inkpress audit, as real processes on stories260K: the planned outlines and links are the site's.
describe.skipIf(!HAS_STORIES_MODEL)("a planned topic cluster, outlined, written and audited", () => {
  // Lengths follow the links: 1200 words for the pillar's five, 800 for each cluster article's three.
  it("recovers the six planted groups, and the batch file gives six articles with the planned headings and links", {
    timeout: 600_000,
  }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-plan-"));
    await keywordCsv(dir);
    const model = ["--model", STORIES_MODEL, "--threads", "1"];
    const planned = await runCli(
      ["plan", "--topic", "Home garden care", "--keywords", "keywords.csv", "--length", "100", ...model, "-o", "plan.jsonl"],
      {},
      dir,
    );
    expect(planned.code, planned.stderr).toBe(0);
    const rows = (await readFile(path.join(dir, "plan.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Row);
    expect(rows).toHaveLength(6);

    // The groups the CLI planned are the planted ones.
    const { keywords, truth } = plantedKeywords();
    const found = keywords.map((k) => rows.findIndex((row) => row.keywords.split(", ").includes(k.keyword)));
    expect(found).not.toContain(-1);
    expect(adjustedRand(truth, found)).toBeGreaterThanOrEqual(0.8);

    // The planned graph: the pillar links every cluster article, each cluster article its pillar and 2–3 siblings.
    const [pillar, ...cluster] = rows;
    expect(pillar!.links.map((l) => l.url).sort()).toEqual(cluster.map((r) => r.url).sort());
    for (const row of cluster) {
      const targets = row.links.map((l) => l.url);
      expect(targets[0]).toBe(pillar!.url);
      expect(targets.length - 1).toBeGreaterThanOrEqual(2);
      expect(targets.length - 1).toBeLessThanOrEqual(3);
      expect(targets).not.toContain(row.url);
    }

    const written = await runCli(["batch", "plan.jsonl", "--out", "site", ...model], {}, dir);
    expect(written.code, written.stderr).toBe(0);
    for (const row of rows) {
      const markdown = await readFile(path.join(dir, "site", `${row.slug}.md`), "utf8");
      // The article's H2/H3 are the planned outline's headings, in order.
      expect(headingsOf(markdown), row.slug).toEqual(row.outline.headings.map((h) => `${h.level} ${h.text}`));
      // Every planned link is placed.
      for (const link of row.links) expect(markdown, `${row.slug} → ${link.url}`).toContain(`](${link.url})`);
    }
    const audited = await runCli(["audit", "site", "--out", "report.json"], {}, dir);
    expect(audited.code, audited.stderr).toBe(0);
    const report = JSON.parse(await readFile(path.join(dir, "report.json"), "utf8"));
    expect(report.pages).toHaveLength(6);
    expect(report.orphans).toEqual([]);
  });
});

// inkpress plan --site: the folder is read as inkpress audit reads it, and a group one of its pages targets is left to that page.
describe("a plan against the site's pages", () => {
  it("does not plan an article for the keyword a page targets, and names the page", { timeout: 60_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-plan-site-"));
    await keywordCsv(dir);
    const { keywords, truth } = plantedKeywords();
    // The roses group's primary: its most searched keyword.
    const roses = keywords.filter((_, i) => truth[i] === 3).sort((a, b) => b.volume! - a.volume!)[0]!.keyword;
    const page = ["---", "title: Roses in bloom", `keywords: ${roses}`, "---", "", `A page about ${roses}, written long ago.`, ""];
    await mkdir(path.join(dir, "site", "guides"), { recursive: true });
    await writeFile(path.join(dir, "site", "guides", "old-roses.md"), page.join("\n"));
    const planned = await runCli(
      ["plan", "--topic", "Home garden care", "--keywords", "keywords.csv", "--site", "site", "-o", "plan.jsonl"],
      {},
      dir,
    );
    expect(planned.code, planned.stderr).toBe(0);
    expect(planned.stderr).toContain(`“${roses}” is covered by /guides/old-roses/: not planned again`);
    const rows = (await readFile(path.join(dir, "plan.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Row);
    expect(rows).toHaveLength(5);
    expect(rows.flatMap((row) => row.keywords.split(", "))).not.toContain(roses);
    expect(rows.map((row) => row.topic)).not.toContain(roses);

    // The same plan as a CSV: one row per article, its links in a file beside it that the links cell names.
    const csv = await runCli(
      ["plan", "--topic", "Home garden care", "--keywords", "keywords.csv", "--site", "site", "-o", "plan.csv"],
      {},
      dir,
    );
    expect(csv.code, csv.stderr).toBe(0);
    const lines = (await readFile(path.join(dir, "plan.csv"), "utf8")).trim().split("\n");
    expect(lines[0]).toBe("topic,keywords,slug,url,role,language,length,links,outline");
    expect(lines.slice(1).map((line) => line.split(",")[0])).toEqual(rows.map((row) => row.topic));
    const pillarLinks = await readFile(path.join(dir, "plan", `${rows[0]!.slug}.links.jsonl`), "utf8");
    expect(
      pillarLinks
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line).url),
    ).toEqual(rows[0]!.links.map((link) => link.url));
  });
});
