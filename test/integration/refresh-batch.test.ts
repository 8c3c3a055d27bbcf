import type { ChildProcess } from "node:child_process";
import { chmod, mkdtemp, readFile, readdir, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { spawnInkpress } from "../helpers/cli.js";
import { plantedArticle } from "../../scripts/fixtures/refresh.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, runCli } from "../helpers/server.js";

// `inkpress batch --refresh DIR` and `inkpress refresh FILE` as real processes on stories260K:
// a folder with an unreadable file, an interrupted run taken up again, the in-place form, and
// bad input as one line.

const TARGETS = ["--keywords", "compost bin", "--avoid", "game-changer", "--seed", "5"];
const model = ["--model", STORIES_MODEL, "--threads", "1"];

/** A folder of `count` planted articles (their titles numbered) and, when asked, a file that cannot be read as one. */
async function folder(count: number, options: { broken?: boolean } = {}): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "inkpress-refresh-"));
  const { markdown } = plantedArticle();
  for (let i = 1; i <= count; i++)
    await writeFile(path.join(dir, `page-${i}.md`), markdown.replaceAll("before starting out today", `before starting out, part ${i}`));
  if (options.broken) {
    // Unreadable to anyone but root, and to root a front matter that is no YAML.
    await writeFile(path.join(dir, "broken.md"), "---\ntitle: [unclosed\n---\n\n# Broken\n\nText.\n");
    await chmod(path.join(dir, "broken.md"), 0o000);
  }
  return dir;
}

/** A running command: its stderr so far, and its exit code once its output is all read. */
function start(args: string[]): { child: ChildProcess; stderr: () => string; closed: Promise<number | null> } {
  const child = spawnInkpress(args);
  let stderr = "";
  child.stderr!.on("data", (d) => (stderr += d));
  return { child, stderr: () => stderr, closed: new Promise((resolve) => child.once("close", resolve)) };
}

const refreshed = async (dir: string) => (await readdir(dir)).filter((name) => name.endsWith(".refreshed.md")).sort();

describe.skipIf(!HAS_STORIES_MODEL)("refresh from the command line on stories260K", () => {
  it("batch --refresh: 5 files, one unreadable, give 4 refreshed files beside them and the bad one named; interrupted and run again, it finishes without redoing a file", async () => {
    const dir = await folder(4, { broken: true });
    const first = start(["batch", "--refresh", dir, ...TARGETS, ...model]);
    while (!/wrote page-1\.refreshed\.md/.test(first.stderr()) && first.child.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 100));
    first.child.kill("SIGINT");
    expect(await first.closed).toBe(130);
    expect(first.stderr()).toMatch(/^5 files: 4 to refresh, 0 already refreshed, 1 that cannot be refreshed$/m);
    expect(first.stderr()).toMatch(/^broken\.md: .+/m);
    expect(first.stderr()).toMatch(
      /^interrupted: \d refreshed, 0 skipped \(already refreshed\), 1 failed \(broken\.md\); run the same command again to refresh the rest$/m,
    );
    const done = await refreshed(dir);
    expect(done.length).toBeGreaterThanOrEqual(1);
    const mtimes = new Map(await Promise.all(done.map(async (name) => [name, (await stat(path.join(dir, name))).mtimeMs] as const)));

    const second = await runCli(["batch", "--refresh", dir, ...TARGETS, ...model]);
    expect(second.code, second.stderr).toBe(1);
    expect(second.stderr).toMatch(
      new RegExp(`^5 files: ${4 - done.length} to refresh, ${done.length} already refreshed, 1 that cannot be refreshed$`, "m"),
    );
    expect(second.stderr).toMatch(
      new RegExp(
        `^done: ${4 - done.length} refreshed, ${done.length} skipped \\(already refreshed\\), 1 failed \\(broken\\.md\\) in .+$`,
        "m",
      ),
    );
    expect(await refreshed(dir)).toEqual(["page-1.refreshed.md", "page-2.refreshed.md", "page-3.refreshed.md", "page-4.refreshed.md"]);
    for (const [name, mtime] of mtimes) expect((await stat(path.join(dir, name))).mtimeMs, name).toBe(mtime);
    for (let i = 1; i <= 4; i++) {
      const text = await readFile(path.join(dir, `page-${i}.refreshed.md`), "utf8");
      // The author's sentence holding the banned phrase is theirs: kept as written (and listed
      // unmended), and nothing the model wrote adds the phrase again.
      expect(text).toContain("The rotating drum is a real game-changer for busy cooks who compost.");
      expect(text.match(/game-changer/g)).toHaveLength(1);
      expect(text).toContain("tags: [garden, compost]");
    }
  }, 180_000);

  it("batch --refresh --in-place replaces each file and keeps the original as <file>.bak, readable as it was", async () => {
    const dir = await folder(2);
    const originals = await Promise.all([1, 2].map((i) => readFile(path.join(dir, `page-${i}.md`), "utf8")));
    await chmod(path.join(dir, "page-1.md"), 0o644);
    const result = await runCli(["batch", "--refresh", dir, "--in-place", ...TARGETS, ...model]);
    expect(result.code, result.stderr).toBe(0);
    for (const i of [1, 2]) {
      expect(await readFile(path.join(dir, `page-${i}.md.bak`), "utf8")).toBe(originals[i - 1]);
      expect(await readFile(path.join(dir, `page-${i}.md`), "utf8")).not.toBe(originals[i - 1]);
    }
    expect((await stat(path.join(dir, "page-1.md"))).mode & 0o777).toBe(0o644);
    expect(await refreshed(dir)).toEqual([]);
  }, 120_000);

  it("refresh FILE: the refreshed article on stdout or as a diff, the score on stderr; bad input is one line", async () => {
    const dir = await folder(1);
    const file = path.join(dir, "page-1.md");
    const md = await runCli(["refresh", file, ...TARGETS, ...model]);
    expect(md.code, md.stderr).toBe(0);
    expect(md.stderr).toMatch(/^score \d+ → \d+; \d+ changes \(.+\)$/m);
    expect(md.stdout).toMatch(/^---\ntitle: /);
    // A unified diff of what changed (the title only where its check fails, as --mend title allows).
    const diff = await runCli(["refresh", file, ...TARGETS, ...model, "--mend", "title", "--format", "diff"]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toMatch(/^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m);
    expect(diff.stdout).toMatch(/^[-+](?![-+]{2} )/m);
    for (const [args, message] of [
      [["refresh", path.join(dir, "missing.md")], /^inkpress: .*missing\.md: cannot read it \(ENOENT\)\n$/],
      [["refresh", file, "--format", "pdf"], /^inkpress: format must be one of md, json, diff, got "pdf"\n$/],
      [["refresh", file, "--seed", "-3"], /^inkpress: .*page-1\.md: seed: seed must be at least 0\n$/],
    ] as const) {
      const result = await runCli([...args, ...model]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
    }
  }, 120_000);
});
