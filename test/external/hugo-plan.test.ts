// The docs' site workflow, as a new user runs it: `inkpress plan`, then `inkpress batch plan.jsonl
// --out content/posts` into a Hugo site, built with Debian's Hugo. Every internal link of the
// built HTML must reach a built page, and `inkpress audit` of the folder, with one dead link
// planted, reports exactly that link.
import { execFile } from "node:child_process";
import { appendFile, mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuditReport } from "../../src/audit/audit.js";
import { plantedKeywords } from "../helpers/planted-keywords.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, runCli } from "../helpers/server.js";

const run = promisify(execFile);

const SITE: Record<string, string> = {
  "hugo.toml": 'baseURL = "https://example.org/"\ntitle = "Brewing"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n',
  "layouts/_default/single.html": "<!doctype html>\n<html><head><title>{{ .Title }}</title></head><body>{{ .Content }}</body></html>\n",
  "layouts/_default/list.html":
    '<!doctype html>\n<html><head><title>{{ .Title }}</title></head><body>{{ range .Pages }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</body></html>\n',
};

describe.skipIf(!HAS_STORIES_MODEL)("a planned site built with Hugo", () => {
  let site: string;
  let posts: string;
  let planLinks: string[] = [];

  beforeAll(async () => {
    site = await mkdtemp(path.join(tmpdir(), "inkpress-hugo-plan-"));
    for (const [name, text] of Object.entries(SITE)) {
      await mkdir(path.dirname(path.join(site, name)), { recursive: true });
      await writeFile(path.join(site, name), text);
    }
    const csv = plantedKeywords().keywords.map((k) => `${k.keyword},${k.volume},${k.difficulty}`);
    await writeFile(path.join(site, "keywords.csv"), ["Keyword,Volume,KD", ...csv].join("\n"));
    const model = ["--model", STORIES_MODEL, "--threads", "1"];
    const plan = ["plan", "--topic", "Home garden care", "--keywords", "keywords.csv", "--length", "100", ...model, "-o", "plan.jsonl"];
    const planned = await runCli(plan, {}, site);
    expect(planned.code, planned.stderr).toBe(0);
    planLinks = (await readFile(path.join(site, "plan.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .flatMap((line) => (JSON.parse(line) as { links: Array<{ url: string }> }).links.map((link) => link.url));
    posts = path.join(site, "content/posts");
    const written = await runCli(["batch", "plan.jsonl", "--out", posts, ...model], {}, site);
    expect(written.code, written.stderr).toBe(0);
    await run("hugo", ["--source", site, "--destination", path.join(site, "public")], { timeout: 60_000 });
  }, 600_000);

  it("links only to pages Hugo built", async () => {
    const built = (await readdir(path.join(site, "public"), { recursive: true })).filter((name) => name.endsWith(".html"));
    const pages = new Set(built.map((name) => `/${name.replace(/index\.html$/, "")}`));
    const links = new Set<string>();
    for (const name of built) {
      const html = await readFile(path.join(site, "public", name), "utf8");
      for (const [, href] of html.matchAll(/<a href="([^"]+)"/g)) {
        const url = new URL(href!, `https://example.org/${name}`);
        if (url.host === "example.org") links.add(url.pathname);
      }
    }
    // The plan's links are in the pages (so this is about them, not only the list page's), and each reaches a built page.
    expect(planLinks.length).toBeGreaterThanOrEqual(6);
    expect(planLinks.filter((link) => !links.has(link))).toEqual([]);
    expect([...links].filter((link) => !pages.has(link))).toEqual([]);
  });

  it("audits the folder: no broken link, then exactly the one planted", async () => {
    const audit = async () => {
      const out = path.join(site, "audit.json");
      const result = await runCli(["audit", posts, "--out", out]);
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(await readFile(out, "utf8")) as AuditReport).brokenLinks;
    };
    expect(await audit()).toEqual([]);
    const page = (await readdir(posts)).find((name) => name.endsWith(".md"))!;
    const lines = (await readFile(path.join(posts, page), "utf8")).split("\n").length;
    await appendFile(path.join(posts, page), "\nSee also [the old guide](/posts/no-such-guide/).\n");
    expect(await audit()).toEqual([{ file: page, line: lines + 1, url: "/posts/no-such-guide/" }]);
  }, 180_000);
});
