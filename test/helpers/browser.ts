/**
 * The playground in a real headless Chromium against a real server with a random-weight test
 * model, for the browser tier. Needs /usr/bin/chromium (.ci/run installs it). Screenshots go
 * to test-artifacts/.
 */
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, expect } from "vitest";
import { API_KEY, ROOT, startServer, testModel, type TestServer } from "./server.js";

const CHROMIUM = "/usr/bin/chromium";
/** Whether the browser tier can run here. */
export const HAS_CHROMIUM = existsSync(CHROMIUM);
/** Where screenshots are saved. */
export const ARTIFACTS = path.join(ROOT, "test-artifacts");
/** A wide screen, a laptop's (the Generate button below the fold before it was pinned) and a phone's. */
export const WIDE = { width: 1366, height: 900 };
export const LAPTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };

if (!HAS_CHROMIUM) console.warn(`playground browser tests skipped: ${CHROMIUM} is missing (apt-get install -y chromium; .ci/run does it).`);

/** A server and a browser for the enclosing `describe`, and how to use the playground in it. */
export interface Playground {
  server: TestServer;
  context: BrowserContext;
  /** Uncaught page errors and console errors (a CSP violation shows up here). */
  pageErrors: string[];
  /** A new tab on `/` at a viewport's size; `prepare` runs before it loads (for init scripts). */
  open(viewport?: { width: number; height: number }, prepare?: (page: Page) => Promise<void>): Promise<Page>;
  /** Fill in the key and the fields (by control id), press Generate and wait until the article is done and the form usable again. */
  generate(page: Page, fields: Record<string, string>, key?: string): Promise<void>;
}

/**
 * Start a server and Chromium before the enclosing `describe`'s tests, stop them after. Returns a getter.
 * `serverEnv` adds to the server's environment (made once the tests start: a publishing target's site, say).
 */
export function playgroundInBrowser(serverEnv?: () => Promise<Record<string, string>>): () => Playground {
  let server: TestServer | undefined;
  let context: BrowserContext | undefined;
  let profile = "";
  const pageErrors: string[] = [];

  beforeAll(async () => {
    server = await startServer(await testModel("plain"), await serverEnv?.());
    profile = await mkdtemp(path.join(tmpdir(), "inkpress-chromium-"));
    // launchPersistentContext is Playwright's way to pass a fresh --user-data-dir.
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      acceptDownloads: true,
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
      viewport: WIDE,
    });
    await mkdir(ARTIFACTS, { recursive: true });
    // A site to publish to (a WordPress with its database) may take a minute to start on a busy machine.
  }, 240_000);

  afterAll(async () => {
    await context?.close();
    await server?.stop();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  async function open(viewport = WIDE, prepare?: (page: Page) => Promise<void>): Promise<Page> {
    const page = await context!.newPage();
    await page.setViewportSize(viewport);
    await prepare?.(page);
    page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(`console: ${message.text()}`);
    });
    const response = await page.goto(`${server!.url}/`);
    expect(response?.status()).toBe(200);
    return page;
  }

  async function generate(page: Page, fields: Record<string, string>, key = API_KEY): Promise<void> {
    // Record the status line as it changes, to see the article arrive while it is written.
    await page.evaluate(() => {
      const status = document.getElementById("status")!;
      const seen: string[] = ((window as any).__statuses = []);
      new MutationObserver(() => seen.push(status.textContent ?? "")).observe(status, {
        childList: true,
        characterData: true,
        subtree: true,
      });
    });
    await page.fill("#f-key", key);
    for (const [id, value] of Object.entries(fields)) await page.fill(`#${id}`, value);
    await page.click("#generate");
    await page.locator("#article h1").first().waitFor({ timeout: 90_000 });
    await page.locator("#checks li").first().waitFor({ timeout: 90_000 });
    await expect.poll(() => page.locator("#generate").isEnabled()).toBe(true);
  }

  return () => ({ server: server!, context: context!, pageErrors, open, generate });
}
