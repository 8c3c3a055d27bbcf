/**
 * The playground's Check an article tab in a real headless Chromium against a real server: the
 * tabs work from the keyboard as WAI-ARIA tabs; a pasted README from node_modules gets the
 * report that `POST /api/v1/analyse` answers for the same body (score, every check's verdict
 * and message, figures, outline, the title found in it), in the Generate tab's report view;
 * and a refused request (422, 401, an empty article) is shown below the Check button with
 * its fields named and marked. Screenshots go to test-artifacts/.
 */
import path from "node:path";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { AnalysisResponse } from "../../src/client/index.js";
import { ARTIFACTS, HAS_CHROMIUM, PHONE, WIDE, playgroundInBrowser } from "../helpers/browser.js";
import { readme } from "../../scripts/fixtures/readmes.js";
import { API_KEY } from "../helpers/server.js";

/** Real prose: remark-parse's README, as a textarea holds it (LF line ends). */
const MARKDOWN = readme("remark-parse").replace(/\r\n?/g, "\n");
const KEYWORDS = "markdown, syntax tree";

/** The analyse answer for a body, asked for over HTTP beside the page. */
async function analyse(url: string, body: unknown): Promise<AnalysisResponse> {
  const response = await fetch(`${url}/api/v1/analyse`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": API_KEY },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as AnalysisResponse;
}

/** The request bodies the page sends to analyse. */
function recordAnalyseBodies(page: Page): unknown[] {
  const sent: unknown[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/v1/analyse")) sent.push(request.postDataJSON());
  });
  return sent;
}

/** Which tab is selected, which is in the Tab order, which panel shows, and where the focus is. */
const tabState = (page: Page) =>
  page.evaluate(() => ({
    selected: [...document.querySelectorAll('[role="tab"][aria-selected="true"]')].map((tab) => tab.id),
    tabbable: [...document.querySelectorAll('[role="tab"]')].filter((tab) => (tab as HTMLElement).tabIndex === 0).map((tab) => tab.id),
    shown: [...document.querySelectorAll('[role="tabpanel"]')].filter((panel) => !(panel as HTMLElement).hidden).map((panel) => panel.id),
    focused: document.activeElement?.id,
    hash: location.hash,
  }));

/** Open the Check tab by keyboard, fill in the key and the fields (by control id), press Check and wait for the report. */
async function check(page: Page, fields: Record<string, string>): Promise<void> {
  await page.focus("#tab-generate");
  await page.keyboard.press("ArrowRight");
  await page.fill("#f-key", API_KEY);
  for (const [id, value] of Object.entries(fields)) await page.fill(`#${id}`, value);
  await page.click("#check");
}

