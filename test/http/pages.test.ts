/**
 * The pages' scripts in-process: the playground loads one module from `/assets/`, bundled
 * with everything it imports into JavaScript that Node's parser accepts, nothing runs
 * inline, and `/assets/` serves nothing but the pages' scripts.
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

  it("serves the playground as one self-contained module, bundled with what it imports, that Node's parser accepts", async () => {
    const response = await app.fetch("/assets/playground.js");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const code = await response.text();
    // Types are stripped and the imports bundled in: what reaches the browser is plain JavaScript that loads nothing else.
    const file = path.join(dir, "playground.mjs");
    await writeFile(file, code);
    await expect(run(process.execPath, ["--check", file])).resolves.toBeDefined();
    expect(code).not.toMatch(/\bimport\s*(?:[\w{}*\s,]+from\s*)?["']|\bimport\(/);
    // The Markdown renderer and the API client are inside.
    expect(code).toContain("x-api-key");
    expect(code).toContain("user-content-");
  });

  it("serves nothing else under /assets/", async () => {
    for (const url of [
      "/assets/nothing.js",
      "/assets/playground.ts",
      "/assets/..%2Fassets.js",
      "/assets/%2e%2e%2fhtml.js",
      "/assets/Playground.js",
      "/assets/dom.js",
      "/assets/sse.js",
    ]) {
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
