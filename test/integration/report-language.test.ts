import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAS_STORIES_MODEL, STORIES_MODEL, startServer, type TestServer } from "../helpers/server.js";

// The report's language check over real HTTP, on stories260K, which writes English whatever
// is asked: a German request must fail the check (and score below 80), an English one pass
// it. The answer is read as a client reads it: JSON off the wire, checks found by id.

if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the report language suite needs ${STORIES_MODEL}, which is not there.`);

interface Check {
  id: string;
  label: string;
  passed: boolean | null;
  message: string;
}

describe.skipIf(!HAS_STORIES_MODEL)("the language check on stories260K over HTTP", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(STORIES_MODEL);
  });
  afterAll(() => server?.stop());

  async function report(language: string): Promise<{ score: number; language: Check; markdown: string }> {
    const response = await server.generate({ topic: "Home composting", language, length: 200, seed: 11, seo: { keywords: "compost bin" } });
    const text = await response.text();
    expect(response.status, text.slice(0, 500)).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = JSON.parse(text) as { article: { markdown: string }; seo: { score: number; checks: Check[] } };
    const check = body.seo.checks.find((c) => c.id === "language");
    expect(check, JSON.stringify(body.seo.checks.map((c) => c.id))).toBeDefined();
    return { score: body.seo.score, language: check!, markdown: body.article.markdown };
  }

  it("fails a German request answered in English, and scores it below 80", async () => {
    const { score, language, markdown } = await report("de");
    expect(language, markdown.slice(0, 400)).toMatchObject({
      label: "Written in the requested language",
      passed: false,
      message: expect.stringMatching(/^The body reads as English \(en\) \(franc: eng\), not German \(de\) as requested\.$/),
    });
    expect(score).toBeLessThan(80);
  });

  it("passes an English request", async () => {
    const { language, markdown } = await report("en");
    expect(language, markdown.slice(0, 400)).toMatchObject({
      label: "Written in the requested language",
      passed: true,
      message: "The body reads as English (en), as requested (franc: eng).",
    });
  });
});
