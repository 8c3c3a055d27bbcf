import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app.js";
import { tempKeysFile } from "../helpers/cli.js";
import { createKey } from "../helpers/keys.js";
import { expectProblem, waitFor } from "../helpers/http.js";
import { readme } from "../../scripts/fixtures/readmes.js";
import { API_KEY } from "../helpers/server.js";

// POST /api/v1/analyse on the app served in-process: validation, the key's limits (its rate
// limit applies, its daily words do not), the key's default style, and /metrics.

const ARTICLE = `---
title: Retrying failed operations with exponential backoff
description: How to retry a failed network call with exponential backoff, and when to give up.
keywords: [exponential backoff, retry]
slug: exponential-backoff-retries
---

# Retrying failed operations with exponential backoff

${readme("retry")}

## Sources

- [1] [The retry package](https://example.com/retry)
`;

describe("POST /api/v1/analyse", () => {
  let server: TestApp;
  let keysFile: string;
  const keys = { rate2: "", daily10: "", styled: "" };

  beforeAll(async () => {
    keysFile = await tempKeysFile();
    keys.rate2 = await createKey(keysFile, "rate2", ["--rate", "2/s"]);
    keys.daily10 = await createKey(keysFile, "daily10", ["--daily-words", "100"]);
    const styleFile = path.join(path.dirname(keysFile), "style.json");
    await writeFile(styleFile, JSON.stringify({ avoid: ["exponential"] }));
    keys.styled = await createKey(keysFile, "styled", ["--style", styleFile]);
    server = await startApp({ env: { INKPRESS_KEYS_FILE: keysFile } });
  });
  afterAll(() => server?.stop());

  const analyse = (body: unknown, key = API_KEY) =>
    server.fetch("/api/v1/analyse", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });

  it("reads the targets from the front matter, the sources list as no prose, and answers the generate answer's seo object", async () => {
    const response = await analyse({
      markdown: ARTICLE,
      sources: [{ title: "The retry package", url: "https://example.com/retry", text: "Retries use exponential backoff." }],
    });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      object: "analysis",
      title: { value: "Retrying failed operations with exponential backoff", from: "front-matter" },
      slug: { value: "exponential-backoff-retries", from: "front-matter" },
      keywords: { value: ["exponential backoff", "retry"], from: "front-matter" },
    });
    expect(Object.keys(body.seo).sort()).toEqual(["checks", "keywordDensity", "score"]);
    expect(body.outline.map((entry: { text: string }) => entry.text)).not.toContain("Sources");
    expect(body.seo.checks.find((check: { id: string }) => check.id === "keyword-in-slug")).toMatchObject({ passed: true });
    expect(body.seo.checks.find((check: { id: string }) => check.id === "sources-cited")).toMatchObject({
      passed: null,
      message: expect.stringContaining("has no such record"),
    });
  });

  it("refuses what it cannot read with a 422 naming the field", async () => {
    const cases: [unknown, string][] = [
      [{}, "markdown"],
      [{ markdown: "# A", html: "<h1>A</h1>" }, "markdown"],
      [{ markdown: 42 }, "markdown"],
      [{ markdown: "# A", seo: { keywords: 7 } }, "seo.keywords"],
      [{ markdown: "# A", language: "english" }, "language"],
      [{ markdown: "# A", length: 20 }, "length"],
      [{ markdown: "---\ntitle: [unclosed\n---\n\n# A" }, "markdown"],
      [{ markdown: "---\nkeywords: { a: 1 }\n---\n\n# A" }, "markdown"],
    ];
    for (const [body, field] of cases) {
      const problem = await expectProblem(await analyse(body), 422);
      expect(
        problem.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toEqual([field]);
    }
    await expectProblem(await server.fetch("/api/v1/analyse", { method: "GET", headers: { "x-api-key": API_KEY } }), 405);
    await expectProblem(await analyse("not json"), 400);
  });

  it("counts against the key's rate limit but not its daily words", async () => {
    await waitFor(
      async () => ((await analyse({ markdown: ARTICLE }, keys.daily10)).status === 200 ? true : undefined),
      "the created keys accepted",
      5_000,
      100,
    );
    // Far more words than the key's 100 a day, analysed again and again.
    for (let i = 0; i < 3; i++) {
      const response = await analyse({ markdown: ARTICLE }, keys.daily10);
      expect(response.status).toBe(200);
      expect(response.headers.get("ratelimit")).toMatch(/"daily-words";r=100/);
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await analyse({ markdown: "# A" }, keys.rate2)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });

  it("applies the key's default style under the request's own", async () => {
    const check = async (body: Record<string, unknown>) =>
      (await (await analyse({ markdown: ARTICLE, ...body }, keys.styled)).json()).seo.checks.find((c: { id: string }) => c.id === "avoid");
    expect(await check({})).toMatchObject({ passed: false, message: expect.stringContaining("“exponential”") });
    expect(await check({ style: { avoid: ["synchronously"] } })).toMatchObject({ passed: true });
  });

  it("is counted in /metrics by format", async () => {
    await analyse({ html: "<html><body><h1>A page</h1><p>Some words here.</p></body></html>" });
    const metrics = await (await server.fetch("/metrics")).text();
    expect(metrics).toMatch(/inkpress_analyses_total\{format="html"\} [1-9]/);
    expect(metrics).toMatch(/inkpress_analyses_total\{format="markdown"\} [1-9]/);
  });
});
