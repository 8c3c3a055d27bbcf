import { copyFile, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { locate } from "../../src/article/existing/locate.js";
import type { RefreshResponse } from "../../src/contract/refresh.js";
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
/**
 * Asked to mend the title, a refresh writes one in its place, or says in `unmended` that the one it
 * wrote was not kept because it lowered the score (stories260K's titles can take an article off its topic).
 */
function titleMended(answer: RefreshResponse): boolean {
  if (answer.changes.some((c) => c.section === "title")) return true;
  return answer.unmended.some(
    (u) => u.check === "title-length" && /would have lowered the score from \d+ to \d+, so it was not kept/.test(u.reason),
  );
}

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
    // "# H3" fails the title length: asked, the refresh writes a title in its place (or says why it kept none).
    expect(titleMended(answer), JSON.stringify(answer.unmended)).toBe(true);
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
    // Whether the title written was kept is the CLI test's to show (titleMended): here, nothing but the title changes.
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
    expect(titleMended(titled), JSON.stringify(titled.unmended)).toBe(true);
    if (titled.changes.some((c) => c.section === "title")) expect(titled.article.markdown).not.toMatch(/^# H3$/m);
  }, 120_000);
});

// Three articles a person wrote (test/fixtures/authored), each with faults planted: the primary
// keyword missing from the opening, the title and the meta description. A refresh may add what
// the model writes; every sentence of the author's stays byte for byte, and so does the
// description unless `mend` names it.
const AUTHORED = ["sourdough.md", "bike-commute.md", "allotment.md"].map((name) => path.join(ROOT, "test/fixtures/authored", name));

/** Every sentence of the article's paragraphs as written in its text (its span's bytes, or its words when markup splits it). */
function sentencesOf(markdown: string): string[] {
  const located = locate(markdown, "en");
  return located.blocks.flatMap((b) =>
    b.kind === "paragraph" ? b.sentences.map((s) => (s.span ? markdown.slice(s.span.start, s.span.end) : s.text)) : [],
  );
}

/** The front matter's description line. */
const descriptionLine = (markdown: string) => /^description: .*$/m.exec(markdown)?.[0];

describe.skipIf(!HAS_STORIES_MODEL)("a refresh of articles a person wrote, with planted faults, on stories260K", () => {
  it("keeps every sentence the author wrote and the description byte for byte without --mend, and lists what it could not mend", async () => {
    const answers = await Promise.all(AUTHORED.map((file) => refreshCli(file, [])));
    for (const [i, answer] of answers.entries()) {
      const markdown = await readFile(AUTHORED[i]!, "utf8");
      for (const id of ["keyword-in-introduction", "keyword-in-meta-description"])
        expect(answer.before.checks.find((c) => c.id === id)?.passed, `${AUTHORED[i]}: ${id} is planted`).toBe(false);
      const sentences = sentencesOf(markdown);
      expect(sentences.length).toBeGreaterThan(15);
      for (const sentence of sentences) expect(answer.article.markdown, AUTHORED[i]).toContain(sentence);
      expect(sentencesOf(answer.article.markdown).join("\n")).toContain(sentences.join("\n"));
      expect(descriptionLine(answer.article.markdown)).toBe(descriptionLine(markdown));
      expect(headingsOf(answer.article.markdown)).toEqual(headingsOf(markdown));
      // What changed only added words: nothing of the author's was replaced.
      for (const change of answer.changes)
        if (change.check !== "paragraph-length") expect(change.before, `${AUTHORED[i]}: ${change.check}`).toBe("");
      expect(answer.unmended.find((u) => u.check === "keyword-in-meta-description")?.reason).toMatch(
        /the description is the author's, and a refresh rewrites it only when the request's `mend` holds "description"/,
      );
      if (answer.after.checks.find((c) => c.id === "keyword-in-introduction")?.passed === false)
        expect(answer.unmended.find((u) => u.check === "keyword-in-introduction")?.reason).toMatch(/Not mended: .+/);
    }
  }, 240_000);

  it("with --mend description may write a new description, and still keeps every sentence of the author's", async () => {
    const markdown = await readFile(AUTHORED[0]!, "utf8");
    const answer = await refreshCli(AUTHORED[0]!, ["--mend", "description"]);
    for (const sentence of sentencesOf(markdown)) expect(answer.article.markdown).toContain(sentence);
    expect(headingsOf(answer.article.markdown)).toEqual(headingsOf(markdown));
    const change = answer.changes.find((c) => c.section === "description");
    if (change) expect(descriptionLine(answer.article.markdown)).not.toBe(descriptionLine(markdown));
    else expect(answer.unmended.find((u) => u.check.startsWith("keyword-in-meta") || u.check === "meta-description-length")).toBeDefined();
  }, 120_000);
});
