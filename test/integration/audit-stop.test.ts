import { access, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { exited, spawnInkpress } from "../helpers/cli.js";
import { waitFor } from "../helpers/http.js";
import { runCli } from "../helpers/server.js";

// `inkpress audit` over pages whose parsing cost minutes (a lazy blockquote, an `<a` flood, HTML
// that reopens its unclosed tags paragraph after paragraph) and a long one: the lazy quote and the
// reopening HTML are refused by the parse budget before they are parsed, each other page is
// analysed on a worker thread under the analyse limit, so a page past it is named and the audit
// ends, and SIGTERM stops it while such a page is being analysed.

/** A folder of three pathological pages, a long one and an ordinary one. */
async function pathologicalSite(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "inkpress-audit-stop-"));
  await writeFile(path.join(dir, "lazy.md"), `---\ntitle: Lazy quotes\n---\n\n${"> a\nb\n".repeat(40_000)}`);
  await writeFile(path.join(dir, "flood.html"), `<html><body>${"<a".repeat(3000)}</body></html>`);
  // Each paragraph reopens every unclosed <b> before it: counted before parsing, and refused.
  await writeFile(
    path.join(dir, "reopened.html"),
    `<html><body>${Array.from({ length: 1500 }, (_, i) => `<p><b id=b${i}>bees</p>`).join("")}</body></html>`,
  );
  // Within every budget, but seconds to analyse (40,000 list items): only the time limit ends it.
  await writeFile(path.join(dir, "list.md"), `# Bees\n\n${Array.from({ length: 40_000 }, (_, i) => `- bee ${i}`).join("\n")}\n`);
  await writeFile(
    path.join(dir, "kitchen.md"),
    "---\ntitle: Cleaning a cast iron pan\nkeywords: [cast iron pan]\n---\n\n# Cleaning a cast iron pan\n\nA cast iron pan wants hot water, a stiff brush and a thin coat of oil once it is dry.\n",
  );
  return dir;
}

describe("inkpress audit over pages that take minutes to parse", () => {
  it("names a page past the analyse limit and reports the others", async () => {
    const dir = await pathologicalSite();
    const result = await runCli(["audit", dir, "--analyse-timeout", "1"]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stdout).toContain(`${path.join(dir, "list.md")}: could not be analysed within 1 s (--analyse-timeout); it was left out`);
    expect(result.stdout).toMatch(new RegExp(`${path.join(dir, "reopened.html")}: the page is too costly to parse: .*reopens`));
    expect(result.stdout).toContain(`${path.join(dir, "lazy.md")}: `);
    expect(result.stdout).toMatch(/kitchen\.md/);
  }, 120_000);

  it("stops on SIGTERM while a page is being analysed, within the shutdown grace, and writes no report", async () => {
    const dir = await pathologicalSite();
    const report = path.join(dir, "report.json");
    const child = spawnInkpress(["audit", dir, "--out", report, "--analyse-timeout", "600"], { INKPRESS_SHUTDOWN_GRACE_S: "60" });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    await waitFor(() => (/5 pages to analyse/.test(stderr) ? true : undefined), "the audit started", 60_000);
    child.kill("SIGTERM");
    const { code } = await exited(child);
    // Its own stop, not the forced exit at the end of the grace.
    expect(stderr).toMatch(/^inkpress: audit interrupted; nothing was written$/m);
    expect(stderr).not.toMatch(/did not end within/);
    expect(code).toBe(130);
    await expect(access(report)).rejects.toThrow();
  }, 120_000);
});
