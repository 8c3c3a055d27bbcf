import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuditReport } from "../../src/audit/audit.js";
import { runCli } from "../helpers/server.js";

// `inkpress audit` over a small site of our own whose pages link each other every way a site
// does (a site path, a path relative to the page, a file link, a full URL on the site's host,
// an index page by its folder, a front matter `url`), beside links that are not the site's
// (another host, mail, an anchor, an image): one planted link reaches no page.

const SITE = "https://garden.example";

const PAGES: Record<string, string> = {
  "index.md": "---\ntitle: Home\n---\n\nStart with [the compost guide](/guides/compost/) or [the tools](tools/).\n",
  "guides/index.md": "---\ntitle: Guides\n---\n\nEvery guide: [compost](compost.md), [pruning](./pruning/), [sowing](/seed-sowing/).\n",
  "guides/compost.md": [
    "---\ntitle: Compost\n---\n",
    "A heap wants greens and browns. See [our pruning notes](../pruning/) and [the home page](https://garden.example/).",
    "",
    "![A heap](/img/heap.png) Ask [by mail](mailto:team@garden.example) or read [the next part](#turning).",
    "",
    "## Turning",
    "",
    "Turn it monthly; [the old mulching page](/guides/mulching/) moved long ago.",
    "",
  ].join("\n"),
  "guides/pruning.md": `---\ntitle: Pruning\n---\n\nCut back in late winter. More at [${SITE}/guides/compost/](${SITE}/guides/compost/) and [elsewhere](https://other.example/x/).\n`,
  "tools.html":
    '<html><head><title>Tools</title></head><body><main><p>A fork and a <a href="/guides/">set of guides</a>.</p></main></body></html>\n',
  "sowing.md": "---\ntitle: Sowing\nurl: /seed-sowing/\n---\n\nSow thinly, then read [the compost guide](/guides/compost/).\n",
};

describe("inkpress audit: broken links", () => {
  let dir: string;
  let report: AuditReport;
  let stdout: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "inkpress-links-"));
    for (const [file, text] of Object.entries(PAGES)) {
      await mkdir(path.join(dir, path.dirname(file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    const sitemap = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${SITE}/</loc></url></urlset>\n`;
    await writeFile(path.join(dir, "sitemap.xml"), sitemap);
    const out = path.join(dir, "report.json");
    const result = await runCli(["audit", dir, "--links", path.join(dir, "sitemap.xml"), "--out", out]);
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.code).toBe(0);
    stdout = result.stdout;
    report = JSON.parse(await readFile(out, "utf8"));
  });

  it("reports exactly the planted link that reaches no page, with its page and line", () => {
    expect(report.brokenLinks).toEqual([{ file: "guides/compost.md", line: 11, url: "/guides/mulching/" }]);
    expect(stdout).toContain("Broken links");
    expect(stdout).toContain("guides/compost.md:11  /guides/mulching/");
  });

  it("finds a link broken once the page it reached is gone, and names every page linking it", async () => {
    const moved = await mkdtemp(path.join(tmpdir(), "inkpress-links-"));
    for (const [file, text] of Object.entries(PAGES)) {
      if (file === "guides/pruning.md") continue;
      await mkdir(path.join(moved, path.dirname(file)), { recursive: true });
      await writeFile(path.join(moved, file), text);
    }
    const out = path.join(moved, "report.json");
    expect((await runCli(["audit", moved, "--out", out])).code).toBe(0);
    const found = (JSON.parse(await readFile(out, "utf8")) as AuditReport).brokenLinks.map((link) => `${link.file} ${link.url}`);
    expect(found).toEqual(["guides/compost.md ../pruning/", "guides/compost.md /guides/mulching/", "guides/index.md ./pruning/"]);
  });

  it("with --base-path, reads a folder served under a path: its pages' site paths reach them", async () => {
    const posts = await mkdtemp(path.join(tmpdir(), "inkpress-links-"));
    await writeFile(path.join(posts, "heap.md"), "---\ntitle: Heap\n---\n\nRead [the mulch page](/posts/mulch/) next.\n");
    await writeFile(
      path.join(posts, "mulch.md"),
      "---\ntitle: Mulch\n---\n\nBack to [the heap](../heap/) or [a lost page](/posts/gone/).\n",
    );
    const audit = async (flags: string[]) => {
      const out = path.join(posts, "report.json");
      expect((await runCli(["audit", posts, ...flags, "--out", out])).code).toBe(0);
      return JSON.parse(await readFile(out, "utf8")) as AuditReport;
    };
    const served = await audit(["--base-path", "posts"]);
    expect(served.pages.map((page) => page.url)).toEqual(["/posts/heap/", "/posts/mulch/"]);
    expect(served.brokenLinks.map((link) => link.url)).toEqual(["/posts/gone/"]);
    expect(served.orphans).toEqual([]);
    // Read as the site's root, the same links all miss.
    expect((await audit([])).brokenLinks.map((link) => link.url)).toEqual(["/posts/mulch/", "/posts/gone/"]);
  });
});
