import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuditReport } from "../../src/audit/audit.js";
import { COMPARISON_EXPORT, DECAY_SITE, PLANTED_DECAY, periodExport } from "../fixtures/search-console.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, runCli } from "../helpers/server.js";

// `inkpress audit --search-console` over Search Console exports of our own with planted
// decays beside every figure that is no decay, then `batch --refresh --only` of the report.

describe("inkpress audit --search-console: decay", () => {
  let root: string;
  let site: string;
  let report: AuditReport;
  let stdout: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "inkpress-decay-"));
    site = path.join(root, "site");
    await mkdir(site);
    for (const [file, text] of Object.entries(DECAY_SITE)) await writeFile(path.join(site, file), text);
    await writeFile(path.join(root, "pages.csv"), COMPARISON_EXPORT);
    await writeFile(path.join(root, "now.csv"), periodExport(true));
    await writeFile(path.join(root, "before.csv"), periodExport(false));
    const out = path.join(root, "report.json");
    const result = await runCli(["audit", site, "--search-console", path.join(root, "pages.csv"), "--out", out, "--jobs", "1"]);
    expect(result.code, result.stderr).toBe(0);
    stdout = result.stdout;
    report = JSON.parse(await readFile(out, "utf8"));
  });

  it("flags exactly the planted decays, most clicks lost first, with their figures, and lists the URL that matches no page", () => {
    expect(report.decay!.map((d) => d.file)).toEqual(PLANTED_DECAY);
    expect(report.decay![0]).toEqual({
      url: "https://garden.example/compost/",
      file: "compost.md",
      clicks: { before: 200, now: 120 },
      impressions: { before: 4100, now: 4000 },
      ctr: { before: 0.0488, now: 0.03 },
      position: { before: 4.1, now: 7.9 },
      reason: "clicks fell 40% (200 → 120): its average position worsened from 4.1 to 7.9",
    });
    expect(report.decay![1]!.reason).toMatch(/CTR fell from 4\.0% to 3\.0% at a steady position/u);
    expect(report.searchConsole).toMatchObject({ unmatched: ["https://garden.example/old-page/"], minClicks: 30, minDrop: 0.2 });
    expect(stdout).toMatch(/200 → 120\s+-40%\s+4\.1 → 7\.9\s+4\.9% → 3\.0%\s+compost\.md/u);
    expect(stdout).toContain("Search Console URLs that match no page of the folder:\n  https://garden.example/old-page/");
  });

  it("reads two single-period exports as the comparison, and takes the thresholds from flags", async () => {
    const out = path.join(root, "periods.json");
    const args = ["audit", site, "--search-console", path.join(root, "now.csv"), "--previous", path.join(root, "before.csv")];
    const result = await runCli([...args, "--out", out, "--jobs", "1", "--decay-drop", "30", "--decay-min-clicks", "20"]);
    expect(result.code, result.stderr).toBe(0);
    const periods = JSON.parse(await readFile(out, "utf8")) as AuditReport;
    // At 30 % the CTR loss (25 %) is no decay, and from 20 clicks the small page's fall is one.
    expect(periods.decay!.map((d) => d.file)).toEqual(["compost.md", "sowing.md"]);
  });

  it("refuses an export without a pages column, or with text where a figure belongs, in one line naming the file", async () => {
    const noPages = path.join(root, "queries.csv");
    await writeFile(noPages, "Top queries,Clicks,Impressions,CTR,Position\ncompost,10,100,10%,3.2\n");
    const text = path.join(root, "text.csv");
    await writeFile(text, COMPARISON_EXPORT.replace("120,200", "many,200"));
    for (const [file, message] of [
      [noPages, `${noPages}: no pages column`],
      [text, `${text}:2: "many" in "Last 28 days Clicks" is not a figure`],
    ] as const) {
      const result = await runCli(["audit", site, "--search-console", file]);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
      expect(result.stderr).toContain(`inkpress: ${message}`);
    }
  });

  it.skipIf(!HAS_STORIES_MODEL)("batch --refresh DIR --only REPORT refreshes exactly the decaying pages", async () => {
    const only = ["batch", "--refresh", site, "--only", path.join(root, "report.json")];
    const result = await runCli([...only, "--model", STORIES_MODEL, "--threads", "1", "--seed", "3"]);
    expect(result.code, result.stderr).toBe(0);
    const refreshed = (await readdir(site)).filter((name) => name.endsWith(".refreshed.md")).sort();
    expect(refreshed).toEqual(PLANTED_DECAY.map((file) => file.replace(".md", ".refreshed.md")));
    const list = path.join(root, "list.txt");
    await writeFile(list, "compost.md\nnot-a-page.md\n");
    const typo = await runCli(["batch", "--refresh", site, "--only", list, "--model", STORIES_MODEL]);
    expect(typo.code).toBe(1);
    expect(typo.stderr.trim()).toBe(`inkpress: --only ${list}:2: not-a-page.md is no Markdown page of ${site}`);
  });
});
