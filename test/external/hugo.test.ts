// `inkpress batch` output built by Debian's Hugo into a minimal site whose layout prints the
// front matter's title as the page's heading, as themes do: every page shows its title once.
import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { writeBatchSite, type SiteFile } from "../helpers/batch-site.js";
import { HAS_STORIES_MODEL } from "../helpers/server.js";

const run = promisify(execFile);

/** The site: its configuration and a layout as small as a theme's, the title printed from the front matter. */
const SITE: Record<string, string> = {
  "hugo.toml":
    'baseURL = "https://example.org/"\nlanguageCode = "en"\ntitle = "Test site"\ndisableKinds = ["taxonomy", "term", "RSS", "sitemap"]\n',
  "layouts/_default/single.html":
    '<!doctype html>\n<html lang="{{ site.LanguageCode }}"><head><title>{{ .Title }}</title></head>\n<body><article><h1>{{ .Title }}</h1>\n{{ .Content }}</article></body></html>\n',
  "layouts/_default/list.html":
    '<!doctype html>\n<html><head><title>{{ .Title }}</title></head><body>{{ range .Pages }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</body></html>\n',
};

/** Text as Hugo writes it into HTML (its html/template escaping of a title). */
const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&#34;").replace(/'/g, "&#39;");

describe.skipIf(!HAS_STORIES_MODEL)("inkpress batch output built with Hugo", () => {
  let files: SiteFile[];
  let site: string;
  let build: { stdout: string; stderr: string };
  let batch: Awaited<ReturnType<typeof writeBatchSite>>;

  beforeAll(async () => {
    batch = await writeBatchSite();
    files = batch.files;
    site = await mkdtemp(path.join(tmpdir(), "inkpress-hugo-"));
    for (const [name, text] of Object.entries(SITE)) {
      await mkdir(path.dirname(path.join(site, name)), { recursive: true });
      await writeFile(path.join(site, name), text);
    }
    // The batch's folder as it is, its answers and manifest included, as the docs tell users to write it.
    await cp(batch.dir, path.join(site, "content/posts"), { recursive: true });
    build = await run("hugo", ["--source", site, "--destination", path.join(site, "public")], { timeout: 60_000 });
  }, 300_000);

  it("builds without a warning", () => {
    expect(`${build.stdout}${build.stderr}`).not.toMatch(/WARN|ERROR/);
  });

  it("publishes none of the batch's JSON answers or its manifest, and the batch, run again into the folder, resumes", async () => {
    const published = await readdir(path.join(site, "public"), { recursive: true });
    expect(published.filter((name) => name.endsWith(".json"))).toEqual([]);
    expect(published.filter((name) => name.endsWith("index.html")).length).toBeGreaterThan(files.length);
    const again = await batch.rerun();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(new RegExp(`^done: 0 written, ${files.length} skipped \\(already written\\)`, "m"));
  }, 120_000);

  it("shows each page's title once: the layout's heading, and no second one from the Markdown", async () => {
    for (const file of files) {
      const html = await readFile(path.join(site, "public/posts", String(file.data.slug), "index.html"), "utf8");
      const body = html.slice(html.indexOf("<body>"));
      expect([...body.matchAll(/<h1[\s>]/g)], file.name).toHaveLength(1);
      expect(body.split(escapeHtml(String(file.data.title))).length - 1, file.name).toBe(1);
    }
  });
});
