import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuditReport } from "../../src/audit/audit.js";
import { readme, readmePackages, withFrontMatter } from "../../scripts/fixtures/readmes.js";
import { runCli } from "../helpers/server.js";

// `inkpress audit` over a folder of 200 Markdown pages made from README files of packages in
// node_modules (real prose), linked to one another as a site is, with planted faults: two
// pages on one primary keyword, three near-duplicate pages, an orphan page and a page with a
// banned phrase. Packages of one family share a README template (micromark-*, hast-util-*, is-decimal…), and a
// scoped fork shares its original's, so they are not taken as unrelated pages.

const FAMILY =
  /^(micromark-|hast-util-|mdast-util-|unist-util-|rehype-|remark-|character-|is-(alphabetical|alphanumerical|decimal|hexadecimal)$|.*-separated-tokens$|@types\/)/;
const SITE = "https://example.com";

interface Planned {
  dir: string;
  files: string[];
  nearDuplicates: string[];
  sameKeyword: string[];
  orphan: string;
  banned: string;
}

/** Edit every fifth sentence of a text, as a page rewritten in places. */
const editSentences = (text: string) =>
  text.replace(/([^.\n]{20,}?)\. /g, (sentence, body: string, offset: number) => (offset % 5 === 0 ? `${body} in practice. ` : sentence));

