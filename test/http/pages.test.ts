/**
 * The pages' scripts in-process: the playground loads one module from `/assets/`, every
 * module it imports is served as JavaScript that Node's parser accepts, nothing runs inline,
 * and `/assets/` serves nothing but the modules of the pages' client folder.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app.js";

const run = promisify(execFile);

describe("the pages' scripts", () => {
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    app = await startApp();
    dir = await mkdtemp(path.join(tmpdir(), "inkpress-assets-"));
  });
  afterAll(async () => {
    await app?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("the playground runs one module from this origin and no inline script", async () => {
    const response = await app.fetch("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toMatch(/(^|; )script-src 'self'(;|$)/);
    const html = await response.text();
    const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
    expect(scripts).toEqual(['<script type="module" src="/assets/playground.js">']);
  });

  it("serves every module the playground imports, as JavaScript Node parses", async () => {
    const seen = new Set<string>();
    const queue = ["/assets/playground.js"];
    while (queue.length) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      seen.add(url);
      const response = await app.fetch(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      const code = await response.text();
      // Types are stripped: what reaches the browser is plain JavaScript.
      const file = path.join(dir, `${path.basename(url, ".js")}.mjs`);
      await writeFile(file, code);
      await expect(run(process.execPath, ["--check", file]), url).resolves.toBeDefined();
      for (const [, relative] of code.matchAll(/^import\b[^"']*["'](\.\/[^"']+)["']/gm)) queue.push(new URL(relative!, `http://x${url}`).pathname);
    }
    expect([...seen]).toEqual(expect.arrayContaining(["/assets/playground.js", "/assets/sse.js", "/assets/markdown.js"]));
  });

  it("serves nothing else under /assets/", async () => {
    for (const url of ["/assets/nothing.js", "/assets/playground.ts", "/assets/..%2Fassets.js", "/assets/%2e%2e%2fhtml.js", "/assets/Playground.js"]) {
      const response = await app.fetch(url);
      expect(response.status, url).toBe(404);
      expect(response.headers.get("content-type"), url).toMatch(/^application\/problem\+json/);
    }
  });

  it("the reference page runs no script at all", async () => {
    const response = await app.fetch("/docs");
    expect(response.headers.get("content-security-policy")).toMatch(/(^|; )script-src 'none'(;|$)/);
    expect(await response.text()).not.toMatch(/<script\b/);
  });
});
