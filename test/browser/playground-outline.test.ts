/**
 * The playground's Outline first flow in a real headless Chromium against a real server with
 * a random-weight test model: ask for the outline, rename a heading in place, reorder the
 * headings from the keyboard only (Alt+ArrowDown in a heading's box, a move button pressed
 * with Enter), add and remove headings, press Write, and the article has exactly the edited
 * headings in the edited order. Needs /usr/bin/chromium (.ci/run installs it).
 */
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { ARTIFACTS, HAS_CHROMIUM, PHONE, playgroundInBrowser } from "../helpers/browser.js";
import { API_KEY } from "../helpers/server.js";

/** Ask for the outline of a 600-word article on snow days; the generate bodies the page sends, and the outline answer. */
async function outlineFirst(page: Page) {
  const sent: Array<Record<string, any>> = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/v1/generate")) sent.push(request.postDataJSON());
  });
  const answered = page.waitForResponse((response) => response.url().endsWith("/api/v1/outline")).then((response) => response.json());
  await page.fill("#f-key", API_KEY);
  await page.fill("#f-topic", "Snow days");
  await page.fill("#f-length", "600");
  await page.fill("#f-seed", "7");
  await page.fill("#f-structure", "sections");
  await page.fill("#f-seo-keywords", "snow days, sledding");
  await page.click("#outline-first");
  return { sent, answered };
}

