import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { plantedKeywords } from "../helpers/planted-keywords.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, runCli } from "../helpers/server.js";

if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the plan-to-site suite needs ${STORIES_MODEL}, which is not there.`);

// inkpress plan → inkpress batch → inkpress audit, as real processes on stories260K: the planned links are the site's.
describe.skipIf(!HAS_STORIES_MODEL)("a planned topic cluster, written and audited", () => {
  // Lengths follow the links: 1200 words for the pillar's five, 800 for each cluster article's three.
  it("writes six articles whose links form the planned graph, no page an orphan", { timeout: 480_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-plan-"));
    const { keywords } = plantedKeywords();
    const csv = ["keyword,volume,difficulty", ...keywords.map((k) => `${k.keyword},${k.volume},${k.difficulty}`)].join("\n");
    await writeFile(path.join(dir, "keywords.csv"), csv);
    const planned = await runCli(
      ["plan", "--topic", "Home garden care", "--keywords", "keywords.csv", "--length", "100", "-o", "plan.jsonl"],
      {},
      dir,
    );
    expect(planned.code, planned.stderr).toBe(0);
    const rows = (await readFile(path.join(dir, "plan.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(rows).toHaveLength(6);

    const written = await runCli(["batch", "plan.jsonl", "--out", "site", "--model", STORIES_MODEL, "--threads", "1"], {}, dir);
    expect(written.code, written.stderr).toBe(0);
    const audited = await runCli(["audit", "site", "--out", "report.json"], {}, dir);
    expect(audited.code, audited.stderr).toBe(0);
    const report = JSON.parse(await readFile(path.join(dir, "report.json"), "utf8"));
    expect(report.pages).toHaveLength(6);
    expect(report.orphans).toEqual([]);
    // Every cluster article links its pillar.
    const pillar = rows[0].url as string;
    for (const row of rows.slice(1)) {
      const markdown = await readFile(path.join(dir, "site", `${row.url.split("/").filter(Boolean).at(-1)}.md`), "utf8");
      expect(markdown, row.url).toContain(`](${pillar})`);
    }
  });
});
