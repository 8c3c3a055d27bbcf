import { applyPatch } from "diff";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { FakeBackend } from "../../scripts/fixtures/fake-backend.js";
import { distinctSentences } from "../../scripts/fixtures/fake-writer.js";
import { locate } from "../../src/article/existing/locate.js";
import { refreshArticle } from "../../src/article/refresh.js";
import { RefreshRequestSchema, type RefreshRequestInput, type RefreshResponse } from "../../src/contract/refresh.js";
import { textsHere } from "../../src/article/mend/reading.js";
import { readForRefresh } from "../../src/article/existing/reading.js";
import { RefreshState } from "../../src/article/mend/state.js";
import { PLANTED_CHECKS, plantedArticle } from "../../scripts/fixtures/refresh.js";

// The refresh's mending on the scripted writer: what it changes, what it keeps byte for
// byte, and what it says when it cannot mend a check.

async function refresh(input: RefreshRequestInput): Promise<RefreshResponse> {
  const backend = new FakeBackend();
  try {
    return (await refreshArticle(v.parse(RefreshRequestSchema, input), { backend })).response;
  } finally {
    await backend.dispose();
  }
}

/** Every sentence and heading of an article, as located in its text. */
const partsOf = (markdown: string) =>
  locate(markdown, "en").blocks.flatMap((block) =>
    block.kind === "paragraph" ? block.sentences.map((s) => s.text) : block.kind === "heading" ? [block.text] : [],
  );

const verdict = (report: RefreshResponse["after"], id: string) => report.checks.find((check) => check.id === id)!.passed;

