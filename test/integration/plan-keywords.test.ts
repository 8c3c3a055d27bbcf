import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { coffeeExport } from "../helpers/coffee-keywords.js";
import { exited, spawnInkpress } from "../helpers/cli.js";
import { adjustedRand } from "../helpers/planted-keywords.js";
import { HAS_STORIES_MODEL, runCli, STORIES_MODEL } from "../helpers/server.js";

interface Row {
  topic: string;
  keywords: string;
  slug: string;
  role: string;
  links: Array<{ url: string }>;
  outline?: { headings: unknown[] };
}

const rowsOf = (jsonl: string) =>
  jsonl
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as Row);

// `inkpress plan` as a real process on keyword files of the test's own: what it keeps, merges and refuses.
describe("inkpress plan on a keyword export", () => {
  let dir: string;
  const plan = (file: string, more: string[] = []) =>
    runCli(["plan", "--topic", "Coffee brewing at home", "--keywords", file, ...more], {}, dir);
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "inkpress-plan-keywords-"));
  });

  it("groups an export full of modifiers into its topics (ARI ≥ 0.8), every keyword in one row, each row saying its role", async () => {
    const { csv, keywords, truth } = coffeeExport();
    await writeFile(path.join(dir, "coffee.csv"), csv);
    const result = await plan("coffee.csv");
    expect(result.code, result.stderr).toBe(0);
    const rows = rowsOf(result.stdout);
    const found = keywords.map((k) => rows.findIndex((row) => row.keywords.split(", ").includes(k)));
    expect(found).not.toContain(-1);
    expect(rows.flatMap((row) => row.keywords.split(", "))).toHaveLength(keywords.length);
    const ari = adjustedRand(truth, found);
    console.log(`inkpress plan: ${keywords.length} keywords, 7 topics → ${rows.length} rows, adjusted Rand index ${ari.toFixed(3)}`);
    expect(ari).toBeGreaterThanOrEqual(0.8);
    expect(rows.map((row) => row.role)).toEqual(["pillar", ...rows.slice(1).map(() => "cluster")]);
    expect(new Set(rows.map((row) => row.slug)).size).toBe(rows.length);
    expect(result.stderr).toContain(`Planned ${rows.length} articles (1 pillar) from ${keywords.length} keywords\n`);
  });

  it("plans 100 copies of one keyword (case and spacing aside) as one row, and says so", async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `${i % 3 ? "rose pruning" : "Rose  Pruning"},${100 + (i % 7)},30`);
    await writeFile(path.join(dir, "copies.csv"), ["Keyword,Volume,KD", ...lines].join("\n"));
    const result = await plan("copies.csv");
    expect(result.code, result.stderr).toBe(0);
    const rows = rowsOf(result.stdout);
    expect(rows).toEqual([expect.objectContaining({ topic: "Rose Pruning", keywords: "Rose Pruning", role: "pillar", links: [] })]);
    expect(result.stderr).toContain("from 100 keywords (99 repeating another, planned once)");
  });

  it("cleans control and format characters out of keywords", async () => {
    await writeFile(path.join(dir, "marks.csv"), "Keyword,Volume,KD\nrose\u0007pruning,10,1\n\u202erose care\u200b,5,1\n");
    const result = await plan("marks.csv");
    expect(result.code, result.stderr).toBe(0);
    expect(rowsOf(result.stdout).map((row) => row.keywords)).toEqual(["rose pruning, rose care"]);
  });

  it.each([
    [
      "a 5 MB cell",
      `rose pruning,10,1\n${"x".repeat(5 * 1024 * 1024)},3,1\n`,
      /^inkpress: big\.csv: line 3: a row of over 65536 characters/,
    ],
    ["a NUL byte", "rose pruning,10,1\nrose\u0000 care,5,1\n", /^inkpress: big\.csv: line 3: a NUL byte; a keyword file is text$/],
    [
      "2,001 keywords",
      Array.from({ length: 2001 }, (_, i) => `keyword ${i},1,1\n`).join(""),
      /^inkpress: big\.csv: line 2002: more than 2000 keywords, the most one plan takes; split the file$/,
    ],
    [
      "an 81-character keyword",
      `rose pruning,10,1\n${"y".repeat(81)},3,1\n`,
      /^inkpress: big\.csv: line 3: keyword must be at most 80 characters$/,
    ],
    ["a keyword of zero-width spaces", "rose pruning,10,1\n\u200b\u200b,3,1\n", /^inkpress: big\.csv: line 3: keyword must not be empty$/],
  ])("refuses %s in one line naming the line, writing nothing", async (_, body, message) => {
    await writeFile(path.join(dir, "big.csv"), `Keyword,Volume,KD\n${body}`);
    const result = await plan("big.csv", ["-o", "refused.jsonl"]);
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr.trimEnd()).toMatch(message);
    await expect(readFile(path.join(dir, "refused.jsonl"))).rejects.toThrow(/ENOENT/);
  });

  // --no-embeddings with a model: every row still gets its outline, and no keyword is placed by embeddings.
  it.skipIf(!HAS_STORIES_MODEL)("keeps outlines without the embedding merge under --no-embeddings", { timeout: 300_000 }, async () => {
    await writeFile(
      path.join(dir, "small.csv"),
      "Keyword,Volume,KD\nfrench press,900,20\nfrench press ratio,300,10\nlatte art,500,30\nbirdhouse paint,50,5\n",
    );
    const model = ["--model", STORIES_MODEL, "--threads", "1"];
    const result = await plan("small.csv", [...model, "--no-embeddings"]);
    expect(result.code, result.stderr).toBe(0);
    const rows = rowsOf(result.stdout);
    expect(rows.map((row) => row.keywords).sort()).toEqual(["birdhouse paint", "french press, french press ratio", "latte art"]);
    for (const row of rows) expect(row.outline?.headings.length, row.topic).toBeGreaterThan(0);
    expect(result.stderr).not.toContain("by embeddings");
    expect(result.stderr).toContain("Outlined 3 articles");
  });
});

// SIGTERM while outlines are drafted: the draft in flight stops, the command ends in one line, and no plan is written.
describe.skipIf(!HAS_STORIES_MODEL)("inkpress plan stopped by SIGTERM", () => {
  it("stops mid-outline and writes nothing", { timeout: 300_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-plan-stop-"));
    const words = "aster begonia crocus dahlia freesia gardenia hosta iris jasmine lupin marigold nasturtium".split(" ");
    await writeFile(path.join(dir, "flowers.csv"), ["Keyword,Volume,KD", ...words.map((w, i) => `${w},${100 - i},10`)].join("\n"));
    const args = ["plan", "--topic", "Flowers", "--keywords", path.join(dir, "flowers.csv"), "--model", STORIES_MODEL, "--threads", "1"];
    const child = spawnInkpress([...args, "--length", "400", "--no-embeddings", "-o", path.join(dir, "plan.jsonl")]);
    let stderr = "";
    const outlining = new Promise<void>((resolve) =>
      child.stderr!.on("data", (d) => {
        stderr += d;
        if (stderr.includes("Outlining 12 articles…")) resolve();
      }),
    );
    await outlining;
    child.kill("SIGTERM");
    const { code } = await exited(child);
    expect(code).toBe(130);
    expect(stderr.trimEnd().split("\n").at(-1)).toBe("inkpress: plan interrupted; nothing was written");
    await expect(readFile(path.join(dir, "plan.jsonl"))).rejects.toThrow(/ENOENT/);
  });
});
