// `inkpress batch` files as a static site reads them: the title once, in the front matter (site
// themes print it), the `# Title` line back only with --h1, and Markdown that markdownlint's
// default rules accept (line length aside: the model's paragraphs are one line each).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { lint } from "markdownlint/promise";
import { beforeAll, describe, expect, it } from "vitest";
import { writeBatchSite, type SiteFile } from "../helpers/batch-site.js";
import { HAS_STORIES_MODEL } from "../helpers/server.js";

describe.skipIf(!HAS_STORIES_MODEL)("inkpress batch files for static sites, on stories260K", () => {
  let dir: string;
  let files: SiteFile[];
  beforeAll(async () => {
    ({ dir, files } = await writeBatchSite());
  }, 300_000);

  it("carry the title in the front matter alone, while the JSON answer's Markdown keeps its H1 as the API's does", async () => {
    for (const file of files) {
      expect(file.data.title, file.name).toEqual(expect.any(String));
      expect(file.body, file.name).not.toMatch(/^# /m);
      const answer = JSON.parse(await readFile(path.join(dir, ".inkpress", file.name.replace(/\.md$/, ".json")), "utf8"));
      // An article without headings has none in its file either.
      if (answer.request.seo.headingTags) expect(answer.article.markdown, file.name).toMatch(/^# \S/);
      else expect(file.body, file.name).not.toMatch(/^#/m);
    }
  });

  it("pass markdownlint's default rules, line length aside", async () => {
    const results = await lint({
      strings: Object.fromEntries(files.map((file) => [file.name, file.text])),
      config: { default: true, MD013: false },
    });
    expect(results.toString()).toBe("");
    // The rule the H1 line broke counts: a file with both titles fails it.
    const doubled = await lint({
      strings: { "doubled.md": files[0]!.text.replace(/\n---\n\n/, `\n---\n\n# ${String(files[0]!.data.title)}\n\n`) },
      config: { default: true, MD013: false },
    });
    expect(doubled.toString()).toMatch(/MD025/);
  });

  it("--h1 puts the # Title line back under the front matter", async () => {
    const withH1 = await writeBatchSite(["--h1"]);
    const headed = withH1.files.filter((file) => /^## /m.test(file.body));
    expect(headed.length).toBeGreaterThan(0);
    for (const file of headed) expect(file.body, file.name).toMatch(/^# \S[^\n]*\n\n/);
  });
});
