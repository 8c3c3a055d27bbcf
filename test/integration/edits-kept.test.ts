import { copyFile, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exited, spawnInkpress } from "../helpers/cli.js";
import { waitFor } from "../helpers/http.js";
import { HAS_STORIES_MODEL, ROOT, STORIES_MODEL } from "../helpers/server.js";

// A user's edit is never lost to a command that runs meanwhile: a page edited while
// `batch --refresh --in-place` runs keeps the edit, and a plan file is never left half written.

const AUTHORED = path.join(ROOT, "test/fixtures/authored");
const EDIT = "\nAdded by hand while the batch ran: the bakery opens at seven.\n";

/** Run the CLI, handing each stderr chunk to `onErr` as it comes; resolves with everything once it exits. */
function watched(args: string[], env: Record<string, string> = {}, onErr: (stderr: string) => void = () => {}) {
  const child = spawnInkpress(args, env);
  let stderr = "";
  child.stderr!.on("data", (d) => onErr((stderr += d)));
  return { child, stderr: () => stderr };
}

describe.skipIf(!HAS_STORIES_MODEL)("an edit made while batch --refresh --in-place runs", () => {
  it("survives: the page edited after the run read it is skipped and named, its edit kept and no backup made of stale bytes", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-edits-"));
    for (const name of ["allotment.md", "bike-commute.md"]) await copyFile(path.join(AUTHORED, name), path.join(dir, name));
    const original = await readFile(path.join(dir, "bike-commute.md"));
    let edited = false;
    // The files are read before the first refresh starts, so an edit once the first is written lands on the second's stale copy.
    const run = watched(["batch", "--refresh", dir, "--in-place", "--seed", "4", "--model", STORIES_MODEL, "--threads", "1"], {}, (err) => {
      if (!edited && /wrote allotment\.md/.test(err)) {
        edited = true;
        void writeFile(path.join(dir, "bike-commute.md"), Buffer.concat([original, Buffer.from(EDIT)]));
      }
    });
    const { code } = await exited(run.child);
    const stderr = run.stderr();
    expect(edited, stderr).toBe(true);
    const page = await readFile(path.join(dir, "bike-commute.md"), "utf8");
    expect(page, "the edit is in the page").toContain(EDIT.trim());
    const files = await readdir(dir);
    if (/bike-commute\.md changed while it was being refreshed: skipped, it keeps your edit/.test(stderr)) {
      expect(code, stderr).toBe(1);
      expect(page).toBe(`${original}${EDIT}`);
      expect(files, "no backup of bytes the page no longer holds").not.toContain("bike-commute.md.bak");
      expect(stderr).toMatch(/^done: 1 refreshed, 0 skipped \(already refreshed\), 1 failed \(bike-commute\.md\)/m);
    } else {
      // A machine so slow that the second refresh was written before the edit: the edit lies on the refreshed page.
      expect(code, stderr).toBe(0);
      expect((await readFile(path.join(dir, "bike-commute.md.bak"))).equals(original)).toBe(true);
    }
    expect((await readFile(path.join(dir, "allotment.md.bak"))).equals(await readFile(path.join(AUTHORED, "allotment.md")))).toBe(true);

    // Run again: the edited page is refreshed from its new text, its backup holding the edit.
    const again = watched(["batch", "--refresh", dir, "--in-place", "--seed", "4", "--model", STORIES_MODEL, "--threads", "1"]);
    expect((await exited(again.child)).code, again.stderr()).toBe(0);
    expect(await readFile(path.join(dir, "bike-commute.md.bak"), "utf8")).toContain(EDIT.trim());
  }, 240_000);
});

describe("inkpress plan -o", () => {
  it("killed mid-write leaves the old plan file whole", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-plan-kill-"));
    const keywords = ["rose pruning", "pruning roses in winter", "climbing rose care", "tomato blight", "tomato feeding"];
    await writeFile(path.join(dir, "keywords.csv"), ["keyword,volume,difficulty", ...keywords.map((k) => `${k},100,20`)].join("\n"));
    // An edited plan larger than one write chunk (512 KiB): a write that is not atomic leaves only its first chunk.
    const old = `${JSON.stringify({ topic: "An edited row", notes: "x".repeat(700_000) })}\n`;
    const file = path.join(dir, "plan.jsonl");
    await writeFile(file, old);
    const run = watched(["plan", "--topic", "Garden care", "--keywords", path.join(dir, "keywords.csv"), "-o", file], {
      INKPRESS_TEST_WRITE_PAUSE_MS: "60000",
    });
    await waitFor(
      () => (run.stderr().includes("plan.jsonl: written, not yet renamed") ? true : run.child.exitCode !== null ? false : undefined),
      "plan paused between writing its new file and renaming it",
      60_000,
    );
    expect(run.stderr()).toContain("plan.jsonl: written, not yet renamed");
    run.child.kill("SIGKILL");
    expect((await exited(run.child)).signal).toBe("SIGKILL");
    expect(await readFile(file, "utf8")).toBe(old);
  }, 90_000);
});
