import { lstat, mkdir, mkdtemp, readFile, readlink, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { articleOfMarkdown } from "../../src/publish/post.js";
import { recordPost, withPostRecorded } from "../../src/publish/record.js";

const BODY = "\n# Kites\n\nA kite rises.  Two spaces kept.\n\n- one\n-   two\n";

describe("recording the post in the front matter", () => {
  it("adds posts.<target> after the other fields, every other byte unchanged, and reads back as the recorded id", () => {
    const front = `title: 'Kites: a guide'\ndescription: "How kites fly"\n# a comment the author wrote\nkeywords: [kites, wind]\n`;
    const markdown = `---\n${front}---\n${BODY}`;
    const recorded = withPostRecorded(markdown, "blog", "42");
    expect(recorded).toBe(`---\n${front}posts:\n  blog: 42\n---\n${BODY}`);
    expect(articleOfMarkdown(recorded, "blog").recordedId).toBe("42");
  });

  it("replaces the target's id in an existing posts block, keeping the other targets' and the lines after it", () => {
    const markdown = `---\ntitle: Kites\nposts:\n  news: 7\n  blog: 41\nslug: kites\n---\n${BODY}`;
    expect(withPostRecorded(markdown, "blog", "42")).toBe(`---\ntitle: Kites\nposts:\n  news: 7\n  blog: 42\nslug: kites\n---\n${BODY}`);
    const flow = `---\ntitle: Kites\nposts: { ghost: 5f0c1a2b3c4d5e6f7a8b9c0d }\n---\n${BODY}`;
    const ghost = withPostRecorded(flow, "blog", "9");
    expect(ghost).toBe(`---\ntitle: Kites\nposts:\n  ghost: "5f0c1a2b3c4d5e6f7a8b9c0d"\n  blog: 9\n---\n${BODY}`);
    expect(articleOfMarkdown(ghost, "ghost").recordedId).toBe("5f0c1a2b3c4d5e6f7a8b9c0d");
  });

  it("leaves a file that already records the id as it is, and gives one without front matter a front matter", () => {
    const markdown = `---\ntitle: Kites\nposts:\n  blog: 42\n---\n${BODY}`;
    expect(withPostRecorded(markdown, "blog", "42")).toBe(markdown);
    expect(withPostRecorded(BODY, "blog", "42")).toBe(`---\nposts:\n  blog: 42\n---\n\n${BODY}`);
    expect(withPostRecorded(`---\n---\n${BODY}`, "blog", "3")).toBe(`---\nposts:\n  blog: 3\n---\n${BODY}`);
  });

  it("an id of digits too long for a number is written as a string, so it reads back whole", () => {
    const recorded = withPostRecorded(`---\ntitle: T\n---\n${BODY}`, "ghost", "123456789012345678901234");
    expect(articleOfMarkdown(recorded, "ghost").recordedId).toBe("123456789012345678901234");
  });

  it("records in the file by replacing it whole, keeping its mode", async () => {
    const file = path.join(await mkdtemp(path.join(tmpdir(), "inkpress-record-")), "kites.md");
    await writeFile(file, `---\ntitle: Kites\n---\n${BODY}`, { mode: 0o640 });
    expect(await recordPost(file, "blog", "42")).toBe(true);
    expect(await readFile(file, "utf8")).toBe(`---\ntitle: Kites\nposts:\n  blog: 42\n---\n${BODY}`);
    expect((await stat(file)).mode & 0o777).toBe(0o640);
    expect(await recordPost(file, "blog", "42")).toBe(false);
  });

  it("keeps a CRLF file's line endings: the lines added end in CRLF, every other byte as it was", () => {
    const crlf = (text: string) => text.replace(/\n/g, "\r\n");
    const front = "title: Kites\n# kept: a comment\nslug: kites\n";
    expect(withPostRecorded(crlf(`---\n${front}---\n${BODY}`), "blog", "42")).toBe(crlf(`---\n${front}posts:\n  blog: 42\n---\n${BODY}`));
    const block = `---\ntitle: Kites\nposts:\n  news: 7\n  blog: 41\nslug: kites\n---\n${BODY}`;
    expect(withPostRecorded(crlf(block), "blog", "42")).toBe(crlf(block.replace("blog: 41", "blog: 42")));
    expect(withPostRecorded(crlf(BODY), "blog", "3")).toBe(crlf(`---\nposts:\n  blog: 3\n---\n\n${BODY}`));
  });

  it("writes through a symbolic link: the file it points to gets the record, the link stays a link", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-record-link-"));
    await mkdir(path.join(dir, "content"));
    const real = path.join(dir, "content", "kites.md");
    await writeFile(real, `---\ntitle: Kites\n---\n${BODY}`);
    const link = path.join(dir, "kites.md");
    await symlink("content/kites.md", link);
    expect(await recordPost(link, "blog", "42")).toBe(true);
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readlink(link)).toBe("content/kites.md");
    expect(await readFile(real, "utf8")).toBe(`---\ntitle: Kites\nposts:\n  blog: 42\n---\n${BODY}`);
  });
});
