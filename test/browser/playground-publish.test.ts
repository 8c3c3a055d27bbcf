/**
 * The playground's "Publish as draft" in a real headless Chromium against a real server (a
 * random-weight test model) and a real WordPress (Debian's package, test/helpers/wordpress.ts):
 * offered only to a key given a target, it saves a draft and shows the post's link.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { HAS_CHROMIUM, playgroundInBrowser } from "../helpers/browser.js";
import { createKey, tempKeysFile } from "../helpers/cli.js";
import { API_KEY } from "../helpers/server.js";
import { startWordPress, type TestWordPress } from "../helpers/wordpress.js";

describe.skipIf(!HAS_CHROMIUM)("the playground's Publish as draft, in headless Chromium, to a real WordPress", () => {
  let wp: TestWordPress | undefined;
  let key = "";
  const playground = playgroundInBrowser(async () => {
    wp = await startWordPress();
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-playground-publish-"));
    const targets = path.join(dir, "targets.json");
    const blog = { kind: "wordpress", url: wp.url, allowPrivate: true, user: wp.admin.user, credentials: { env: "BLOG_PASSWORD" } };
    await writeFile(targets, JSON.stringify({ targets: { blog } }));
    const keysFile = await tempKeysFile();
    key = await createKey(keysFile, "editor", ["--publish-to", "blog"]);
    return { INKPRESS_PUBLISH_TARGETS: targets, BLOG_PASSWORD: wp.admin.password, INKPRESS_KEYS_FILE: keysFile };
  });
  afterAll(async () => {
    await wp?.stop();
  });

  it("a key with a target publishes the article as a draft and sees its link; a key without one is offered nothing", async () => {
    const page = await playground().open();
    await playground().generate(page, { "f-topic": "A lighthouse keeper", "f-length": "150", "f-seed": "3" }, key);
    const button = page.locator("#publish-draft");
    await button.waitFor({ state: "visible", timeout: 30_000 });
    expect(await button.textContent()).toBe("Publish as draft to blog");
    const title = await page.locator("#article h1").first().textContent();
    const all = () =>
      wp!.rest<{ id: number; link: string; status: string; title: { raw: string } }[]>("/wp/v2/posts?status=any&context=edit");
    // WordPress's own "Hello world!" post is there from the install.
    const before = (await all()).map((post) => post.id);
    await button.click();
    const link = page.locator("#publish-result a");
    await link.waitFor({ timeout: 60_000 });
    const posts = (await all()).filter((post) => !before.includes(post.id));
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({ status: "draft", title: { raw: title } });
    expect(await link.getAttribute("href")).toBe(posts[0]!.link);
    expect(await page.locator("#publish-result").textContent()).toBe(`Draft saved on blog: ${posts[0]!.link}`);

    // The key every test server accepts has no target: no offer.
    await playground().generate(page, { "f-topic": "A lighthouse keeper", "f-length": "150", "f-seed": "4" }, API_KEY);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await button.isVisible()).toBe(false);
    expect(playground().pageErrors).toEqual([]);
    await page.close();
  });
});
