import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readRows } from "../../src/batch/input.js";
import { parseRow, type BatchRow } from "../../src/batch/row.js";
import { clusterKeywords, planSite } from "../../src/planning/clusters.js";
import { jsonlText, planRows, writeCsvPlan, type PlanRow } from "../../src/planning/plan-file.js";
import { plantedKeywords } from "../helpers/planted-keywords.js";

const topic = "Home garden care";

/** An edited outline of a row, as a user leaves it: six H2s sharing the length less the introduction. */
function outlineOf(row: PlanRow): NonNullable<PlanRow["outline"]> {
  const introduction = 60;
  const names = ["Why it matters", "Getting started", "Tools to use", "Common mistakes", "A season through", "Final thoughts"];
  const each = Math.floor((row.length! - introduction) / names.length) - 3;
  const headings = names.map((text) => ({
    level: 2 as const,
    text: `${text} here`,
    words: each,
  }));
  return { title: `All about ${row.topic}`, description: `A guide to ${row.topic}.`, introduction, headings };
}

/** The planted keywords' plan as rows, each with an outline. */
function plannedRows(): PlanRow[] {
  const { articles } = planSite(clusterKeywords(plantedKeywords().keywords, { topic, language: "en" }), { topic, language: "en" });
  return planRows(articles, { language: "en", length: 800 }).map((row) => ({ ...row, outline: outlineOf(row) }));
}

/** The rows of a batch file, as `inkpress batch` reads and validates them. */
async function batchRows(file: string): Promise<BatchRow[]> {
  return (await readRows(file)).map((row) => {
    if ("error" in row) throw new Error(row.error);
    const parsed = parseRow(row.line, row.fields);
    if ("error" in parsed) throw new Error(parsed.error);
    return parsed as BatchRow;
  });
}

describe("the plan's batch file", () => {
  it("gives a row at least 200 words per planned link and one more", () => {
    const rows = plannedRows();
    expect(rows[0]!.length).toBe(1200);
    expect(rows.slice(1).every((row) => row.length === 800)).toBe(true);
  });

  it("is read by batch as planned, JSONL inline and CSV naming its files beside it: slug, links and outline", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-plan-file-"));
    const rows = plannedRows();
    await writeFile(path.join(dir, "plan.jsonl"), jsonlText(rows));
    await writeCsvPlan(path.join(dir, "plan.csv"), rows);
    expect(await readFile(path.join(dir, "plan", `${rows[1]!.slug}.outline.json`), "utf8")).toContain(rows[1]!.outline!.headings[0]!.text);
    const [jsonl, csv] = [await batchRows(path.join(dir, "plan.jsonl")), await batchRows(path.join(dir, "plan.csv"))];
    for (const read of [jsonl, csv]) {
      expect(read.map((row) => row.name)).toEqual(rows.map((row) => row.slug));
      for (const [i, row] of read.entries()) {
        expect(row.request.topic).toBe(rows[i]!.topic);
        expect(row.request.length).toBe(rows[i]!.length);
        expect(row.request.links!.map((link) => link.url)).toEqual(rows[i]!.links.map((link) => link.url));
        expect(row.request.outline!.headings.map((h) => h.text)).toEqual(rows[i]!.outline!.headings.map((h) => h.text));
      }
    }
    // The same rows either way: the same requests, so a run resumes whichever file it reads.
    expect(csv.map((row) => row.key)).toEqual(jsonl.map((row) => row.key));
  });

  it("makes a missing links file that row's error, naming the field", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-plan-file-"));
    await writeFile(path.join(dir, "plan.csv"), "topic,links\nCompost,gone.jsonl\n");
    const [row] = await readRows(path.join(dir, "plan.csv"));
    expect(row).toMatchObject({ error: expect.stringMatching(/^links: cannot read .*gone\.jsonl/u) });
  });
});