async function plantSite(): Promise<Planned> {
  const dir = await mkdtemp(path.join(tmpdir(), "inkpress-audit-"));
  const all = readmePackages(100).filter((name) => !FAMILY.test(name));
  // A scoped fork (`@redocly/ajv`) carries its original's README: one of the two is enough.
  const unscoped = (name: string) => name.replace(/^@[^/]+\//, "");
  const packages = all.filter((name, i) => all.findIndex((other) => unscoped(other) === unscoped(name)) === i).slice(0, 198);
  expect(packages.length, "README files of unrelated packages in node_modules").toBe(198);
  const file = (name: string, i: number) => `${i % 2 ? "blog" : "guides"}/${name.replace("/", "-")}.md`;
  const pages = packages.map((name, i) => ({ file: file(name, i), keywords: [name], body: readme(name) }));
  // Three near-duplicates: a page, the same page rewritten in places, and it again with a paragraph more.
  const original = pages[60]!;
  pages.push({ file: "guides/copy-rewritten.md", keywords: ["rewritten copy"], body: editSentences(original.body) });
  pages.push({
    file: "blog/copy-extended.md",
    keywords: ["extended copy"],
    body: `${original.body}\n\nOne more paragraph closes this page, with a few words of its own about what comes next.\n`,
  });
  // Two pages on one primary keyword (its case differs).
  pages[10]!.keywords = ["compost bins", "garden"];
  pages[20]!.keywords = ["Compost Bins"];
  // A banned phrase.
  pages[30]!.body = `This release is a real game-changer for teams.\n\n${pages[30]!.body}`;
  const orphan = pages[40]!;
  // Every page but the orphan is linked from the page before it, as a site path, a full URL or a relative file link.
  const linked = pages.filter((page) => page !== orphan);
  const address = (page: { file: string }) => `/${page.file.replace(/\.md$/, "/")}`;
  const linkTo = (from: { file: string }, to: { file: string }, i: number) =>
    [address(to), `${SITE}${address(to)}`, path.posix.relative(path.posix.dirname(from.file), to.file)][i % 3]!;
  for (const [i, page] of pages.entries()) {
    const next = linked[(linked.indexOf(page) + 1) % linked.length]!;
    const links = [`- [Next page](${linkTo(page, page === orphan ? pages[0]! : next, i)})`];
    // A link to the orphan's path on another site is not a link within this one.
    if (i === 0) links.push(`- [Elsewhere](https://other.example${address(orphan)})`);
    await mkdir(path.join(dir, path.dirname(page.file)), { recursive: true });
    await writeFile(
      path.join(dir, page.file),
      withFrontMatter(
        { title: `About ${page.keywords[0]}`, keywords: page.keywords },
        `${page.body}\n\n## See also\n\n${links.join("\n")}\n`,
      ),
    );
  }
  const sitemap = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${pages.map((page) => `<url><loc>${SITE}${address(page)}</loc></url>`).join("\n")}\n</urlset>\n`;
  await writeFile(path.join(dir, "sitemap.xml"), sitemap);
  return {
    dir,
    files: pages.map((page) => page.file),
    nearDuplicates: [original.file, "guides/copy-rewritten.md", "blog/copy-extended.md"].sort(),
    sameKeyword: [pages[10]!.file, pages[20]!.file].sort(),
    orphan: orphan.file,
    banned: pages[30]!.file,
  };
}

describe("inkpress audit on 200 pages with planted faults", () => {
  let site: Planned;
  let report: AuditReport;
  let stdout: string;
  let stderr: string;

  beforeAll(async () => {
    site = await plantSite();
    const out = path.join(site.dir, "report.json");
    const result = await runCli([
      "audit",
      site.dir,
      "--out",
      out,
      "--links",
      path.join(site.dir, "sitemap.xml"),
      "--avoid",
      "game-changer",
    ]);
    expect(result.code, result.stderr).toBe(0);
    ({ stdout, stderr } = result);
    report = JSON.parse(await readFile(out, "utf8")) as AuditReport;
  }, 300_000);

  it("analyses every page, with its score and failed checks", () => {
    expect(report.unreadable).toEqual([]);
    expect(report.pages.map((page) => page.file).sort()).toEqual([...site.files].sort());
    for (const page of report.pages) {
      expect(page.score).toBeGreaterThanOrEqual(0);
      expect(page.score).toBeLessThan(100);
      expect(page.failed.length).toBeGreaterThan(0);
    }
    expect(report.failures[0]!.pages).toBeGreaterThanOrEqual(report.failures.at(-1)!.pages);
    expect(stderr).toMatch(/^200 pages to analyse$/m);
    expect(stderr).toMatch(/analysed 200\/200 pages in /);
  });

  it("finds the two pages on one primary keyword, and no other", () => {
    expect(report.cannibalised).toEqual([{ keyword: "compost bins", files: site.sameKeyword }]);
  });

  it("finds the three near-duplicate pages, and no near-duplicate among the unrelated pages", () => {
    expect(report.nearDuplicates.map((group) => group.files.sort())).toEqual([site.nearDuplicates]);
    expect(report.nearDuplicates[0]!.similarity).toBeGreaterThanOrEqual(report.threshold);
  });

  it("finds the orphan page: links written as site paths, full URLs of the site and relative files all count, a link from another site does not", () => {
    expect(report.orphans).toEqual([site.orphan]);
  });

  it("finds the page with a banned phrase", () => {
    expect(report.pages.filter((page) => page.failed.includes("avoid")).map((page) => page.file)).toEqual([site.banned]);
  });

  it("prints the summary, and writes a CSV row per page", async () => {
    expect(stdout).toMatch(/^200 pages analysed, mean score \d+\/100$/m);
    expect(stdout).toContain("Most frequent failures:");
    expect(stdout).toContain(`“compost bins”: ${site.sameKeyword.join(", ")}`);
    expect(stdout).toContain(site.orphan);
    const csv = path.join(site.dir, "report.csv");
    const result = await runCli([
      "audit",
      site.dir,
      "--out",
      csv,
      "--links",
      path.join(site.dir, "sitemap.xml"),
      "--avoid",
      "game-changer",
    ]);
    expect(result.code, result.stderr).toBe(0);
    const rows = parse(await readFile(csv, "utf8"), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(200);
    expect(rows.find((row) => row.file === site.banned)!.failed!.split(";")).toContain("avoid");
    expect(rows.filter((row) => row.orphan === "yes").map((row) => row.file)).toEqual([site.orphan]);
  }, 300_000);
});
