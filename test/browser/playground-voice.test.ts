/**
 * The playground's voice panel in headless Chromium: two example files picked and one article
 * pasted are learnt into a house voice (`POST /api/v1/voice`), the profile is shown, and Generate
 * sends it as `style.voice`, the report then measuring the article against it.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ARTIFACTS, HAS_CHROMIUM, playgroundInBrowser } from "../helpers/browser.js";
import { API_KEY, ROOT } from "../helpers/server.js";

const SET = path.join(ROOT, "test/fixtures/voices/short-you");

describe.skipIf(!HAS_CHROMIUM)("the playground's voice panel", () => {
  const playground = playgroundInBrowser();

  it("learns a voice from picked files and pasted text, shows it, and writes with it", async () => {
    const { open, generate, pageErrors } = playground();
    const page = await open();
    await page.fill("#f-key", API_KEY);
    await page.click("#voice-learn summary");
    await page.setInputFiles("#voice-files", [path.join(SET, "bread.md"), path.join(SET, "compost.md")]);
    await expect.poll(() => page.locator("#voice-files-list").textContent()).toBe("2 files: bread.md, compost.md");
    await page.fill("#voice-examples", await readFile(path.join(SET, "cycling.md"), "utf8"));
    const [learnt] = await Promise.all([page.waitForResponse((r) => r.url().endsWith("/api/v1/voice")), page.click("#voice-learn-button")]);
    expect(learnt.status()).toBe(200);
    const voice = await learnt.json();
    expect(JSON.parse(learnt.request().postData()!).articles).toHaveLength(3);
    await page.locator("#voice-profile").waitFor({ state: "visible" });
    const shown = await page.locator("#voice-features").textContent();
    for (const words of ["from 3 articles", "second", "en-GB", "sentence case"]) expect(shown).toContain(words);
    expect(await page.locator("#voice-use").isChecked()).toBe(true);
    expect(await page.locator("#f-style-voice").isDisabled()).toBe(true);
    await page.locator("#voice-learn").screenshot({ path: path.join(ARTIFACTS, "playground-voice-panel.png") });

    const sent = page.waitForRequest((r) => r.url().endsWith("/api/v1/generate"));
    await generate(page, { "f-topic": "A walk in the park", "f-length": "120" });
    expect(JSON.parse((await sent).postData()!).style.voice).toEqual(voice.profile);
    expect(await page.locator("#checks").textContent()).toContain("Spelling of the house voice");
    await page.screenshot({ path: path.join(ARTIFACTS, "playground-voice.png"), fullPage: true });
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
