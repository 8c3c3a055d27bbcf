// The CLI and a job publishing to a real WordPress (Debian's package, test/helpers/wordpress.ts),
// killed with SIGKILL right after a post was saved and before it was recorded: the next run finds
// that post (by the id the Markdown recorded, else by slug), never a second one.
import { appendFile, mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exited, spawnInkpress } from "../helpers/cli.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, runCli } from "../helpers/server.js";
import { expectKilledJobPublishesOnce } from "../helpers/publish-kill.js";
import { startWordPress, type TestWordPress } from "../helpers/wordpress.js";
import { GARDEN_SITE } from "../fixtures/garden-site.js";

interface WpPost {
  id: number;
  slug: string;
  content: { raw: string };
}

/** The front matter of a Markdown file as YAML 1.1, and the text after it. */
function frontMatter(text: string): { data: Record<string, any>; body: string } {
  const match = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  expect(match, text.slice(0, 200)).not.toBeNull();
  return { data: parse(match![1]!, { version: "1.1" }), body: match![2]! };
}

const mdFiles = async (dir: string) => (await readdir(dir)).filter((name) => name.endsWith(".md")).sort();

/** Resolves once `found` answers true, polling WordPress every 100 ms. */
async function until(found: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await found())) {
    if (Date.now() > end) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(!HAS_STORIES_MODEL)("publishing to WordPress from the CLI and jobs, across crashes", () => {
  let wp: TestWordPress;
  let dir: string;
  let environment: Record<string, string>;
  const posts = () => wp.rest<WpPost[]>("/wp/v2/posts?status=any&context=edit&per_page=100");
  const cli = (args: string[], env: Record<string, string> = {}) => runCli([...args], { ...environment, ...env });
  const batchArgs = (rows: string, out: string) => [
    "batch",
    rows,
    "--out",
    out,
    "--publish",
    "blog",
    "--model",
    STORIES_MODEL,
    "--threads",
    "1",
  ];

  beforeAll(async () => {
    wp = await startWordPress();
    dir = await mkdtemp(path.join(tmpdir(), "inkpress-publish-cli-"));
    const targets = path.join(dir, "targets.json");
    const blog = { kind: "wordpress", url: wp.url, allowPrivate: true, user: wp.admin.user, credentials: { env: "BLOG_PASSWORD" } };
    await writeFile(targets, JSON.stringify({ targets: { blog } }));
    // One data folder for every run: the records of who made which post are kept there.
    environment = { INKPRESS_PUBLISH_TARGETS: targets, BLOG_PASSWORD: wp.admin.password, INKPRESS_DATA_DIR: path.join(dir, "data") };
  }, 120_000);

  afterAll(async () => {
    await wp?.stop();
  });

  it("batch records each post's id in its file; refresh --publish updates that post, whose revision keeps the old text", async () => {
    const rows = path.join(dir, "refresh.csv");
    await writeFile(rows, "topic,length,seed\nA yellow kite,100,4\n");
    const out = path.join(dir, "refresh-out");
    const batch = await cli(batchArgs(rows, out));
    expect(batch.code, batch.stderr).toBe(0);
    const [name] = await mdFiles(out);
    const file = path.join(out, name!);
    // The author adds a paragraph by hand before the refresh, so the post's text changes: a refresh
    // only adds what its checks can keep, which on stories260K may be nothing.
    await appendFile(file, "\nThe kite was mended with tape and flew again the next windy day.\n");
    const written = await readFile(file, "utf8");
    const id = frontMatter(written).data.posts?.blog as number;
    const json = JSON.parse(await readFile(path.join(out, ".inkpress", name!.replace(/\.md$/, ".json")), "utf8"));
    expect(String(id)).toBe(json.publish.id);
    const before = await wp.rest<WpPost>(`/wp/v2/posts/${id}?context=edit`);
    const count = (await posts()).length;

    const refreshed = path.join(dir, "refreshed.md");
    const refresh = await cli([
      "refresh",
      file,
      "--publish",
      "blog",
      "--keywords",
      "yellow kite",
      "--seed",
      "5",
      "--model",
      STORIES_MODEL,
      "--threads",
      "1",
      "-o",
      refreshed,
    ]);
    expect(refresh.code, refresh.stderr).toBe(0);
    expect(refresh.stderr).toContain(`updated post ${id} on "blog"`);
    expect((await posts()).length).toBe(count);
    // The file already named its post: not a byte of it changed. The refreshed one names it too.
    expect(await readFile(file, "utf8")).toBe(written);
    expect(frontMatter(await readFile(refreshed, "utf8")).data.posts).toEqual({ blog: id });
    const after = await wp.rest<WpPost>(`/wp/v2/posts/${id}?context=edit`);
    // The post keeps its address (its slug is the row's topic, not the file's).
    expect(after.slug).toBe(before.slug);
    expect(after.content.raw).not.toBe(before.content.raw);
    const revisions = await wp.rest<{ content: { raw: string } }[]>(`/wp/v2/posts/${id}/revisions?context=edit`);
    expect(revisions.map((revision) => revision.content.raw)).toContain(before.content.raw);
  }, 300_000);

  it("inkpress publish records the post's id in a file that had none, the rest of it byte-identical", async () => {
    const file = path.join(dir, "by-hand.md");
    const body = "\n# Written by hand\n\nA short note.  Two spaces.\n";
    await writeFile(file, `---\ntitle: "Written by hand"\n# the author's comment\nslug: written-by-hand\n---\n${body}`);
    const published = await cli(["publish", file, "--to", "blog"]);
    expect(published.code, published.stderr).toBe(0);
    const [post] = await wp.rest<WpPost[]>("/wp/v2/posts?slug=written-by-hand&status=any&context=edit");
    expect(await readFile(file, "utf8")).toBe(
      `---\ntitle: "Written by hand"\n# the author's comment\nslug: written-by-hand\nposts:\n  blog: ${post!.id}\n---\n${body}`,
    );
    // A folder refresh does not publish: said in one line, rather than the flag ignored.
    const refused = await cli(["batch", "--refresh", dir, "--publish", "blog"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      "inkpress: --publish is for rows; publish a refreshed file with inkpress refresh FILE --publish TARGET",
    );
  }, 60_000);

  it("links --apply --publish updates the posts of the pages it linked, and names a linked page with no post there", async () => {
    const site = await mkdtemp(path.join(tmpdir(), "inkpress-links-publish-"));
    for (const [file, text] of Object.entries(GARDEN_SITE)) await writeFile(path.join(site, file), text);
    const review = path.join(site, "..", `${path.basename(site)}.jsonl`);
    const proposed = async () => {
      expect((await cli(["links", site, "-o", review])).code).toBe(0);
      return (await readFile(review, "utf8"))
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
    };
    const [first, second] = [...new Set((await proposed()).map((p) => p.file as string))];
    // Two linked pages: the first has a post on the target (its id then in its front matter, its lines proposed again), the second none.
    expect((await cli(["publish", path.join(site, first!), "--to", "blog"])).code).toBe(0);
    const kept = (await proposed()).filter((p) => p.file === first || p.file === second);
    await writeFile(review, kept.map((p) => `${JSON.stringify(p)}\n`).join(""));
    const applied = await cli(["links", site, "--apply", review, "--publish", "blog"]);
    expect(applied.code, applied.stderr).toBe(1);
    const id = frontMatter(await readFile(path.join(site, first!), "utf8")).data.posts.blog;
    expect(applied.stderr).toContain(`${first}: updated post ${id} on "blog"`);
    expect(applied.stderr).toContain(`inkpress: ${second}: not published, its front matter names no post on "blog"`);
    const post = await wp.rest<WpPost>(`/wp/v2/posts/${id}?context=edit`);
    for (const p of kept.filter((p) => p.file === first)) expect(post.content.raw).toContain(`href="${p.target}"`);
  }, 120_000);

  it("a batch killed (SIGKILL) after a post was saved and before its files were written, then resumed: exactly 5 posts", async () => {
    const topics = ["A green frog", "The small bell", "Snow on the roof", "A paper boat", "The quiet fox"];
    const slugs = topics.map((topic) => topic.toLowerCase().replace(/ /g, "-"));
    const rows = path.join(dir, "kill.csv");
    await writeFile(rows, `topic,length\n${topics.map((topic) => `${topic},100`).join("\n")}\n`);
    const out = path.join(dir, "kill-out");
    const ours = async () => (await posts()).filter((post) => slugs.some((slug) => post.slug.startsWith(slug)));

    // The pause holds the first publication after WordPress saved the post: the kill lands in that window.
    const child = spawnInkpress(batchArgs(rows, out), { ...environment, INKPRESS_TEST_PUBLISH_PAUSE_MS: "60000" });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    await until(async () => (await ours()).length > 0 || child.exitCode !== null);
    child.kill("SIGKILL");
    expect((await exited(child)).signal, stderr).toBe("SIGKILL");
    expect(await ours()).toHaveLength(1);
    expect(await mdFiles(out).catch(() => [])).toEqual([]);

    const resumed = await cli(batchArgs(rows, out));
    expect(resumed.code, resumed.stderr).toBe(0);
    const saved = await ours();
    expect(saved.map((post) => post.slug).sort()).toEqual([...slugs].sort());
    // Each file records its own post.
    const recorded = await Promise.all(
      (await mdFiles(out)).map(async (name) => frontMatter(await readFile(path.join(out, name), "utf8")).data.posts.blog as number),
    );
    expect(recorded.sort()).toEqual(saved.map((post) => post.id).sort());
  }, 400_000);

  it(
    "a job with publish and an Idempotency-Key, its server killed after the post was saved and before the job was done: one post",
    () =>
      expectKilledJobPublishesOnce({ environment, target: "blog", postIds: async () => (await posts()).map((post) => String(post.id)) }),
    400_000,
  );
});
