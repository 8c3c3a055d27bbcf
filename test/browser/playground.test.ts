/**
 * The playground (`GET /`) in a real headless Chromium against a real server with a
 * random-weight test model: a person fills in a key and a topic, presses Generate and
 * watches the article stream in, rendered, then sees the SEO report. Model text (and a
 * hostile topic) must only ever become text. Needs /usr/bin/chromium (.ci/run installs it).
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY, ROOT, startServer, testModel, type TestServer } from "../helpers/server.js";

const CHROMIUM = "/usr/bin/chromium";
const HAS_CHROMIUM = existsSync(CHROMIUM);
const SCREENSHOT = path.join(ROOT, "test-artifacts/playground.png");
/** A topic that would run script if any model or request text reached the page as markup. */
const HOSTILE = "<img src=x onerror=window.__pwned=1>";
const TOPIC = `Composting ${HOSTILE} <script>window.__pwned=2</script>`;

if (!HAS_CHROMIUM) console.warn(`playground browser test skipped: ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run does it).`);

describe.skipIf(!HAS_CHROMIUM)("the playground in headless Chromium", () => {
  let server: TestServer;
  let context: BrowserContext;
  let profile: string;
  /** Uncaught page errors and console errors (a CSP violation shows up here). */
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer(await testModel("plain"));
    profile = await mkdtemp(path.join(tmpdir(), "inkpress-chromium-"));
    // launchPersistentContext is Playwright's way to pass a fresh --user-data-dir.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
      viewport: { width: 1360, height: 900 },
    });
  });

  afterAll(async () => {
    await context?.close();
    await server?.stop();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  async function openPlayground(): Promise<Page> {
    const page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(`console: ${message.text()}`);
    });
    const response = await page.goto(`${server.url}/`);
    expect(response?.status()).toBe(200);
    return page;
  }

  it("streams an article in, rendered as text, then shows the SEO report", async () => {
    const page = await openPlayground();
    // Record the status line as it changes, to see the article arrive while it is written.
    await page.evaluate(() => {
      const status = document.getElementById("status")!;
      const seen: string[] = ((window as any).__statuses = []);
      new MutationObserver(() => seen.push(status.textContent ?? "")).observe(status, { childList: true, characterData: true, subtree: true });
    });
    await page.fill("#f-key", API_KEY);
    await page.fill("#f-topic", TOPIC);
    await page.fill("#f-length", "150");
    await page.fill("#f-structure", "detailed");
    // No keywords: the topic is the primary keyword, so the hostile text is in the article.
    await page.click("#generate");

    await page.locator("#article h1").first().waitFor({ timeout: 90_000 });
    await page.locator("#checks li").first().waitFor({ timeout: 90_000 });
    await expect.poll(() => page.locator("#generate").isEnabled()).toBe(true);

    // The article: a title, headings and paragraphs, all from the Markdown.
    const h1 = await page.locator("#article h1").allTextContents();
    expect(h1).toHaveLength(1);
    expect(h1[0]!.trim().length).toBeGreaterThan(0);
    expect(await page.locator("#article h2").count()).toBeGreaterThan(0);
    expect(await page.locator("#article p").count()).toBeGreaterThan(1);
    expect(await page.locator("#article li").count()).toBeGreaterThan(0); // the key takeaways
    const markdown = (await page.locator("#markdown").textContent()) ?? "";
    const headingLines = markdown.split("\n").filter((line) => /^#{1,6} /.test(line)).length;
    expect(await page.locator("#article :is(h1, h2, h3, h4, h5, h6)").count()).toBe(headingLines);

    // The hostile topic is shown as the text it is, never as markup, and nothing ran.
    const text = (await page.locator("#article").textContent()) ?? "";
    expect(text).toContain(HOSTILE);
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(await page.locator("#article img, #article script").count()).toBe(0);
    expect(await page.locator("img").count()).toBe(0);
    expect(markdown).not.toContain(HOSTILE); // escaped in the Markdown; the renderer undid the escapes as text

    // It was streamed: the status said it was writing before it said done.
    const statuses: string[] = await page.evaluate(() => (window as any).__statuses);
    const writing = statuses.findIndex((s) => s.startsWith("Writing"));
    const done = statuses.findIndex((s) => s.startsWith("Done"));
    expect(writing).toBeGreaterThanOrEqual(0);
    expect(done).toBeGreaterThan(writing);

    // The SEO report: each check passed, failed or not applicable, with its message; score and word count.
    const checks = page.locator("#checks li");
    const count = await checks.count();
    expect(count).toBeGreaterThan(5);
    for (let i = 0; i < count; i++) {
      const item = checks.nth(i);
      expect(["pass", "fail", "na"]).toContain(await item.getAttribute("class"));
      expect(((await item.locator(".msg").textContent()) ?? "").length).toBeGreaterThan(0);
    }
    const score = Number(await page.locator("#score-value").textContent());
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThanOrEqual(100);
    expect(await page.locator("#checks-summary").textContent()).toMatch(/\d+ passed · \d+ failed · \d+ not applicable/);
    expect(await page.locator("#stats").textContent()).toMatch(/Words\d+ of 150/);
    expect(await page.locator("#status").textContent()).toMatch(/^Done: \d+ words/);
    expect(await page.locator("#error").isHidden()).toBe(true);

    await mkdir(path.dirname(SCREENSHOT), { recursive: true });
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("shows a wrong key's 401 readably", async () => {
    const page = await openPlayground();
    await page.fill("#f-key", "not-a-valid-key");
    await page.fill("#f-topic", "Home composting");
    await page.click("#generate");
    const error = page.locator("#error");
    await error.waitFor({ state: "visible" });
    expect(await error.locator("h2").textContent()).toBe("401 Unauthorized");
    expect(await error.textContent()).toContain("A valid API key is required in the x-api-key header.");
    expect(await error.locator("a").getAttribute("href")).toBe("/docs#unauthorized");
    expect(await page.locator("#f-key").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#article h1").count()).toBe(0);
    expect(await page.locator("#generate").isEnabled()).toBe(true);
    await page.close();
  });

  it("shows a 422's invalid fields next to the form", async () => {
    const page = await openPlayground();
    await page.fill("#f-key", API_KEY);
    await page.fill("#f-topic", "Home composting");
    await page.fill("#f-length", "50");
    await page.fill("#f-language", "xx");
    await page.click("#generate");
    const error = page.locator("#error");
    await error.waitFor({ state: "visible" });
    expect(await error.locator("h2").textContent()).toBe("422 Unprocessable Entity");
    const items = await error.locator("li").allTextContents();
    expect(items).toEqual(["length: length must be at least 100 words", "language: language must be an ISO 639-1 code such as en, de or ja"]);
    expect(await page.locator("#f-length").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#f-language").getAttribute("aria-invalid")).toBe("true");
    await page.close();
    expect(pageErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
});
