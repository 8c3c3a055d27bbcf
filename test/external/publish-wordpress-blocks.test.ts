// What a WordPress reader sees of a published article, on a real WordPress (Debian's package)
// without an SEO plugin, from a real `inkpress serve` on stories260K: the body goes in as block
// markup (WordPress's own parse_blocks finds no freeform block), and the meta description and
// JSON-LD reach the public page through the must-use plugin the docs give, or the publish
// answer says the page will not show them.
import { copyFile, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Element, Nodes } from "hast";
import { fromHtml } from "hast-util-from-html";
import { toText } from "hast-util-to-text";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, tempKeysFile } from "../helpers/cli.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, startServer, type TestServer } from "../helpers/server.js";
import { startWordPress, type TestWordPress } from "../helpers/wordpress.js";

const HEAD_PLUGIN = path.resolve(import.meta.dirname, "../../docs/wordpress/inkpress-head.php");

/** Every element of a page, in document order. */
function elements(node: Nodes): Element[] {
  const own = node.type === "element" ? [node] : [];
  return "children" in node ? [...own, ...node.children.flatMap((child) => elements(child))] : own;
}

describe.skipIf(!HAS_STORIES_MODEL)("a WordPress site without an SEO plugin", () => {
  let wp: TestWordPress;
  let server: TestServer;
  let key: string;

  const generate = async (seed: number) => {
    const response = await fetch(`${server.url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({
        topic: "A kitten finds a garden",
        structure: "sections",
        length: 200,
        seed,
        seo: { keywords: "kitten garden" },
        publish: { target: "blog", status: "publish" },
      }),
    });
    const text = await response.text();
    expect(response.status, text.slice(0, 500)).toBe(200);
    return JSON.parse(text);
  };
  const page = async (url: string) => {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    return elements(fromHtml(await response.text()));
  };

  beforeAll(async () => {
    wp = await startWordPress({ seoFields: false });
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-blocks-"));
    const targets = path.join(dir, "targets.json");
    const blog = { kind: "wordpress", url: wp.url, allowPrivate: true, user: wp.admin.user, credentials: { env: "BLOG_PASSWORD" } };
    await writeFile(targets, JSON.stringify({ targets: { blog } }));
    const keysFile = await tempKeysFile();
    key = await createKey(keysFile, "writer", ["--publish-to", "blog"]);
    server = await startServer(STORIES_MODEL, {
      INKPRESS_KEYS_FILE: keysFile,
      INKPRESS_PUBLISH_TARGETS: targets,
      BLOG_PASSWORD: wp.admin.password,
      INKPRESS_DATA_DIR: path.join(dir, "data"),
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await wp?.stop();
  });

  it("the post is blocks, and the answer says the page shows no meta description or JSON-LD", async () => {
    const { article, publish } = await generate(3);
    expect(publish).toMatchObject({ target: "blog", status: "publish", created: true });
    const blocks = await wp.blocks(Number(publish.id));
    const freeform = blocks.filter((block) => block.name === null && block.html.trim() !== "");
    expect(freeform, JSON.stringify(freeform).slice(0, 300)).toEqual([]);
    expect(blocks.map((block) => block.name)).toContain("core/paragraph");
    expect(blocks.filter((block) => block.name === "core/heading").length).toBe(article.outline.length);
    expect(publish.notes).toEqual([
      expect.stringMatching(/^target "blog" shows no meta description on the post's page: the site has no SEO plugin/),
      expect.stringMatching(/^target "blog" shows no JSON-LD on the post's page: .*must-use plugin/),
    ]);
    const head = await page(publish.url);
    expect(head.some((el) => el.tagName === "meta" && el.properties.name === "description")).toBe(false);
  }, 120_000);

  it("with the docs' must-use plugin, the public page carries the answer's meta description and its JSON-LD", async () => {
    await copyFile(HEAD_PLUGIN, path.join(wp.muPlugins, "inkpress-head.php"));
    const { article, publish } = await generate(4);
    expect(publish.notes).toBeUndefined();
    const head = await page(publish.url);
    const description = head.find((el) => el.tagName === "meta" && el.properties.name === "description");
    expect(description?.properties.content).toBe(article.metaDescription);
    const scripts = head.filter((el) => el.tagName === "script" && el.properties.type === "application/ld+json").map((el) => toText(el));
    expect(scripts.map((json) => JSON.parse(json))).toContainEqual(article.jsonLd);
  }, 120_000);
});
