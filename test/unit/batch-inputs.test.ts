import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { requestFromFields } from "../../src/contract/fields.js";
import { LinkSet } from "../../src/article/grounding/links.js";
import { readPage } from "../../src/article/existing/page.js";
import { csvRows } from "../../src/batch/csv.js";
import { readRows } from "../../src/batch/input.js";
import { jsonlRows } from "../../src/batch/jsonl.js";
import { readLinksFile, titleFromUrl } from "../../src/site/links-file.js";
import { markdownWithFrontMatter } from "../../src/batch/output.js";
import { parseRow, type BatchRow } from "../../src/batch/row.js";
import { readSourceFiles, sourceFromFile } from "../../src/site/source-files.js";
import { repeatedFlag } from "../../src/cli/repeated.js";

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "inkpress-inputs-"));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
  <url><loc>https://example.org/guides/compost-bins/</loc><lastmod>2026-01-01</lastmod></url>
  <url><loc> https://example.org/rain_barrels.html </loc></url>
  <url><loc>https://example.org/</loc></url>
  <url><loc>https://example.org/news/1</loc><news:news><news:title>Worm farms win a prize</news:title></news:news></url>
</urlset>`;

describe("style fields from flat fields, as the CLI and batch rows give them", () => {
  it("builds style from avoid (split on ;), voice and cliches, and leaves it out when none is given", () => {
    expect(requestFromFields({ topic: "t", avoid: "Once upon a time; so happy;; Lily ", voice: "plain", cliches: "false" })).toEqual({
      topic: "t",
      seo: {},
      style: { avoid: ["Once upon a time", "so happy", "Lily"], voice: "plain", cliches: false },
    });
    expect(requestFromFields({ topic: "t", avoid: ["a, b", "c"] })).toMatchObject({ style: { avoid: ["a, b", "c"] } });
    expect(requestFromFields({ topic: "t" })).not.toHaveProperty("style");
  });

  it("a CSV row and a JSONL row with the same style are the same request", () => {
    const [csv] = csvRows('topic,avoid,voice,cliches\nHome composting,"Once upon a time; Lily",plain British English,false\n');
    const [jsonl] = jsonlRows(
      '{"topic":"Home composting","style":{"avoid":["Once upon a time","Lily"],"voice":"plain British English","cliches":false}}\n',
    );
    const a = parseRow(csv!.line, (csv as { fields: Record<string, unknown> }).fields) as BatchRow;
    const b = parseRow(jsonl!.line, (jsonl as { fields: Record<string, unknown> }).fields) as BatchRow;
    expect(a.request.style).toEqual({ avoid: ["Once upon a time", "Lily"], voice: "plain British English", cliches: false });
    expect(a.key).toBe(b.key);
    expect(a.body.style).toEqual(a.request.style);
  });

  it("names a bad style field in the API's words", () => {
    expect(parseRow(2, { topic: "t", voice: "v".repeat(501) })).toEqual({
      line: 2,
      error: "style.voice: voice must be at most 500 characters",
    });
    expect(parseRow(2, { topic: "t", avoid: ["ok", 5] })).toMatchObject({ error: expect.stringMatching(/^style\.avoid\[1\]: /) });
    expect(jsonlRows('{"topic":"t","style":"plain"}')).toEqual([{ line: 1, error: "style: style must be an object" }]);
  });
});

describe("sources from files", () => {
  it("takes the title from front matter, else the first heading, else the file name; the url from front matter", () => {
    expect(sourceFromFile("notes/a.md", "---\ntitle: Compost notes\nurl: https://example.org/a\n---\n# Other\n\nText.")).toEqual({
      title: "Compost notes",
      url: "https://example.org/a",
      text: "# Other\n\nText.",
    });
    expect(sourceFromFile("b.md", "Intro line.\n\n# Rain barrels #\n\nText.")).toEqual({
      title: "Rain barrels",
      text: "Intro line.\n\n# Rain barrels #\n\nText.",
    });
    expect(sourceFromFile("dir/c.txt", "Plain text.")).toEqual({ title: "c", text: "Plain text." });
    expect(() => sourceFromFile("d.md", "---\n- a list\n---\nText")).toThrow("d.md: its front matter must be a mapping (title:, url:)");
  });

  it("reads CSV sources cells as files relative to the CSV, and a missing one is that row's error", async () => {
    const dir = await folder({
      "compost.md": "# Compost notes\n\nBrown leaves add carbon.",
      "barrels.txt": "Rain barrels collect water.",
      "rows.csv": "topic,sources\nHome composting,compost.md; barrels.txt\nRain barrels,missing.md\nWorms,\n",
    });
    const rows = await readRows(path.join(dir, "rows.csv"));
    expect(rows[0]).toEqual({
      line: 2,
      fields: {
        topic: "Home composting",
        sources: [
          { title: "Compost notes", text: "# Compost notes\n\nBrown leaves add carbon." },
          { title: "barrels", text: "Rain barrels collect water." },
        ],
      },
    });
    expect(rows[1]).toEqual({ line: 3, error: "sources: cannot read source missing.md: no such file" });
    expect(rows[2]).toEqual({ line: 4, fields: { topic: "Worms" } });
    const row = parseRow(2, (rows[0] as { fields: Record<string, unknown> }).fields) as BatchRow;
    expect(row.request.sources?.map((s) => s.title)).toEqual(["Compost notes", "barrels"]);
    expect(row.body.sources).toEqual(row.request.sources);
  });

  it("takes JSONL rows' sources as given, validated like the API's", async () => {
    const dir = await folder({
      "rows.jsonl":
        '{"topic":"Composting","sources":[{"title":"Notes","url":"https://example.org/n","text":"Brown leaves add carbon."}]}\n{"topic":"Composting","sources":[{"title":"Notes","url":"javascript:alert(1)","text":"x"}]}\n',
    });
    const [good, bad] = await readRows(path.join(dir, "rows.jsonl"));
    expect((parseRow(good!.line, (good as { fields: Record<string, unknown> }).fields) as BatchRow).request.sources).toEqual([
      { title: "Notes", url: "https://example.org/n", text: "Brown leaves add carbon." },
    ]);
    expect(parseRow(bad!.line, (bad as { fields: Record<string, unknown> }).fields)).toEqual({
      line: 2,
      error: "sources[0].url: url must be an absolute http(s) URL",
    });
    await expect(readSourceFiles({ paths: ["nowhere.md"], base: dir })).rejects.toThrow("cannot read source nowhere.md: no such file");
  });
});

describe("links files", () => {
  it("reads a sitemap: each <loc>, titled by news:title or the last path segment", async () => {
    const dir = await folder({ "sitemap.xml": SITEMAP });
    expect(await readLinksFile(path.join(dir, "sitemap.xml"))).toEqual([
      { url: "https://example.org/guides/compost-bins/", title: "Compost bins", keywords: [] },
      { url: "https://example.org/rain_barrels.html", title: "Rain barrels", keywords: [] },
      { url: "https://example.org/", title: "example.org", keywords: [] },
      { url: "https://example.org/news/1", title: "Worm farms win a prize", keywords: [] },
    ]);
    expect(titleFromUrl("/blog/home%20composting-tips")).toBe("Home composting tips");
  });

  it("reads CSV and JSONL files of url,title,keywords", async () => {
    const dir = await folder({
      "links.csv":
        'url,title,keywords,lastmod\n/compost-bins,How to choose a compost bin,"compost bin, tumbler",2026\nhttps://example.org/worms,Worm farms,,\n',
      "links.jsonl":
        '{"url":"/compost-bins","title":"How to choose a compost bin","keywords":["compost bin"]}\n\n{"url":"/worms","title":"Worm farms"}\n',
    });
    expect(await readLinksFile(path.join(dir, "links.csv"))).toEqual([
      { url: "/compost-bins", title: "How to choose a compost bin", keywords: ["compost bin", "tumbler"] },
      { url: "https://example.org/worms", title: "Worm farms", keywords: [] },
    ]);
    expect((await readLinksFile(path.join(dir, "links.jsonl"))).map((l) => l.url)).toEqual(["/compost-bins", "/worms"]);
  });

  it("stops on a bad page, naming the file, where and the field", async () => {
    const dir = await folder({
      "bad.csv": "url,title\n/ok,Fine\njavascript:alert(1),Evil\n",
      "index.xml":
        '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.org/a.xml</loc></sitemap></sitemapindex>',
      "broken.xml": "<urlset><url><loc>https://example.org/a</loc></urlset>",
      "links.txt": "/a",
    });
    await expect(readLinksFile(path.join(dir, "bad.csv"))).rejects.toThrow(
      /bad\.csv: line 3: url: url must be an absolute http\(s\) URL or a site path starting with \/$/,
    );
    await expect(readLinksFile(path.join(dir, "index.xml"))).rejects.toThrow(/a sitemap index; give one of the sitemaps it lists/);
    await expect(readLinksFile(path.join(dir, "broken.xml"))).rejects.toThrow(/broken\.xml: not a valid sitemap/);
    await expect(readLinksFile(path.join(dir, "links.txt"))).rejects.toThrow(/must be a sitemap \(\.xml\), a \.csv file/);
  });
});

describe("a row's links", () => {
  const set = new LinkSet([
    { url: "https://example.org/compost-bins/", title: "Compost bins", keywords: [] },
    { url: "/rain-barrels", title: "Rain barrels", keywords: [] },
    { url: "/worms", title: "Worm farms", keywords: [] },
  ]);

  it("applies the link set to every row, never linking the row's own url", () => {
    const row = parseRow(2, { topic: "Compost bins for beginners", url: "https://example.org/compost-bins" }, { links: set }) as BatchRow;
    expect(row.request.links?.map((l) => l.url)).toEqual(["/rain-barrels", "/worms"]);
    expect(row.body.links).toEqual(row.request.links);
    expect(row.body).not.toHaveProperty("url");
    const other = parseRow(3, { topic: "Worm farms", url: "/worms/" }, { links: set }) as BatchRow;
    expect(other.request.links?.map((l) => l.url)).toEqual(["https://example.org/compost-bins/", "/rain-barrels"]);
  });

  it("keeps a row's own links first, drops its own page from them, and names a bad url", () => {
    const row = parseRow(
      2,
      {
        topic: "Worms",
        url: "/a",
        links: [
          { url: "/a", title: "Self" },
          { url: "/b", title: "Bee page" },
        ],
      },
      { links: set },
    ) as BatchRow;
    expect(row.request.links?.map((l) => l.url)).toEqual(["/b", "https://example.org/compost-bins/", "/rain-barrels", "/worms"]);
    expect(parseRow(2, { topic: "Worms", url: "javascript:alert(1)" })).toEqual({
      line: 2,
      error: "url: url must be an absolute http(s) URL or a site path starting with /",
    });
    expect(parseRow(2, { topic: "Worms", links: [{ url: "javascript:x", title: "x" }] })).toEqual({
      line: 2,
      error: "links[0].url: url must be an absolute http(s) URL or a site path starting with /",
    });
  });
});

describe("front matter", () => {
  const article = (markdown: string) => ({
    created: 1_800_000_000,
    article: { title: "T", metaDescription: "D", keywords: ["k"], language: "en", markdown },
  });

  it("lists the row's sources and the row's pages the article links, in order, once each", () => {
    const markdown =
      "# T\n\nSee [compost bins](/compost-bins/) and [worms](https://example.org/worms), again [bins](/compost-bins), and [elsewhere](https://other.example/).\n";
    const text = markdownWithFrontMatter(article(markdown), "t", {
      request: {
        sources: [
          { title: "Notes", url: "https://example.org/n", text: "x" },
          { title: "Diary", text: "y" },
        ],
        links: [
          { url: "/compost-bins", title: "Compost bins", keywords: [] },
          { url: "/worms", title: "Worms", keywords: [] },
          { url: "/unused", title: "Unused", keywords: [] },
        ],
      },
    });
    const data = parse(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]!, { version: "1.1" });
    expect(data.sources).toEqual([{ title: "Notes", url: "https://example.org/n" }, { title: "Diary" }]);
    expect(data.links).toEqual(["/compost-bins", "/worms"]);
  });

  it("lists a page the article names by a bare URL, which analyse counts as a link too", () => {
    const markdown = "# T\n\nThe guide at https://example.org/worms says more, and www.example.org/bins too.\n";
    const links = [
      { url: "https://example.org/worms", title: "Worms", keywords: [] },
      { url: "http://www.example.org/bins", title: "Bins", keywords: [] },
    ];
    const text = markdownWithFrontMatter(article(markdown), "t", { request: { links } });
    const data = parse(/^---\n([\s\S]*?)\n---\n/.exec(text)![1]!, { version: "1.1" });
    expect(data.links).toEqual(["https://example.org/worms", "http://www.example.org/bins"]);
    expect(readPage({ markdown }).links.map((link) => link.url)).toEqual(["https://example.org/worms", "http://www.example.org/bins"]);
  });

  it("carries the title in the front matter alone, unless asked to keep the # Title line (--h1)", () => {
    const markdown = "# T\n\n## Part\n\nText.\n";
    expect(markdownWithFrontMatter(article(markdown), "t")).toMatch(/\n---\n\n## Part\n\nText\.\n$/);
    expect(markdownWithFrontMatter(article(markdown), "t", { h1: true })).toMatch(/\n---\n\n# T\n\n## Part\n/);
    // An article without headings has no title line to take away.
    expect(markdownWithFrontMatter(article("Text.\n"), "t")).toMatch(/\n---\n\nText\.\n$/);
  });

  it("says nothing of sources or links when the row has none", () => {
    const text = markdownWithFrontMatter(article("# T\n\n[a](/a)\n"), "t");
    expect(text).not.toMatch(/^(sources|links):/m);
  });
});

describe("repeatedFlag", () => {
  it("collects every value of a repeated flag, in both spellings, up to --", () => {
    expect(repeatedFlag(["--avoid", "a b", "--topic", "x", "--avoid=c", "--", "--avoid", "d"], "avoid")).toEqual(["a b", "c"]);
    expect(repeatedFlag(["--avoidance", "x", "--avoid"], "avoid")).toEqual([]);
  });
});
