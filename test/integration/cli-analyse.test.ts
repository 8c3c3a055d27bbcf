import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CHECK_IDS } from "../../src/article/report/analyse.js";
import { readme, webPage, withFrontMatter } from "../../scripts/fixtures/readmes.js";
import { runCli } from "../helpers/server.js";

// `inkpress analyse FILE`: the report of one file, its targets from its front matter and flags.

describe("inkpress analyse", () => {
  it("prints the failed checks, then the score, with the front matter's targets; --format json is the API's answer", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-analyse-"));
    const file = path.join(dir, "retry.md");
    await writeFile(
      file,
      withFrontMatter(
        {
          title: "Retrying failed operations with exponential backoff",
          description: "How to retry.",
          keywords: ["exponential backoff", "retry"],
          language: "en",
        },
        readme("retry"),
      ),
    );

    const text = await runCli(["analyse", file, "--avoid", "callback"]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^language: en \(front matter\); keywords: exponential backoff, retry \(front matter\); \d+ words$/m);
    expect(text.stdout).toMatch(/^Failed checks \(\d+\):$/m);
    expect(text.stdout).toMatch(/^ {2}No banned phrases +Found 5 banned phrases: “callback” \(5\)/m);
    expect(text.stdout).toMatch(/^ {2}Keyword in the slug +The slug “retry” does not contain the keyword slug “exponential-backoff”\.$/m);
    expect(text.stdout).toMatch(/^Score: \d+\/100 \(\d+ checks applied, \d+ did not apply\)$/m);
    expect(text.stdout.trimEnd().split("\n").at(-1)).toMatch(/^Score: /);

    const json = await runCli(["analyse", file, "--keywords", "retry", "--format", "json"]);
    expect(json.code, json.stderr).toBe(0);
    const analysis = JSON.parse(json.stdout);
    expect(analysis).toMatchObject({
      object: "analysis",
      keywords: { value: ["retry"], from: "request" },
      slug: { value: "retry", from: "file-name" },
    });
    expect(analysis.seo.checks.map((c: { id: string }) => c.id)).toEqual([...CHECK_IDS]);

    const html = path.join(dir, "retry.html");
    await writeFile(html, webPage({ title: "Retrying failed operations", description: "How to retry.", markdown: readme("retry") }));
    const fromHtml = JSON.parse((await runCli(["analyse", html, "--keywords", "retry", "--format", "json"])).stdout);
    expect(fromHtml.wordCount).toBe(analysis.wordCount);
    expect(fromHtml.title).toEqual({ value: "Retrying failed operations", from: "html" });
  });

  it("says in one line what is wrong with a file or a flag", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-analyse-"));
    const broken = path.join(dir, "broken.md");
    await writeFile(broken, "---\ntitle: [unclosed\n---\n\n# A page\n");
    for (const [args, message] of [
      [[path.join(dir, "missing.md")], /missing\.md: cannot read it \(ENOENT\)/],
      [[broken], /broken\.md: the front matter is not valid YAML/],
      [[broken, "--language", "english"], /language: language must be an ISO 639-1 code/],
      [[broken, "--format", "xml"], /format must be one of text, json/],
    ] as const) {
      const result = await runCli(["analyse", ...args]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
