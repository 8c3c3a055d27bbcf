import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AnalysisResponse } from "../../src/contract/analyse.js";
import { readme, webPage, withFrontMatter } from "../../scripts/fixtures/readmes.js";
import { API_KEY, startServer, testModel, type TestServer } from "../helpers/server.js";

// A human-written article (a README of a well-known package, as real prose) analysed over
// real HTTP from its Markdown and from a saved web page around it: the same checks.

const TITLE = "Retrying failed operations with exponential backoff";
const DESCRIPTION =
  "How the retry package retries a failed operation with exponential backoff: its options, its timeouts, and how to stop retrying once an error is final.";

describe("POST /api/v1/analyse on a human-written article", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(await testModel("plain"));
  });
  afterAll(() => server?.stop());

  const analyse = async (body: unknown): Promise<AnalysisResponse> => {
    const response = await fetch(`${server.url}/api/v1/analyse`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY },
      body: JSON.stringify(body),
    });
    expect(response.status, await response.clone().text()).toBe(200);
    return (await response.json()) as AnalysisResponse;
  };

  it("gives the same checks from its Markdown and from its web page with navigation and scripts", async () => {
    const markdown = readme("retry");
    const targets = { seo: { keywords: "exponential backoff, retry" }, style: { avoid: ["track", "newsletter"] } };
    const fromMarkdown = await analyse({
      markdown: withFrontMatter({ title: TITLE, description: DESCRIPTION, language: "en" }, markdown),
      ...targets,
    });
    const fromHtml = await analyse({ html: webPage({ title: TITLE, description: DESCRIPTION, markdown }), ...targets });

    expect(fromMarkdown.wordCount).toBeGreaterThan(400);
    expect(fromHtml.wordCount).toBe(fromMarkdown.wordCount);
    expect(fromHtml.outline).toEqual(fromMarkdown.outline);
    expect(fromHtml.seo).toEqual(fromMarkdown.seo);
    expect(fromMarkdown.title).toEqual({ value: TITLE, from: "front-matter" });
    expect(fromHtml.title).toEqual({ value: TITLE, from: "html" });
    expect(fromHtml.description).toEqual({ value: DESCRIPTION, from: "html" });
    expect(fromHtml.language).toEqual({ value: "en", from: "html" });
    expect(fromMarkdown.language).toEqual({ value: "en", from: "front-matter" });
    // Navigation, the aside, the footer and the scripts are not the article: their words are not counted, their phrases not found.
    const avoid = fromHtml.seo.checks.find((check) => check.id === "avoid")!;
    expect(avoid).toMatchObject({ passed: true });
    // The checks are measurements of this README: some pass and some fail, as for any article.
    expect(fromMarkdown.seo.checks.some((check) => check.passed === false)).toBe(true);
    expect(fromMarkdown.seo.checks.filter((check) => check.passed === true).length).toBeGreaterThan(10);
  });

  it("reads the title, description and language from the page when the request leaves them open", async () => {
    const markdown = readme("proper-lockfile");
    const fromHtml = await analyse({
      html: webPage({ title: "Locking files across processes", description: "A short description.", markdown }),
    });
    expect(fromHtml.title?.value).toBe("Locking files across processes");
    expect(fromHtml.keywords).toBeNull();
    const titleLength = fromHtml.seo.checks.find((check) => check.id === "title-length")!;
    expect(titleLength).toMatchObject({ passed: true, message: "The title is 30 characters long (target 10–60)." });
    const description = fromHtml.seo.checks.find((check) => check.id === "meta-description-length")!;
    expect(description).toMatchObject({ passed: false, message: "The meta description is 20 characters long (target 120–156)." });
    expect(fromHtml.seo.checks.find((check) => check.id === "keyword-in-title")!.passed).toBeNull();
    // Without a language anywhere, the body's language is detected, and the answer says so.
    const bare = await analyse({ markdown });
    expect(bare.language).toEqual({ value: "en", from: "detected" });
    expect(bare.seo.checks.find((check) => check.id === "language")).toMatchObject({
      passed: null,
      message: expect.stringContaining("reads as"),
    });
  });
});
