import { mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuditReport } from "../../src/audit/audit.js";
import type { Proposal } from "../../src/backfill/propose.js";
import { GARDEN_SITE } from "../fixtures/garden-site.js";
import { runCli } from "../helpers/server.js";

// `inkpress links` over a garden site of our own (nine pages that mention each other's
// subjects in plain prose, no links between them): proposals on the pages' own words, applied
// as link markup only, refused by name when a line leaves the folder.

async function site(): Promise<string> {
  const root = await mkdtemp(path.join(tmpdir(), "inkpress-backfill-"));
  const dir = path.join(root, "site");
  await mkdir(dir);
  for (const [file, text] of Object.entries(GARDEN_SITE)) await writeFile(path.join(dir, file), text);
  return dir;
}

const readProposals = async (file: string): Promise<Proposal[]> =>
  (await readFile(file, "utf8"))
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));

/** The file's text with every inline link's markup taken off, leaving its text. */
const unlinked = (text: string) => text.replace(/(?<!!)\[([^\]]+)\]\((\/[^)\s]*)\)/gu, "$1");

describe("inkpress links", () => {
  let dir: string;
  let review: string;
  let proposals: Proposal[];
  let kept: Proposal[];
  let applied: { code: number | null; stdout: string; stderr: string };

  beforeAll(async () => {
    dir = await site();
    review = path.join(dir, "..", "links.review.jsonl");
    const proposed = await runCli(["links", dir, "-o", review]);
    expect(proposed.stderr).toBe("");
    expect(proposed.code).toBe(0);
    proposals = await readProposals(review);
    // The user rejects the first proposal by deleting its line.
    kept = proposals.slice(1);
    await writeFile(review, kept.map((p) => `${JSON.stringify(p)}\n`).join(""));
    applied = await runCli(["links", dir, "--apply", review]);
  });

  it("proposes links on phrases of each page's prose, never a heading, code, image text, HTML or another link", () => {
    expect(proposals.length).toBeGreaterThanOrEqual(6);
    for (const p of proposals) {
      expect(Object.keys(p).sort()).toEqual(["anchor", "file", "line", "reason", "score", "target", "targetFile"]);
      const line = GARDEN_SITE[p.file]!.split("\n")[p.line - 1]!;
      expect(line).toContain(p.anchor);
      expect(line).not.toMatch(/^(#|```|!\[|---)|<span>|\]\(https/u);
      expect(p.anchor.split(" ").length).toBeGreaterThanOrEqual(2);
      expect(p.targetFile).not.toBe(p.file);
      expect(p.target).toBe(`/${p.targetFile.replace(/\.md$/u, "")}/`);
    }
    for (const file of new Set(proposals.map((p) => p.file))) {
      const list = proposals.filter((p) => p.file === file);
      expect(list.length).toBeLessThanOrEqual(3);
      expect(new Set(list.map((p) => p.target)).size).toBe(list.length);
    }
    // A subject written in another word form is linked on the words as written.
    expect(proposals).toContainEqual(expect.objectContaining({ file: "mulching.md", anchor: "prune tomato plants", target: "/tomatoes/" }));
  });

  it("--apply inserts exactly the kept links, beside a .bak: taking the markup off gives every file's bytes back", async () => {
    expect(applied.stderr).toBe("");
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain(`${kept.length} links placed`);
    for (const [file, original] of Object.entries(GARDEN_SITE)) {
      const text = await readFile(path.join(dir, file), "utf8");
      expect(unlinked(text)).toBe(original);
      const links = [...text.matchAll(/(?<!!)\[([^\]]+)\]\((\/[^)\s]*)\)/gu)].map((m) => `${m[1]} ${m[2]}`).sort();
      expect(links).toEqual(
        kept
          .filter((p) => p.file === file)
          .map((p) => `${p.anchor} ${p.target}`)
          .sort(),
      );
      if (links.length) expect(await readFile(path.join(dir, `${file}.bak`), "utf8")).toBe(original);
    }
  });

  it("a second run proposes none of the links placed, and the audit then counts at most 2 orphans", async () => {
    const again = await runCli(["links", dir]);
    expect(again.code).toBe(0);
    const pairs = new Set(kept.map((p) => `${p.file} ${p.target}`));
    const second = again.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Proposal);
    expect(second.filter((p) => pairs.has(`${p.file} ${p.target}`))).toEqual([]);
    const out = path.join(dir, "..", "audit.json");
    expect((await runCli(["audit", dir, "--out", out, "--jobs", "1"])).code).toBe(0);
    const report = JSON.parse(await readFile(out, "utf8")) as AuditReport;
    expect(report.orphans.length).toBeLessThanOrEqual(2);
    expect(report.brokenLinks).toEqual([]);
  });

  it("refuses a review line naming a file outside the folder by name, changing nothing", async () => {
    const fresh = await site();
    const outside = path.join(fresh, "..", "outside.md");
    await writeFile(outside, "Garden soil and a compost bin.\n");
    const bad = path.join(fresh, "..", "bad.jsonl");
    const line = { ...proposals[0]!, file: "../outside.md" };
    await writeFile(bad, `${JSON.stringify(proposals[1])}\n${JSON.stringify(line)}\n`);
    const result = await runCli(["links", fresh, "--apply", bad]);
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      `inkpress: ${bad}:2: ../outside.md is outside ${fresh}, so it is refused; nothing was changed`,
    ]);
    expect(await readFile(outside, "utf8")).toBe("Garden soil and a compost bin.\n");
    expect((await readdir(fresh)).sort()).toEqual(Object.keys(GARDEN_SITE).sort());
    for (const [file, text] of Object.entries(GARDEN_SITE)) expect(await readFile(path.join(fresh, file), "utf8")).toBe(text);
  });

  it("skips, by name, a proposal whose anchor the page no longer holds, and applies the rest", async () => {
    const fresh = await site();
    const [gone, other] = [proposals[0]!, proposals.find((p) => p.file !== proposals[0]!.file)!];
    const edited = GARDEN_SITE[gone.file]!.replace(gone.anchor, "soil");
    await writeFile(path.join(fresh, gone.file), edited);
    const stale = path.join(fresh, "..", "stale.jsonl");
    await writeFile(stale, `${JSON.stringify(gone)}\n${JSON.stringify(other)}\n`);
    const result = await runCli(["links", fresh, "--apply", stale]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${stale}:1: "${gone.anchor}" is no longer plain prose on line ${gone.line} of ${gone.file}; skipped`);
    expect(result.stderr).not.toMatch(/\n\s+at /u);
    expect(await readFile(path.join(fresh, gone.file), "utf8")).toBe(edited);
    expect(await readFile(path.join(fresh, other.file), "utf8")).toContain(`[${other.anchor}](${other.target})`);
  });
});
