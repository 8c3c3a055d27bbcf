import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_TIMEOUT_MS, startLlamaServer, type RunningLlamaServer } from "../helpers/llama-server.js";
import { expectMatrixRules, MATRIX_MODELS, matrixCases, matrixRequest, matrixRules } from "../helpers/matrix.js";
import { checkArticleRules, type ArticleAnswer } from "../helpers/rules.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, startServer, type TestServer } from "../helpers/server.js";

// The engine matrix through `inkpress serve --backend` → a real llama-server (both real processes,
// no mock), on stories260K (plain completion) and on the ChatML test model (chat template, applied
// by llama-server). Each article is checked by the independent rule checker, as in
// engine-matrix.test.ts: the same 30 cases (every preset × headings on/off × 300/800/2000 words)
// with the same seeds and languages.

if (!HAS_STORIES_MODEL) {
  console.warn(`SKIPPED: the stories260K cases of the backend matrix need ${STORIES_MODEL}, which is not there.`);
}

describe.each(MATRIX_MODELS)("engine matrix through inkpress → llama-server on $name", ({ path, skip, languages }) => {
  let llama: RunningLlamaServer;
  let server: TestServer;
  beforeAll(async () => {
    if (skip) return;
    llama = await startLlamaServer({ model: await path(), parallel: 1 });
    server = await startServer(undefined, {}, { args: ["--backend", llama.url] });
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await server?.stop();
    await llama?.stop();
  });

  async function generate(
    body: unknown,
  ): Promise<ArticleAnswer & { request: { seed: number }; usage: { promptTokens: number; completionTokens: number } }> {
    const response = await server.generate(body);
    const text = await response.text();
    expect(response.status, text.slice(0, 500)).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    return JSON.parse(text);
  }

  it.skipIf(skip).each(matrixCases(languages).map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const answer = await generate(matrixRequest(c));
    expect(answer.request.seed).toBe(c.seed);
    expect(answer.usage.promptTokens).toBeGreaterThan(0);
    expect(answer.usage.completionTokens).toBeGreaterThan(0);
    const broken = checkArticleRules(answer, matrixRules(c));
    expectMatrixRules(broken, c);
  });

  describe.skipIf(skip)("seed", () => {
    const base = { structure: "sections", headingTags: true, length: 300 } as const;

    it("the same request with the same seed gives the identical article (run one after the other)", async () => {
      const first = await generate(matrixRequest({ ...base, seed: 42 }));
      const second = await generate(matrixRequest({ ...base, seed: 42 }));
      expect(second.article.markdown).toBe(first.article.markdown);
      expect(second.article.title).toBe(first.article.title);
      expect(second.article.metaDescription).toBe(first.article.metaDescription);
      // Not `usage`: the server counts the tokens it made before a step's stop reached it, which depends on timing.
    });

    it("a different seed gives a different article", async () => {
      const first = await generate(matrixRequest({ ...base, seed: 42 }));
      const other = await generate(matrixRequest({ ...base, seed: 43 }));
      expect(other.article.markdown).not.toBe(first.article.markdown);
    });
  });
});
