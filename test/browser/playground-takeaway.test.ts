/**
 * The playground in headless Chromium, on a 1366×768 laptop screen and a 390 px phone: links
 * in a generated article are working `<a href>`s, while it streams and once it is done; an
 * error is shown right below the Generate button, in view and focused; and the Copy Markdown,
 * Copy HTML and Download .md buttons hand out exactly the answer's Markdown and HTML.
 * Screenshots go to test-artifacts/.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { ArticleResponse } from "../../src/client/index.js";
import { ARTIFACTS, HAS_CHROMIUM, LAPTOP, PHONE, playgroundInBrowser } from "../helpers/browser.js";
import { API_KEY } from "../helpers/server.js";

const LINK = "/guides/compost-bins";
const FIELDS = {
  "f-topic": "Home composting",
  "f-length": "300",
  "f-seo-keywords": "compost bin, garden waste",
  "f-links": `${LINK} How to choose a compost bin | compost bin, tumbler`,
};

/** The `done` answer of a generate stream's text. */
function doneAnswer(stream: string): ArticleResponse {
  const event = stream.split(/\n\n/).find((block) => block.startsWith("event: done\n"));
  if (!event) throw new Error(`no done event in: ${stream.slice(-300)}`);
  return JSON.parse(event.slice("event: done\ndata: ".length));
}

/**
 * Keep a copy of the generate stream's text in the page (`window.__stream`): a clone of the
 * response is read beside the one the playground reads, which still streams. The playground's
 * copy is passed on event by event, the `done` event only after the next animation frame: a
 * busy machine can deliver a whole article within one frame, and the streamed rendering (drawn
 * once a frame) is then never seen while the status says the article is being written.
 */
async function keepStreamText(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const fetchOriginal = window.fetch.bind(window);
    window.fetch = async (...args: Parameters<typeof fetch>) => {
      const response = await fetchOriginal(...args);
      if (!String(args[0]).endsWith("/api/v1/generate") || !response.body) return response;
      void response
        .clone()
        .text()
        .then((text) => ((window as any).__stream = text));
      const decoder = new TextDecoder();
      const encoder = new TextEncoder();
      let pending = "";
      const paced = response.body.pipeThrough(
        new TransformStream<Uint8Array, Uint8Array>({
          async transform(chunk, controller) {
            const blocks = (pending + decoder.decode(chunk, { stream: true })).split("\n\n");
            pending = blocks.pop()!;
            for (const block of blocks) {
              // The frame that draws the deltas before it runs first (its callback was asked for earlier).
              if (block.startsWith("event: done")) await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
              controller.enqueue(encoder.encode(`${block}\n\n`));
            }
          },
          flush(controller) {
            if (pending) controller.enqueue(encoder.encode(pending));
          },
        }),
      );
      return new Response(paced, { status: response.status, statusText: response.statusText, headers: response.headers });
    };
  });
}

/** Hrefs of links seen in the article while the status still said it was being written. */
async function watchStreamedLinks(page: Page): Promise<void> {
  await page.evaluate(() => {
    const article = document.getElementById("article")!;
    const seen: string[] = ((window as any).__streamedLinks = []);
    new MutationObserver(() => {
      if (!document.getElementById("status")!.textContent!.startsWith("Writing")) return;
      for (const link of article.querySelectorAll("a[href]")) seen.push(link.getAttribute("href")!);
    }).observe(article, { childList: true, subtree: true });
  });
}

describe.skipIf(!HAS_CHROMIUM)("the playground: links, errors and taking the article away", () => {
  const playground = playgroundInBrowser();

  for (const viewport of [LAPTOP, PHONE]) {
    const size = `${viewport.width}×${viewport.height}`;

    it(`at ${size}, links work while streaming and once done, and the buttons hand out the answer's Markdown and HTML`, async () => {
      const { server, context, open, generate, pageErrors } = playground();
      const page = await open(viewport, keepStreamText);
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
      await watchStreamedLinks(page);
      await generate(page, FIELDS);
      await expect.poll(() => page.evaluate(() => typeof (window as any).__stream)).toBe("string");
      const answer = doneAnswer(await page.evaluate(() => (window as any).__stream as string));
      expect(answer.article.html).toContain(`<a href="${LINK}">`);

      // The streamed rendering drew the link, and the finished article (the server's HTML) has it too.
      expect(await page.evaluate(() => (window as any).__streamedLinks)).toContain(LINK);
      expect(await page.locator("#article").innerHTML()).toContain(`href="${LINK}"`);
      const link = page.locator(`#article a[href="${LINK}"]`).first();
      const [tab] = await Promise.all([context.waitForEvent("page"), link.click()]);
      expect(tab.url()).toBe(`${server.url}${LINK}`);
      await tab.close();
      expect(await page.locator("#article h1").count()).toBe(1); // the article is still there

      await page.click("#copy-md");
      await expect.poll(() => page.locator("#copy-md").textContent()).toBe("Copied");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(answer.article.markdown);
      await page.click("#copy-html");
      await expect.poll(() => page.locator("#copy-html").textContent()).toBe("Copied");
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(answer.article.html);
      const [download] = await Promise.all([page.waitForEvent("download"), page.click("#download-md")]);
      expect(download.suggestedFilename()).toBe(`${answer.article.slug}.md`);
      expect(await readFile(await download.path(), "utf8")).toBe(answer.article.markdown);

      await page.screenshot({ path: path.join(ARTIFACTS, `playground-links-${viewport.width}.png`), fullPage: true });
      // The error tests' refused requests are logged by the console as 401s; nothing else may be.
      expect(pageErrors.filter((error) => !/status of 4\d\d/.test(error))).toEqual([]);
      await page.close();
    });

    it(`at ${size}, a wrong key's 401 is shown right below Generate, in view and focused`, async () => {
      const page = await playground().open(viewport);
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
      await expectInViewBelowGenerate(page, viewport);
      await page.screenshot({ path: path.join(ARTIFACTS, `playground-error-${viewport.width}.png`) });
      await page.close();
    });

    it(`at ${size}, a missing topic is shown the same way`, async () => {
      const page = await playground().open(viewport);
      await page.fill("#f-key", API_KEY);
      await page.click("#generate");
      await page.locator("#error").waitFor({ state: "visible" });
      expect(await page.locator("#error h2").textContent()).toBe("Missing topic");
      expect(await page.locator("#f-topic").getAttribute("aria-invalid")).toBe("true");
      await expectInViewBelowGenerate(page, viewport);
      await page.close();
    });
  }
});

/** The error box is focused, wholly inside the viewport, and directly below the Generate button. */
async function expectInViewBelowGenerate(page: Page, viewport: { width: number; height: number }): Promise<void> {
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("error");
  const error = (await page.locator("#error").boundingBox())!;
  const button = (await page.locator("#generate").boundingBox())!;
  expect(error.y).toBeGreaterThanOrEqual(0);
  expect(error.y + error.height).toBeLessThanOrEqual(viewport.height);
  expect(error.y).toBeGreaterThanOrEqual(button.y + button.height);
  expect(error.y - (button.y + button.height)).toBeLessThan(40);
  expect(error.x).toBeLessThan(button.x + button.width);
  expect(error.x + error.width).toBeGreaterThan(button.x);
}