describe.skipIf(!HAS_CHROMIUM)("the playground's Check an article tab", () => {
  const playground = playgroundInBrowser();

  it("switches tabs from the keyboard, as WAI-ARIA tabs do", async () => {
    const page = await playground().open(WIDE);
    expect(await tabState(page)).toEqual({
      selected: ["tab-generate"],
      tabbable: ["tab-generate"],
      shown: ["panel-generate"],
      focused: "",
      hash: "",
    });
    await page.focus("#tab-generate");
    await page.keyboard.press("ArrowRight");
    expect(await tabState(page)).toEqual({
      selected: ["tab-check"],
      tabbable: ["tab-check"],
      shown: ["panel-check"],
      focused: "tab-check",
      hash: "#check",
    });
    // Tab leaves the tab list for the panel's first control (the key is before the tabs).
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("c-markdown");
    await page.focus("#tab-check");
    for (const [key, tab] of [
      ["ArrowRight", "tab-generate"],
      ["ArrowLeft", "tab-check"],
      ["Home", "tab-generate"],
      ["End", "tab-check"],
    ] as const) {
      await page.keyboard.press(key);
      const state = await tabState(page);
      expect([state.selected, state.focused, state.shown]).toEqual([[tab], tab, [tab.replace("tab-", "panel-")]]);
    }
    // The address opens the tab it names.
    await page.reload();
    expect((await tabState(page)).shown).toEqual(["panel-check"]);
    await page.click("#tab-generate");
    expect(await tabState(page)).toMatchObject({ shown: ["panel-generate"], hash: "" });
    await page.close();
  });

  it("shows, for a pasted README, the report that POST /api/v1/analyse answers for the same body", async () => {
    const { server, open, pageErrors } = playground();
    const page = await open(WIDE);
    const sent = recordAnalyseBodies(page);
    await check(page, { "c-markdown": MARKDOWN, "c-seo-keywords": KEYWORDS, "c-length": "800" });
    await page.locator("#check-report-body").waitFor({ state: "visible" });

    const body = { markdown: MARKDOWN.trim(), seo: { keywords: KEYWORDS }, length: 800 };
    expect(sent).toEqual([body]);
    const answer = await analyse(server.url, body);

    // The score and every check: its verdict, its name in words and its message.
    expect(await page.locator("#check-score-value").textContent()).toBe(String(answer.seo.score));
    const shown = await page.locator("#check-checks li, #check-na-list li").evaluateAll((items) =>
      items.map((item) => ({
        id: (item as HTMLElement).dataset.check,
        kind: item.className,
        label: item.querySelector(".name")?.firstChild?.textContent,
        message: item.querySelector(".msg")?.textContent,
      })),
    );
    const kind = (passed: boolean | null) => (passed === true ? "pass" : passed === false ? "fail" : "na");
    const expected = answer.seo.checks.map((c) => ({ id: c.id, kind: kind(c.passed), label: c.label, message: c.message }));
    const byId = (a: { id?: string }, b: { id?: string }) => String(a.id).localeCompare(String(b.id));
    expect(shown.sort(byId)).toEqual(expected.sort(byId));
    const failed = answer.seo.checks.filter((c) => c.passed === false).length;
    expect(failed).toBeGreaterThan(0); // a README is no SEO article: the report must show failures
    expect(await page.locator("#check-failed-count").textContent()).toBe(`${failed} failed`);
    expect(await page.locator("#check-checks li.fail").count()).toBe(failed);

    // The figures, the title found in the article (its H1) and the outline.
    const stats = (await page.locator("#check-stats").textContent()) ?? "";
    expect(stats).toContain(`Words${answer.wordCount} of 800`);
    expect(stats).toContain(`Reading time${answer.readingTimeMinutes} min`);
    expect(answer.title).toMatchObject({ from: "h1" });
    expect(stats).toContain(`Title${answer.title!.value} (from the H1)`);
    expect(stats).toContain(`Meta description${answer.description ? answer.description.value : "none found"}`);
    for (const [keyword, share] of Object.entries(answer.seo.keywordDensity)) expect(stats).toContain(`${keyword} ${share}%`);
    expect(answer.outline.length).toBeGreaterThan(3);
    expect(await page.locator("#check-outline li").allTextContents()).toEqual(answer.outline.map((entry) => entry.text));
    expect(await page.locator("#check-status").textContent()).toBe(
      `Checked: ${answer.wordCount} words, SEO score ${answer.seo.score}, ${failed} failed ${failed === 1 ? "check" : "checks"}.`,
    );

    // Beside the form on a wide screen; the Generate tab's report is untouched.
    const form = (await page.locator("#check-form").boundingBox())!;
    const report = (await page.locator("#check-report").boundingBox())!;
    expect(report.x).toBeGreaterThanOrEqual(form.x + form.width);
    expect(await page.locator("#report-pending").evaluate((node) => (node as HTMLElement).hidden)).toBe(false);
    await page.screenshot({ path: path.join(ARTIFACTS, "playground-check-1366.png"), fullPage: true });
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it("on a 390 px phone, brings the report into view and shows heading text only as text", async () => {
    const { server, open } = playground();
    const page = await open(PHONE);
    const markdown =
      "# Compost <img src=x onerror=window.__pwned=1>\n\nA compost bin turns garden waste into soil.\n\n## Why <script>window.__pwned=2</script> compost\n\nKitchen scraps and leaves rot into dark soil within months.";
    await check(page, { "c-markdown": markdown });
    await page.locator("#check-report-body").waitFor({ state: "visible" });
    const answer = await analyse(server.url, { markdown });
    expect(await page.locator("#check-outline li").allTextContents()).toEqual(answer.outline.map((entry) => entry.text));
    expect(await page.locator("#check-stats").textContent()).toContain(`Title${answer.title!.value} (from the H1)`);
    expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined();
    expect(await page.locator("img, #panel-check script").count()).toBe(0);
    // Below the form on a phone, and scrolled to once filled in.
    const form = (await page.locator("#check-form").boundingBox())!;
    const report = (await page.locator("#check-report").boundingBox())!;
    expect(report.y).toBeGreaterThan(form.y + form.height);
    expect(report.y).toBeGreaterThanOrEqual(0);
    expect(report.y).toBeLessThan(PHONE.height / 2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await page.screenshot({ path: path.join(ARTIFACTS, "playground-check-390.png") });
    await page.close();
  });

  it("shows a 422's invalid fields, a wrong key's 401 and an empty article below the Check button, focused", async () => {
    const { open, pageErrors } = playground();
    const page = await open(WIDE);
    await check(page, { "c-markdown": MARKDOWN, "c-length": "50", "c-language": "xx" });
    const error = page.locator("#check-error");
    await error.waitFor({ state: "visible" });
    expect(await error.locator("h2").textContent()).toBe("422 Unprocessable Entity");
    expect(await error.locator("li").allTextContents()).toEqual([
      "language: language must be an ISO 639-1 code such as en, de or ja",
      "length: length must be at least 100 words",
    ]);
    expect(await page.locator("#c-length").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#c-language").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#check-report-body").isHidden()).toBe(true);
    await expectFocusedBelowCheck(page);

    await page.fill("#c-length", "");
    await page.fill("#c-language", "");
    await page.fill("#f-key", "not-a-valid-key");
    await page.click("#check");
    await expect.poll(() => error.locator("h2").textContent()).toBe("401 Unauthorized");
    expect(await error.textContent()).toContain("A valid API key is required in the x-api-key header.");
    expect(await error.locator("a").getAttribute("href")).toBe("/docs#unauthorized");
    expect(await page.locator("#f-key").getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator("#c-length").getAttribute("aria-invalid")).toBeNull();
    await expectFocusedBelowCheck(page);

    await page.fill("#f-key", API_KEY);
    await page.fill("#c-markdown", "  \n ");
    await page.click("#check");
    await expect.poll(() => error.locator("h2").textContent()).toBe("Missing article");
    expect(await page.locator("#c-markdown").getAttribute("aria-invalid")).toBe("true");
    await expectFocusedBelowCheck(page);
    await page.screenshot({ path: path.join(ARTIFACTS, "playground-check-error-1366.png") });
    expect(pageErrors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
    await page.close();
  });
});

/** The error box is focused, in view, and directly below the Check button. */
async function expectFocusedBelowCheck(page: Page): Promise<void> {
  expect(await page.evaluate(() => document.activeElement?.id)).toBe("check-error");
  const error = (await page.locator("#check-error").boundingBox())!;
  const button = (await page.locator("#check").boundingBox())!;
  expect(error.y).toBeGreaterThanOrEqual(button.y + button.height);
  expect(error.y - (button.y + button.height)).toBeLessThan(40);
  expect(error.y + error.height).toBeLessThanOrEqual(WIDE.height);
}