describe.skipIf(!HAS_CHROMIUM)("the playground's outline first, in headless Chromium", () => {
  const playground = playgroundInBrowser();

  it("writes the article with the headings renamed and reordered from the keyboard", async () => {
    const page = await playground().open();
    const { sent } = await outlineFirst(page);

    const boxes = page.locator("#outline-list input");
    await boxes.first().waitFor({ timeout: 60_000 });
    expect(await page.locator("#status").textContent()).toMatch(/^Outline ready: \d+ headings\. Rename or move them, then press Write\.$/);
    expect(sent).toEqual([]); // nothing written yet
    const planned = await boxes.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
    expect(planned.length).toBeGreaterThanOrEqual(3);
    // The first heading's box has the focus and is named for a screen reader, its buttons too.
    expect(await boxes.first().evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await boxes.first().getAttribute("aria-label")).toBe(`Heading 1 of ${planned.length} (H2)`);
    const firstRow = page.locator("#outline-list li").first();
    expect(await firstRow.locator("button").first().getAttribute("aria-label")).toBe(`Move “${planned[0]}” up`);

    // Rename the first heading in place, then move it down one place with Alt+ArrowDown.
    const renamed = "Games to play in the snow";
    await boxes.first().fill(renamed);
    await page.keyboard.press("Alt+ArrowDown");
    expect(await page.locator("#status").textContent()).toBe(`Moved “${renamed}” to place 2 of ${planned.length}.`);
    expect(await boxes.nth(1).evaluate((input) => input === document.activeElement)).toBe(true); // the focus moved with it
    // Then move the last heading up with its Up button, reached by Tab and pressed with Enter.
    await boxes.last().focus();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(`Move “${planned.at(-1)}” up`);
    await page.keyboard.press("Enter");
    const edited = [planned[1]!, renamed, ...planned.slice(2)];
    edited.splice(-2, 2, edited.at(-1)!, edited.at(-2)!);
    expect(await boxes.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual(edited);
    expect(await boxes.nth(1).getAttribute("aria-label")).toBe(`Heading 2 of ${planned.length} (H2)`);
    await page.screenshot({ path: path.join(ARTIFACTS, "playground-outline-1366.png"), fullPage: true });

    await page.click("#write");
    await page.locator("#checks li").first().waitFor({ timeout: 90_000 });
    await expect.poll(() => page.locator("#write").isEnabled()).toBe(true);
    // The request carried the edited outline, and the article has exactly its headings, in its order.
    expect(sent).toHaveLength(1);
    expect(sent[0]!.outline.headings.map((h: { text: string }) => h.text)).toEqual(edited);
    expect(await page.locator("#article :is(h2, h3)").allTextContents()).toEqual(edited);
    expect(await page.locator("#article h1").textContent()).toBe(await page.locator("#outline-title").inputValue());
    expect(await page.locator("#status").textContent()).toMatch(/^Done: \d+ words/);
    expect(playground().pageErrors).toEqual([]);
    await page.close();
  });

  it("adds a heading and removes one from the keyboard, the budgets moving with them, and writes exactly those", async () => {
    const page = await playground().open();
    const { sent, answered } = await outlineFirst(page);
    const plan = (await answered).outline as { introduction: number; headings: Array<{ text: string; words: number }> };
    const boxes = page.locator("#outline-list input");
    await boxes.first().waitFor({ timeout: 60_000 });
    const planned = plan.headings.map((h) => h.text);

    // Add a heading after the first: Tab past its Up and Down buttons to +, press Enter, and type into the new box.
    await boxes.first().focus();
    for (const _ of [1, 2, 3]) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(`Add a heading after “${planned[0]}”`);
    await page.keyboard.press("Enter");
    expect(await boxes.nth(1).evaluate((input) => input === document.activeElement)).toBe(true);
    expect(await page.locator("#status").textContent()).toMatch(
      /^Added a heading after “.+” with \d+ words from “.+”\. Type its words\.$/u,
    );
    await page.keyboard.type("Building a snowman");
    // Remove the last heading with its × button, reached by Tab and pressed with Enter.
    await boxes.last().focus();
    for (const _ of [1, 2, 3, 4]) await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-label"))).toBe(`Remove “${planned.at(-1)}”`);
    await page.keyboard.press("Enter");
    expect(await page.locator("#status").textContent()).toMatch(/^Removed “.+”; its \d+ words were shared among the other headings\.$/u);
    const edited = [planned[0]!, "Building a snowman", ...planned.slice(1, -1)];
    expect(await boxes.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual(edited);

    await page.click("#write");
    await page.locator("#checks li").first().waitFor({ timeout: 90_000 });
    await expect.poll(() => page.locator("#write").isEnabled()).toBe(true);
    expect(sent).toHaveLength(1);
    const outline = sent[0]!.outline as { introduction: number; headings: Array<{ text: string; words: number }> };
    expect(outline.headings.map((h) => h.text)).toEqual(edited);
    // The budgets still add up to what was planned: the new heading's words came from another, the removed one's went to the others.
    const total = (o: typeof outline) => o.headings.reduce((n, h) => n + h.words, o.introduction);
    expect(total(outline)).toBe(total(plan));
    expect(await page.locator("#article :is(h2, h3)").allTextContents()).toEqual(edited);
    expect(await page.locator("#status").textContent()).toMatch(/^Done: \d+ words/);
    expect(playground().pageErrors).toEqual([]);
    await page.close();
  });

  it("on a 390 px phone, fits the editor on the screen, and marks the heading box a 422 names, writing nothing", async () => {
    const page = await playground().open(PHONE);
    await page.fill("#f-key", API_KEY);
    await page.fill("#f-topic", "Snow days");
    await page.fill("#f-style-avoid", "hot cocoa");
    await page.click("#outline-first");
    const boxes = page.locator("#outline-list input");
    await boxes.first().waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    expect((await boxes.first().boundingBox())!.width).toBeGreaterThan(100);
    await boxes.nth(1).fill("Hot cocoa after sledding");
    await page.click("#write");
    const error = page.locator("#error");
    await error.waitFor({ state: "visible" });
    expect(await error.locator("h2").textContent()).toBe("422 Unprocessable Entity");
    expect(await error.locator("li").first().textContent()).toMatch(/^outline\.headings\[1\]: /);
    expect(await boxes.nth(1).getAttribute("aria-invalid")).toBe("true");
    expect(await boxes.first().getAttribute("aria-invalid")).toBeNull();
    expect(await page.locator("#article h1").count()).toBe(0);
    await page.screenshot({ path: path.join(ARTIFACTS, "playground-outline-390.png"), fullPage: true });
    await page.close();
    expect(playground().pageErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
});
