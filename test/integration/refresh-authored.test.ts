import { copyFile, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { locate } from "../../src/article/existing/locate.js";
import type { RefreshResponse } from "../../src/article/wire/refresh.js";
import { API_KEY, HAS_STORIES_MODEL, ROOT, runCli, STORIES_MODEL, storiesServer } from "../helpers/server.js";

// What the author wrote stays theirs: `inkpress refresh` and POST /api/v1/refresh, on
// stories260K, of human READMEs from node_modules keep the title, the H1 and every heading
// byte for byte unless the request's `mend` names them.

const NAMES = ["h3/README.md", "valibot/README.md", "citty/README.md"];
const READMES = NAMES.map((name) => path.join(ROOT, "node_modules", name));
const model = ["--model", STORIES_MODEL, "--threads", "1"];

/** The title and every heading as written: the front matter's title line, the H1 and each heading line. */
function headingsOf(markdown: string): string[] {
  const located = locate(markdown, "en");
  const at = (span: { start: number; end: number } | undefined) => (span ? markdown.slice(span.start, span.end) : "");
  return [
    at(located.frontMatter?.title),
    at(located.h1?.span),
    ...located.blocks.flatMap((b) => (b.kind === "heading" ? [`${b.depth} ${at(b.span)}`] : [])),
  ];
}

/** The refresh answer of a README refreshed by the command line, with these extra flags. */
async function refreshCli(readme: string, flags: string[]): Promise<RefreshResponse> {
  const dir = await mkdtemp(path.join(tmpdir(), "inkpress-authored-"));
  const file = path.join(dir, "README.md");
  await copyFile(readme, file);
  const result = await runCli(["refresh", file, "--format", "json", "--seed", "3", ...flags, ...model]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as RefreshResponse;
}

describe.skipIf(!HAS_STORIES_MODEL)("a refresh of a human README on stories260K", () => {
  const server = storiesServer();

  it.each(NAMES)(
    "inkpress refresh of %s keeps every heading byte for byte without --mend",
    async (name) => {
      const readme = path.join(ROOT, "node_modules", name);
      const markdown = await readFile(readme, "utf8");
      const answer = await refreshCli(readme, []);
      expect(headingsOf(answer.article.markdown)).toEqual(headingsOf(markdown));
      expect(answer.diff).not.toMatch(/^[-+]#/m);
      for (const id of ["title-length", "subheading-distribution"]) {
        if (answer.after.checks.find((c) => c.id === id)?.passed === false)
          expect(answer.unmended.find((u) => u.check === id)?.reason, id).toMatch(/`mend` holds/);
      }
    },
    120_000,
  );

  it("with --mend title the title may change, and the other headings still do not", async () => {
    const markdown = await readFile(READMES[0]!, "utf8");
    const answer = await refreshCli(READMES[0]!, ["--mend", "title"]);
    // "# H3" fails the title length: asked, the refresh writes a title in its place.
    expect(answer.changes.map((c) => c.section)).toContain("title");
    expect(headingsOf(answer.article.markdown).slice(2)).toEqual(headingsOf(markdown).slice(2));
    const bad = await runCli(["refresh", READMES[0]!, "--mend", "title,body", ...model]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^inkpress: .*README\.md: mend\[1\]: mend holds only "title", "description" and "headings"\n$/);
  }, 120_000);

  it("batch --refresh passes --mend on to every file: asked for the title, it changes only the title", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-authored-"));
    await copyFile(READMES[0]!, path.join(dir, "h3.md"));
    const result = await runCli(["batch", "--refresh", dir, "--mend", "title", "--seed", "3", ...model]);
    expect(result.code, result.stderr).toBe(0);
    const [before, after] = [await readFile(READMES[0]!, "utf8"), await readFile(path.join(dir, "h3.refreshed.md"), "utf8")];
    expect(headingsOf(after)[1]).not.toBe(headingsOf(before)[1]);
    expect(headingsOf(after).slice(2)).toEqual(headingsOf(before).slice(2));
  }, 120_000);

  it('POST /api/v1/refresh keeps the headings without mend, and may change the title with mend: ["title"]', async () => {
    const markdown = await readFile(READMES[0]!, "utf8");
    const post = async (body: object) => {
      const response = await fetch(`${server().url}/api/v1/refresh`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": API_KEY },
        body: JSON.stringify({ markdown, seed: 3, ...body }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as RefreshResponse;
    };
    const kept = await post({});
    expect(headingsOf(kept.article.markdown)).toEqual(headingsOf(markdown));
    expect(kept.unmended.find((u) => u.check === "title-length")?.reason).toMatch(
      /the title is the author's, and a refresh rewrites it only when the request's `mend` holds "title"/,
    );
    const titled = await post({ mend: ["title"] });
    expect(titled.changes.map((c) => c.section)).toContain("title");
    expect(titled.article.markdown).not.toMatch(/^# H3$/m);
  }, 120_000);
});