describe("a refresh", () => {
  it("mends every planted failure it can without touching a sentence the author wrote, and says why the rest stays", async () => {
    const { request } = plantedArticle();
    const answer = await refresh(request);
    for (const id of PLANTED_CHECKS) {
      expect(verdict(answer.before, id), id).toBe(false);
      const reason = answer.unmended.find((u) => u.check === id)?.reason;
      if (verdict(answer.after, id) === false) expect(reason, id).toMatch(/Not mended: .+/);
      else expect(answer.changes.some((c) => c.check === id)).toBe(true);
    }
    // On the scripted model every planted failure is mended but the banned phrase, which stands in the author's sentence.
    expect(answer.unmended.length).toBeGreaterThan(0);
    for (const { check, reason } of answer.unmended) {
      expect(["avoid", "cliches"]).toContain(check);
      expect(reason).toMatch(
        /the sentence “The rotating drum is a real game-changer.*” is the author's, and a refresh never deletes or rewrites/,
      );
    }
    expect(answer.article.markdown).toContain("The rotating drum is a real game-changer for busy cooks who compost.");
    expect(answer.after.score).toBeGreaterThan(answer.before.score);
    for (const change of answer.changes) expect(answer.article.markdown).toContain(change.after);
  });

  it("keeps every sentence, heading and front matter line it does not change byte for byte", async () => {
    const { request, markdown } = plantedArticle();
    const answer = await refresh(request);
    const changed = answer.changes.map((c) => c.before).join("\n");
    const kept = partsOf(markdown).filter((part) => !changed.includes(part));
    expect(kept.length).toBeGreaterThan(40);
    for (const part of kept) expect(answer.article.markdown).toContain(part);
    const frontMatter = (text: string) =>
      text
        .split("\n---\n")[0]!
        .split("\n")
        .filter((line) => !line.startsWith("title:"));
    expect(frontMatter(answer.article.markdown)).toEqual(frontMatter(markdown));
    expect(answer.article.markdown.endsWith("\n")).toBe(true);
  });

  it("never lowers the score, and its diff turns the given Markdown into the new one", async () => {
    const { request, markdown } = plantedArticle();
    for (const seed of [1, 2, 3]) {
      const answer = await refresh({ ...request, seed });
      expect(answer.after.score).toBeGreaterThanOrEqual(answer.before.score);
      expect(applyPatch(markdown, answer.diff)).toBe(answer.article.markdown);
    }
  });

  it("keeps a file's CRLF line endings, in what it keeps and in what it adds", async () => {
    const { request, markdown } = plantedArticle();
    const crlf = markdown.replaceAll("\n", "\r\n");
    const answer = await refresh({ ...request, markdown: crlf });
    expect(answer.changes.length).toBeGreaterThan(3);
    expect(answer.article.markdown.replaceAll("\r\n", "")).not.toContain("\n");
    expect(applyPatch(crlf, answer.diff)).toBe(answer.article.markdown);
  });

  it("gives the same refresh for the same seed", async () => {
    const { request } = plantedArticle();
    const [a, b] = [await refresh(request), await refresh(request)];
    expect(a.article.markdown).toBe(b.article.markdown);
    expect(a.changes).toEqual(b.changes);
  });

  it("leaves a sentence that holds a banned phrase and a link as it is, keeps the link, and says why the banned phrase stays", async () => {
    const sentences = distinctSentences(9000);
    const body = Array.from({ length: 12 }, () => sentences.next().value).join(" ");
    const markdown = `# Compost bin care\n\nA compost bin needs air and water to work. ${body}\n\nThe [drum](/drum/) is a game-changer for cooks.\n`;
    const answer = await refresh({ markdown, seo: { keywords: "compost bin" }, style: { avoid: ["game-changer"] }, seed: 3 });
    expect(answer.article.markdown).toContain("The [drum](/drum/) is a game-changer for cooks.");
    expect(verdict(answer.after, "avoid")).toBe(false);
    expect(answer.unmended.find((u) => u.check === "avoid")?.reason).toMatch(
      /the sentence “The drum is a game-changer for cooks\.” is the author's, and a refresh never deletes or rewrites what the author wrote/,
    );
  });

  it("never rewrites a title the request gives, and says so", async () => {
    const { request } = plantedArticle();
    const title = "A title the request gives, far too long for any search result page";
    const answer = await refresh({ ...request, seo: { ...request.seo, title } });
    expect(answer.changes.some((c) => c.section === "title")).toBe(false);
    expect(answer.article.title).toBe(title);
    expect(answer.unmended.find((u) => u.check === "title-length")?.reason).toMatch(/the request gives it/);
  });

  it("keeps the title, the H1 and every heading byte for byte unless `mend` asks, and says why their checks stay", async () => {
    const { request, markdown } = plantedArticle();
    const headings = (text: string) => text.split("\n").filter((line) => line.startsWith("#") || line.startsWith("title:"));
    const answer = await refresh({ ...request, mend: [], style: { avoid: ["game-changer", "finished compost"] } });
    expect(headings(answer.article.markdown)).toEqual(headings(markdown));
    expect(answer.changes.some((c) => c.section === "title")).toBe(false);
    const why = Object.fromEntries(answer.unmended.map((u) => [u.check, u.reason]));
    expect(why["title-length"]).toMatch(
      /the title is the author's, and a refresh rewrites it only when the request's `mend` holds "title"/,
    );
    expect(why["subheading-distribution"]).toMatch(/`mend` holds "headings"/);
    expect(why.avoid).toMatch(/the heading “Using finished compost” is the author's/);
    // Asked for the title only, the title changes and the headings still do not.
    const titled = await refresh({ ...request, mend: ["title"] });
    expect(titled.changes.some((c) => c.section === "title")).toBe(true);
    expect(headings(titled.article.markdown).filter((line) => !line.startsWith("title:") && !line.startsWith("# "))).toEqual(
      headings(markdown).filter((line) => !line.startsWith("title:") && !line.startsWith("# ")),
    );
  });

  it("returns an article with nothing it mends as it was, with an empty diff, and says why what fails stays", async () => {
    const sentences = distinctSentences(7000);
    const markdown = `# Notes on keeping a garden tidy\n\n${Array.from({ length: 4 }, () => sentences.next().value).join(" ")}\n`;
    const answer = await refresh({ markdown, seed: 1 });
    expect(answer.article.markdown).toBe(markdown);
    expect(answer.changes).toEqual([]);
    expect(answer.diff).toBe("");
    expect(answer.after).toEqual(answer.before);
    const why = Object.fromEntries(answer.unmended.map((u) => [u.check, u.reason]));
    // Its sentences of garden chores (leaves, clippings, the shed) are about keeping a garden tidy by meaning: on-topic passes.
    expect(Object.keys(why).sort()).toEqual(["meta-description-length", "text-length"]);
    expect(why["text-length"]).toMatch(/only towards a requested `length`/);
    expect(why["meta-description-length"]).toMatch(/no front matter to hold a description/);
  });
});

describe("the refresh's state", () => {
  it("does not keep a change that would lower the score, and notes why against its check", async () => {
    const markdown = "# Compost bin care for small gardens\n\nA compost bin needs air and water to work well.\n";
    const state = await RefreshState.open(
      v.parse(RefreshRequestSchema, { markdown, seo: { keywords: "compost bin" }, style: { avoid: ["game-changer"] }, seed: 1 }),
      {},
      textsHere,
    );
    const at = markdown.indexOf("well.") + "well.".length;
    const change = { section: "Introduction", check: "length-target" as const, reason: "test", before: "", after: "It is a game-changer." };
    expect(await state.propose([{ start: at, end: at, text: " It is a game-changer." }], change)).toBe(false);
    expect(state.markdown).toBe(markdown);
    expect(state.changes).toEqual([]);
    expect(state.notes.get("length-target")).toMatch(/would have lowered the score from \d+ to \d+/);
  });

  it("does not keep a change that rewrites a sentence the author wrote, even one that raises the score", async () => {
    const markdown = "# Compost bin care for small gardens\n\nA bin in the shade needs air and water to work well. Turn it weekly.\n";
    const state = await RefreshState.open(
      v.parse(RefreshRequestSchema, { markdown, seo: { keywords: "compost bin" }, seed: 1 }),
      {},
      textsHere,
    );
    const sentence = "A bin in the shade needs air and water to work well.";
    const at = markdown.indexOf(sentence);
    const written = "A compost bin in the shade needs air and water to work well.";
    const change = { section: "Introduction", check: "keyword-in-introduction" as const, reason: "test", before: sentence, after: written };
    expect(
      readForRefresh({ request: state.request, options: {}, markdown: markdown.replace(sentence, written) }).report.score,
    ).toBeGreaterThan(state.report.score);
    expect(await state.propose([{ start: at, end: at + sentence.length, text: written }], change)).toBe(false);
    expect(state.markdown).toBe(markdown);
    expect(state.notes.get("keyword-in-introduction")).toMatch(/would have rewritten the author's sentence “A bin in the shade/);
    // An opening written before it keeps every sentence of the author's.
    const opening = "A compost bin turns scraps into soil.";
    expect(await state.propose([{ start: at, end: at, text: `${opening}\n\n` }], { ...change, before: "", after: opening })).toBe(true);
  });

  it("does not keep a change that removes a heading, even when the score holds", async () => {
    const markdown = "# Title of the page\n\nSome words here.\n\n## A heading\n\nMore words there.\n";
    const state = await RefreshState.open(v.parse(RefreshRequestSchema, { markdown, seed: 1, mend: ["headings"] }), {}, textsHere);
    const at = markdown.indexOf("## A heading");
    expect(
      await state.propose([{ start: at, end: at + "## A heading\n\n".length, text: "" }], {
        section: "A heading",
        check: "paragraph-length",
        reason: "test",
        before: "## A heading",
        after: "",
      }),
    ).toBe(false);
    expect(state.notes.get("paragraph-length")).toMatch(/removed headings/);
  });

  it("does not keep a change that rewrites a heading or the title the request's `mend` does not list", async () => {
    const markdown = "# Title of the page\n\nSome words here.\n\n## A heading\n\nMore words there.\n";
    const state = await RefreshState.open(v.parse(RefreshRequestSchema, { markdown, seed: 1, mend: ["title"] }), {}, textsHere);
    const at = markdown.indexOf("A heading");
    const change = { section: "A heading", check: "avoid" as const, reason: "test", before: "A heading", after: "Another heading" };
    expect(await state.propose([{ start: at, end: at + "A heading".length, text: "Another heading" }], change)).toBe(false);
    expect(state.notes.get("avoid")).toMatch(/would have rewritten the article's headings, which the request's `mend` does not list/);
    expect(await state.propose([{ start: 2, end: 7, text: "Name" }], { ...change, section: "title" })).toBe(true);
  });
});
