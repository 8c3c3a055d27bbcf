/**
 * The playground (`GET /`) in a real headless Chromium against a real server with a
 * random-weight test model: a person fills in a key and a topic, presses Generate and
 * watches the article stream in, rendered, then reads the SEO report: beside the article
 * and in view while scrolling on a wide screen, summarised above it with the form folded
 * away on a phone. Model text (and a hostile topic) must only ever become text. Needs
 * /usr/bin/chromium (.ci/run installs it). Screenshots go to test-artifacts/; links, errors
 * and taking the article away: playground-takeaway.test.ts.
 */
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { CHECK_LABELS } from "../../src/http/pages/check-labels.js";
import { ARTIFACTS, HAS_CHROMIUM, PHONE, WIDE, playgroundInBrowser } from "../helpers/browser.js";
import { API_KEY } from "../helpers/server.js";

/** A topic that would run script if any model or request text reached the page as markup. */
const HOSTILE = "<img src=x onerror=window.__pwned=1>";
const TOPIC = `Composting ${HOSTILE} <script>window.__pwned=2</script>`;

describe.skipIf(!HAS_CHROMIUM)("the playground in headless Chromium", () => {
  const playground = playgroundInBrowser();
  const openPlayground = (viewport = WIDE): Promise<Page> => playground().open(viewport);
  const generate = (page: Page, fields: Record<string, string>) => playground().generate(page, fields);
  const pageErrors = () => playground().pageErrors;

  const box = async (page: Page, selector: string) => (await page.locator(selector).boundingBox())!;

  it("streams an article in, rendered as text, with the SEO report beside it in view while scrolling (1366 px)", async () => {
    const page = await openPlayground(WIDE);
    // No keywords: the topic is the primary keyword, so the hostile text is in the article.
    // A given title is used verbatim: the one place request text reaches the article as is.
    await generate(page, { "f-topic": TOPIC, "f-seo-title": `Composting ${HOSTILE}`, "f-length": "600", "f-structure": "detailed" });

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

    // The hostile title is shown as the text it is, never as markup, and nothing ran.
    const text = (await page.locator("#article").textContent()) ?? "";
    expect(text).toContain("<img src=x");
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(await page.locator("#article img, #article script").count()).toBe(0);
    expect(await page.locator("img").count()).toBe(0);
    expect(markdown).not.toMatch(/(?<!\\)<img/); // escaped in the Markdown; the renderer undid the escapes as text

    // It was streamed: accepted, outlined, written, then done, with the score on the done line.
    const statuses: string[] = await page.evaluate(() => (window as any).__statuses);
    const planning = statuses.indexOf("Planning the outline…");
    const writing = statuses.findIndex((s) => s.startsWith("Writing"));
    const done = statuses.findIndex((s) => s.startsWith("Done"));
    expect(planning).toBeGreaterThanOrEqual(0);
    expect(writing).toBeGreaterThan(planning);
    expect(done).toBeGreaterThan(writing);
    const score = Number(await page.locator("#score-value").textContent());
    expect(score).toBeGreaterThanOrEqual(0);
    expect(score).toBeLessThanOrEqual(100);
    expect(await page.locator("#status").textContent()).toMatch(new RegExp(`^Done: \\d+ words in [\\d.]+ s, SEO score ${score}\\.$`));

    // The report: passed and failed checks, named in words, each with its message; the
    // checks that do not apply folded away below them.
    const checks = page.locator("#checks li");
    expect(await checks.count()).toBeGreaterThan(5);
    for (const item of await checks.all()) {
      expect(["pass", "fail"]).toContain(await item.getAttribute("class"));
      const id = (await item.getAttribute("data-check")) as keyof typeof CHECK_LABELS;
      expect(await item.locator(".name").evaluate((node) => node.firstChild?.textContent)).toBe(CHECK_LABELS[id]);
      expect(((await item.locator(".msg").textContent()) ?? "").length).toBeGreaterThan(0);
    }
    // The failed checks first, counted in the report's heading, so none hides among the passes.
    const kinds = await checks.evaluateAll((items) => items.map((item) => item.className));
    const failed = kinds.filter((kind) => kind === "fail").length;
    expect(kinds).toEqual([...Array<string>(failed).fill("fail"), ...Array<string>(kinds.length - failed).fill("pass")]);
    expect(await page.locator("#failed-count").textContent()).toBe(failed ? `${failed} failed` : "none failed");
    const notApplicable = page.locator("#na-list li");
    expect(await notApplicable.count()).toBeGreaterThan(0); // no secondary keywords were given
    expect(await page.locator("#na-checks").evaluate((node) => (node as HTMLDetailsElement).open)).toBe(false);
    expect(await notApplicable.first().isVisible()).toBe(false);
    for (const item of await notApplicable.all()) expect(await item.getAttribute("class")).toBe("na");
    expect(await page.locator("#na-summary").textContent()).toMatch(/^\d+ checks? do(es)? not apply to this article$/);
    expect(await page.locator("#checks-summary").textContent()).toMatch(/^\d+ passed · \d+ failed$/);
    expect(await page.locator("#stats").textContent()).toMatch(/Words\d+ of 600/);
    expect(await page.locator("#error").isHidden()).toBe(true);

    // Beside the article, not below it; the summary bar is for narrow screens only.
    const article = await box(page, "#article");
    const report = await box(page, "#report");
    expect(report.x).toBeGreaterThanOrEqual(article.x + article.width);
    expect(report.y).toBeLessThan(article.y + article.height);
    expect(await page.locator("#summary").isVisible()).toBe(false);
    // Scrolled to the end of a long article, the report is still in view.
    expect(await page.evaluate(() => document.documentElement.scrollHeight > window.innerHeight)).toBe(true);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const scrolled = await box(page, "#report");
    expect(scrolled.y).toBeGreaterThanOrEqual(0);
    expect(scrolled.y).toBeLessThan(WIDE.height / 2);

    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(ARTIFACTS, "playground-1366.png"), fullPage: true });
    expect(pageErrors()).toEqual([]);
    await page.close();
  });

  it("on a 390 px phone, folds the form once the article streams and summarises the report above the article", async () => {
    const page = await openPlayground(PHONE);
    // The form fills more than the screen: without folding, the article would be far below.
    expect((await box(page, "#article")).y).toBeGreaterThan(PHONE.height);
    await generate(page, { "f-topic": "Composting at home", "f-length": "150" });

    expect(await page.locator("#fields").isVisible()).toBe(false);
    expect(await page.locator("#form-summary").textContent()).toBe("Composting at home · 150 words");
    expect(await page.locator("#stop").isVisible()).toBe(true);
    const article = await box(page, "#article");
    expect(article.y).toBeLessThan(PHONE.height);
    expect(article.y + article.height).toBeGreaterThan(0);

    // The summary: score, words and time, with a link to the full report below the article.
    const summary = page.locator("#summary");
    expect(await summary.isVisible()).toBe(true);
    expect((await box(page, "#summary")).y).toBeLessThan(article.y);
    const score = await page.locator("#score-value").textContent();
    expect(await page.locator("#summary-score").textContent()).toBe(score);
    expect(await page.locator("#summary-words").textContent()).toMatch(/^\d+ words$/);
    expect(await page.locator("#summary-time").textContent()).toMatch(/^[\d.]+ s$/);
    expect(await summary.locator("a").getAttribute("href")).toBe("#report");
    expect((await box(page, "#report")).y).toBeGreaterThan(article.y + article.height);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

    await page.screenshot({ path: path.join(ARTIFACTS, "playground-390.png"), fullPage: true });
    // The form opens again to change the request.
    await page.click("#unfold");
    expect(await page.locator("#fields").isVisible()).toBe(true);
    expect(pageErrors()).toEqual([]);
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
    expect(items).toEqual([
      "length: length must be at least 100 words",
      "language: language must be an ISO 639-1 code such as en, de or ja",
    ]);
    expect(await page.locator("#f-length").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#f-language").getAttribute("aria-invalid")).toBe("true");
    await page.close();
    expect(pageErrors().filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });

  it("sends the style, sources and links boxes as the request's fields, and marks the box of a bad link", async () => {
    const page = await openPlayground();
    const sent: unknown[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/v1/generate")) sent.push(request.postDataJSON());
    });
    await page.fill("#f-key", API_KEY);
    await page.fill("#f-topic", "Home composting");
    await page.fill("#f-style-avoid", "once upon a time\n\n  game-changer  ");
    await page.fill("#f-style-voice", "plain British English");
    await page.fill("#f-sources", "# Our trial\nThe heap reached 60 °C.\n---\nTurn it weekly.");
    await page.fill("#f-links", "/guides/compost-bins How to choose a compost bin | compost bin, tumbler\njavascript:alert(1) Evil page");
    await page.click("#generate");
    const error = page.locator("#error");
    await error.waitFor({ state: "visible" });
    expect(sent).toEqual([
      expect.objectContaining({
        topic: "Home composting",
        style: { avoid: ["once upon a time", "game-changer"], voice: "plain British English" },
        sources: [
          { title: "Our trial", text: "# Our trial\nThe heap reached 60 °C." },
          { title: "Pasted text 2", text: "Turn it weekly." },
        ],
        links: [
          { url: "/guides/compost-bins", title: "How to choose a compost bin", keywords: "compost bin, tumbler" },
          { url: "javascript:alert(1)", title: "Evil page" },
        ],
      }),
    ]);
    expect(await error.locator("li").allTextContents()).toEqual([
      "links[1].url: url must be an absolute http(s) URL or a site path starting with /",
    ]);
    expect(await page.locator("#f-links").getAttribute("aria-invalid")).toBe("true");
    await page.close();
  });
});
