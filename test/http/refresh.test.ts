import { applyPatch } from "diff";
import * as v from "valibot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RefreshResponseSchema, type RefreshResponse } from "../../src/contract/refresh.js";
import { startApp, type TestApp } from "../helpers/app.js";
import { tempKeysFile } from "../helpers/cli.js";
import { createKey } from "../helpers/keys.js";
import { expectProblem, waitFor } from "../helpers/http.js";
import { jobsApi } from "../helpers/jobs.js";
import { PLANTED_CHECKS, plantedArticle } from "../../scripts/fixtures/refresh.js";
import { API_KEY, testModel } from "../helpers/server.js";

// POST /api/v1/refresh on the app served in-process: the answer on the project's random-weight
// test models (plain and ChatML), validation, the key's limits and /metrics.

const post = (server: TestApp, body: unknown, key = API_KEY) =>
  server.fetch("/api/v1/refresh", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

describe.each(["plain", "chat"] as const)("POST /api/v1/refresh on the %s test model", (variant) => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startApp({ model: await testModel(variant) });
  });
  afterAll(() => server?.stop());

  it("answers the refreshed article, the report before and after, the changes and a diff that applies, and says why each failing check stays", async () => {
    const { request, markdown } = plantedArticle();
    const response = await post(server, request);
    expect(response.status).toBe(200);
    const answer = v.parse(RefreshResponseSchema, await response.json()) as RefreshResponse;
    expect(answer.after.score).toBeGreaterThanOrEqual(answer.before.score);
    expect(applyPatch(markdown, answer.diff)).toBe(answer.article.markdown);
    expect(answer.article.html).toContain("<h1>");
    for (const id of PLANTED_CHECKS) {
      const passed = answer.after.checks.find((check) => check.id === id)!.passed;
      // A random-weight model writes nonsense: what it could not mend is said, never claimed.
      if (passed === false) expect(answer.unmended.find((u) => u.check === id)?.reason, id).toMatch(/Not mended: .+/);
    }
    for (const check of answer.after.checks.filter((c) => c.passed === false))
      expect(answer.unmended.map((u) => u.check)).toContain(check.id);
    // Splitting the long paragraph is structure: code does it whatever the model writes.
    expect(answer.changes.map((c) => c.check)).toContain("paragraph-length");
  });
});

describe("POST /api/v1/refresh", () => {
  let server: TestApp;
  let keysFile: string;
  let daily: string;

  beforeAll(async () => {
    keysFile = await tempKeysFile();
    daily = await createKey(keysFile, "daily", ["--daily-words", "300"]);
    server = await startApp({ env: { INKPRESS_KEYS_FILE: keysFile } });
  });
  afterAll(() => server?.stop());

  it("refuses what it cannot read with a 422 naming the field", async () => {
    const cases: [unknown, string | string[]][] = [
      [{}, "markdown"],
      // Refresh takes Markdown only: an HTML page is missing markdown and an unknown field.
      [{ html: "<h1>A</h1>" }, ["markdown", "html"]],
      [{ markdown: "   \n" }, "markdown"],
      [{ markdown: 42 }, "markdown"],
      [{ markdown: "# A", seed: -1 }, "seed"],
      [{ markdown: "# A", seo: { keywords: 7 } }, "seo.keywords"],
      [{ markdown: "# A", length: 20 }, "length"],
      [{ markdown: "# A", mend: ["title", "body"] }, "mend[1]"],
      [{ markdown: "# A", mend: "title" }, "mend"],
      [{ markdown: "---\ntitle: [unclosed\n---\n\n# A" }, "markdown"],
    ];
    for (const [body, field] of cases) {
      const problem = await expectProblem(await post(server, body), 422);
      expect(
        problem.errors.map((e: { path: string }) => e.path),
        JSON.stringify(body),
      ).toEqual([field].flat());
    }
    await expectProblem(await server.fetch("/api/v1/refresh", { method: "GET", headers: { "x-api-key": API_KEY } }), 405);
    await expectProblem(await post(server, "not json"), 400);
    await expectProblem(
      await server.fetch("/api/v1/refresh", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }),
      401,
    );
  });

  it("counts the words the model wrote against the key's daily words, and refuses a refresh past them", async () => {
    const { request } = plantedArticle();
    await waitFor(
      async () =>
        (await post(server, { markdown: "# A short note on compost bins\n\nA few words.\n", seed: 1 }, daily)).status === 200
          ? true
          : undefined,
      "the created key accepted",
      5_000,
      100,
    );
    // The planted article reserves its 850 words, past the key's 300 a day.
    const problem = await expectProblem(await post(server, request, daily), 429);
    expect(problem.detail).toMatch(/daily quota of 300 words/);
  });

  it("runs as a job (kind refresh) through the same service: the refresh answer as its result, the words it wrote as its progress", async () => {
    const { request, markdown } = plantedArticle();
    const api = jobsApi(server.url, API_KEY, server.fetch);
    const queued = await api.create({ ...request, kind: "refresh" });
    expect(queued).toMatchObject({ kind: "refresh", status: "queued", request: { markdown, seed: 7 } });
    const done = await api.waitFor(queued.id);
    expect(done.status).toBe("succeeded");
    const result = done.result as RefreshResponse;
    expect(result.object).toBe("refresh");
    expect(applyPatch(markdown, result.diff)).toBe(result.article.markdown);
    expect(done.progress.words).toBe(result.wordsWritten);
    // The same request and seed refresh the same way at once and as a job.
    const direct = (await (await post(server, request)).json()) as RefreshResponse;
    expect(direct.article.markdown).toBe(result.article.markdown);
    // An article job is still the default, and a bad kind or refresh body is a 422 naming the field.
    expect((await api.create({ topic: "Compost bins", length: 100, seed: 1 })).kind).toBe("article");
    for (const [body, field] of [
      [{ ...request, kind: "rewrite" }, "kind"],
      [{ kind: "refresh", seo: request.seo }, "markdown"],
    ] as const) {
      const problem = await expectProblem(await api.submit(body), 422);
      expect(problem.errors.map((e: { path: string }) => e.path)).toContain(field);
    }
  });

  it("is counted in /metrics next to the analyses", async () => {
    const { request } = plantedArticle();
    expect((await post(server, request)).status).toBe(200);
    const metrics = await (await server.fetch("/metrics")).text();
    expect(metrics).toMatch(/inkpress_refreshes_total [1-9]/);
    expect(metrics).toMatch(/inkpress_analyses_total/);
  });
});
