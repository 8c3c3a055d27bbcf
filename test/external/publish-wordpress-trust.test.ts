// Publishing to a WordPress that several keys share (Debian's package, test/helpers/wordpress.ts),
// from a real `inkpress serve` on stories260K and the real CLI: one article is one post, a key
// changes only its own posts, nothing a reader's browser would run reaches the site, identical
// publications at once make one post, and the file published from keeps its bytes.
import { lstat, mkdir, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, tempKeysFile } from "../helpers/cli.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, runCli, startServer, type TestServer } from "../helpers/server.js";
import { startWordPress, type TestWordPress } from "../helpers/wordpress.js";

interface WpPost {
  id: number;
  slug: string;
  status: string;
  modified_gmt: string;
  title: { raw: string };
  content: { raw: string };
  excerpt: { raw: string };
  tags: number[];
  meta: Record<string, string>;
}

/** What a reader's browser would run, were it on the page. */
const ACTIVE = /<script|onerror=|onload=|javascript:/i;

describe.skipIf(!HAS_STORIES_MODEL)("publishing to a WordPress that keys share", () => {
  let wp: TestWordPress;
  let server: TestServer;
  let dir: string;
  let environment: Record<string, string>;
  const keys: Record<"a" | "b", string> = { a: "", b: "" };

  const publish = async (markdown: string, as: "a" | "b", extra: Record<string, unknown> = {}) => {
    const response = await fetch(`${server.url}/api/v1/publish`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": keys[as] },
      body: JSON.stringify({ markdown, publish: { target: "blog", ...extra } }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const posts = () => wp.rest<WpPost[]>("/wp/v2/posts?status=any&context=edit&per_page=100");
  const saved = (id: string | number) => wp.rest<WpPost>(`/wp/v2/posts/${id}?context=edit`);

  beforeAll(async () => {
    wp = await startWordPress();
    dir = await mkdtemp(path.join(tmpdir(), "inkpress-publish-trust-"));
    const targets = path.join(dir, "targets.json");
    const blog = { kind: "wordpress", url: wp.url, allowPrivate: true, createTerms: true, user: wp.admin.user };
    const credentials = { env: "BLOG_PASSWORD" };
    // The same site twice: `adopting` lets keys take over the posts inkpress has no record of.
    await writeFile(
      targets,
      JSON.stringify({ targets: { blog: { ...blog, credentials }, adopting: { ...blog, credentials, adopt: true } } }),
    );
    const keysFile = await tempKeysFile();
    keys.a = await createKey(keysFile, "alice", ["--publish-to", "blog,adopting"]);
    keys.b = await createKey(keysFile, "bob", ["--publish-to", "blog,adopting"]);
    environment = { INKPRESS_PUBLISH_TARGETS: targets, BLOG_PASSWORD: wp.admin.password, INKPRESS_DATA_DIR: path.join(dir, "data") };
    server = await startServer(STORIES_MODEL, { INKPRESS_KEYS_FILE: keysFile, ...environment });
  }, 300_000);

  afterAll(async () => {
    await server?.stop();
    await wp?.stop();
  });

  const frost = "---\ntitle: Frost on the allotment\ndescription: What the first frost does to leeks.\n---\n\nThe leeks held.\n";
  let alicePost: WpPost;

  it("two articles without a slug make two posts, each under its title's slug", async () => {
    const one = await publish(frost, "a", { status: "publish" });
    const two = await publish("# Kites in spring\n\nA kite rises over the allotment.\n", "a");
    expect([one.status, two.status]).toEqual([200, 200]);
    expect([one.body.created, two.body.created]).toEqual([true, true]);
    expect(one.body.id).not.toBe(two.body.id);
    alicePost = await saved(one.body.id);
    expect([alicePost.slug, (await saved(two.body.id)).slug]).toEqual(["frost-allotment", "kites-spring"]);
  });

  it("another key cannot change a key's post by slug or by id, nor WordPress's own Hello world!: a 409 naming it, nothing changed", async () => {
    const before = await posts();
    const hello = before.find((post) => post.slug === "hello-world")!;
    const attempts = [
      await publish("---\ntitle: Frost, rewritten\nslug: frost-allotment\n---\n\nMine now.\n", "b", { status: "draft" }),
      await publish(`---\ntitle: Frost, rewritten\nposts:\n  blog: ${alicePost.id}\n---\n\nMine now.\n`, "b"),
      await publish("---\ntitle: Hello again\nslug: hello-world\n---\n\nOverwritten.\n", "b", { status: "draft" }),
      await publish("---\ntitle: Hello again\nslug: hello-world\n---\n\nOverwritten.\n", "a"),
    ];
    expect(attempts.map((attempt) => attempt.status)).toEqual([409, 409, 409, 409]);
    expect(attempts[0]!.body.detail).toBe(
      `target "blog" has post ${alicePost.id} "Frost on the allotment" (slug frost-allotment), which another key published; nothing was changed (publish this article under another slug)`,
    );
    expect(attempts[1]!.body.detail).toContain(`post ${alicePost.id} "Frost on the allotment"`);
    expect(attempts[2]!.body.detail).toContain(`post ${hello.id} "Hello world!" (slug hello-world), which inkpress did not publish`);
    expect(attempts[3]!.body.detail).toContain(`post ${hello.id} "Hello world!"`);
    expect(await posts()).toEqual(before);
  });

  it("the key's own post is updated by id without changing its status, which only a named status changes", async () => {
    const edited = `---\ntitle: Frost on the allotment\nposts:\n  blog: ${alicePost.id}\n---\n\nThe leeks held, and the kale.\n`;
    const updated = await publish(edited, "a");
    expect(updated.body).toMatchObject({ id: String(alicePost.id), created: false, status: "publish" });
    expect((await saved(alicePost.id)).content.raw).toContain("and the kale");
    expect((await publish(edited, "a", { status: "draft" })).body.status).toBe("draft");
  });

  it("script in seo.title and seo.description, on generate, reaches neither the post's title, excerpt nor SEO meta", async () => {
    const response = await fetch(`${server.url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": keys.a },
      body: JSON.stringify({
        topic: "A kitten in the garden",
        length: 100,
        seed: 5,
        seo: {
          title: "<script>alert(1)</script>Kittens <img src=x onerror=alert(2)>in the garden",
          description: 'A kitten<svg onload="alert(3)"> explores the garden at dawn.',
        },
        publish: { target: "blog" },
      }),
    });
    const { publish: published } = (await response.json()) as { publish: { id: string } };
    const post = await saved(published.id);
    expect([post.title.raw, post.excerpt.raw]).toEqual(["Kittens in the garden", "A kitten explores the garden at dawn."]);
    expect(post.meta._yoast_wpseo_title).toBe("Kittens in the garden");
    for (const text of [post.title.raw, post.excerpt.raw, post.content.raw, ...Object.values(post.meta)]) expect(text).not.toMatch(ACTIVE);
  }, 120_000);

  it("a javascript: link, raw HTML and tagged tags in a published article leave nothing that runs in the stored post", async () => {
    const markdown = [
      "---",
      'title: "Pruning roses <img src=x onerror=alert(1)>"',
      'description: "When to prune <script>alert(2)</script>roses."',
      "---",
      "",
      "Prune in [late winter](javascript:alert(3)) or read [the guide](https://example.com/roses).",
      "",
      '<script>alert(4)</script><img src="x" onerror="alert(5)">',
      "",
      "![a rose](javascript:alert(6))",
      "",
    ].join("\n");
    const { body } = await publish(markdown, "a", { tags: ["<b onmouseover=alert(7)>roses</b>"] });
    const post = await saved(body.id);
    expect(post.title.raw).toBe("Pruning roses");
    expect(post.content.raw).toContain('<a href="https://example.com/roses">the guide</a>');
    expect(post.content.raw).toContain("<a>late winter</a>");
    const tags = await Promise.all(post.tags.map((id) => wp.rest<{ name: string }>(`/wp/v2/tags/${id}`)));
    expect(tags.map((tag) => tag.name)).toEqual(["roses"]);
    for (const text of [post.title.raw, post.excerpt.raw, post.content.raw, ...Object.values(post.meta)]) expect(text).not.toMatch(ACTIVE);
  });

  it("4 identical publications at once make one post", async () => {
    const markdown = "---\ntitle: Mulching the beds\n---\n\nStraw, then leaves.\n";
    const answers = await Promise.all([1, 2, 3, 4].map(() => publish(markdown, "a")));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(answers.filter((answer) => answer.body.created)).toHaveLength(1);
    expect((await posts()).filter((post) => post.slug.startsWith("mulching-beds"))).toHaveLength(1);
  });

  it("a target with adopt lets a key take over a post inkpress never made, which is then that key's alone", async () => {
    const hello = "---\ntitle: Hello, gardeners\nslug: hello-world\n---\n\nWelcome to the allotment.\n";
    const adopted = await publish(hello, "a", { target: "adopting" });
    expect(adopted.body).toMatchObject({ created: false, status: "publish" });
    expect((await saved(adopted.body.id)).title.raw).toBe("Hello, gardeners");
    const other = await publish(hello, "b", { target: "adopting" });
    expect(other.status).toBe(409);
    expect(other.body.detail).toContain(`post ${adopted.body.id} "Hello, gardeners" (slug hello-world), which another key published`);
  });

  it("inkpress publish on a symlinked CRLF file records posts: in the real file, every other byte unchanged", async () => {
    await mkdir(path.join(dir, "content"));
    const real = path.join(dir, "content", "compost.md");
    const crlf = (text: string) => text.replace(/\n/g, "\r\n");
    const front = "title: Turning the compost\r\n# kept by hand\r\ndescription: Once a month.\r\n";
    const body = crlf("\n# Turning the compost\n\nOnce a month, with a fork.\n");
    await writeFile(real, `---\r\n${front}---\r\n${body}`);
    const link = path.join(dir, "compost.md");
    await symlink("content/compost.md", link);
    const cli = await runCli(["publish", link, "--to", "blog"], environment);
    expect(cli.code, cli.stderr).toBe(0);
    const [post] = await wp.rest<WpPost[]>("/wp/v2/posts?slug=turning-compost&status=any&context=edit");
    expect((await lstat(link)).isSymbolicLink()).toBe(true);
    expect(await readFile(real, "utf8")).toBe(`---\r\n${front}posts:\r\n  blog: ${post!.id}\r\n---\r\n${body}`);
  }, 60_000);
});
