import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectArticleBasics, expectArticleShape, mentions, parseArticle } from "../helpers/article.js";
import { jsonLdOf } from "../helpers/jsonld.js";
import { startApp, type TestApp } from "../helpers/app.js";
import { testModel } from "../helpers/server.js";

// Both of the project's random-weight models: the plain one takes the completion path
// (like stories260K), the chat one the ChatML template path that instruct models take.
describe.each(["plain", "chat"] as const)("POST /api/v1/generate on the %s test model", (variant) => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startApp({ model: await testModel(variant) });
  });
  afterAll(() => server?.stop());

  const request = {
    topic: "Home composting for beginners",
    length: 400,
    tone: "conversational",
    seed: 7,
    seo: { keywords: "compost bin, garden waste, Compost Bin , ,soil health" },
  };

  it("writes a whole article with the documented JSON shape and normalised request", async () => {
    const response = await server.generate(request);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    const body = await response.json();
    expectArticleShape(body);
    expect(body.model).toBe(variant === "chat" ? "inkpress-test-tiny-chat" : "inkpress-test-tiny");
    expect(body.request).toEqual({
      topic: "Home composting for beginners",
      length: 400,
      tone: "conversational",
      language: "en",
      structure: "sections",
      structureRequested: "sections",
      seed: 7,
      seo: { keywords: ["compost bin", "garden waste", "soil health"], headingTags: true },
    });
    expect(body.article.keywords).toEqual(["compost bin", "garden waste", "soil health"]);
    expectArticleBasics(body, "compost bin", true);
    expect(body.article.slug).toMatch(/^compost-bin/);
    expect(body.article.outline.length).toBeGreaterThan(1);
  });

  it("prompts through the model's chat template when it has one", async () => {
    const health = await (await server.fetch(`/healthz`)).json();
    expect(health).toMatchObject({ status: "ok", prompting: variant === "chat" ? "chat-template" : "completion" });
  });

  it("answers the language lower-case whatever case it was given in", async () => {
    const body = await (await server.generate({ topic: "Radfahren im Winter", length: 150, language: "DE" })).json();
    expect(body.request.language).toBe("de");
    expect(body.article.language).toBe("de");
  });

  it("never answers more words than the length allows: 100 words, seeds whose articles ran to 111 before the ceiling", async () => {
    for (const seed of [6, 11, 27]) {
      const body = await (await server.generate({ topic: "Rate limits for tea shops", length: 100, seed })).json();
      expect(body.article.wordCount, `seed ${seed}`).toBeLessThanOrEqual(110);
      expect(body.seo.checks.find((c: { id: string }) => c.id === "length-target").passed, `seed ${seed}`).toBe(true);
    }
  });

  it("fills the defaults when only the topic is given", async () => {
    const body = await (await server.generate({ topic: "  Winter cycling  " })).json();
    expect(body.request).toMatchObject({
      topic: "Winter cycling",
      length: 800,
      tone: "professional",
      language: "en",
      structure: "sections",
      seo: { keywords: [], headingTags: true },
    });
    expect(body.request.seed).toEqual(expect.any(Number));
    // With no keywords the topic is the primary keyword.
    expectArticleBasics(body, "winter cycling", true);
  });

  it("uses a given title and description verbatim", async () => {
    const seo = { keywords: "rain barrel", title: "My own title, unchanged", description: "A description I wrote myself." };
    const body = await (await server.generate({ topic: "Saving rain water", length: 200, seo })).json();
    expect(body.article.title).toBe(seo.title);
    expect(body.article.metaDescription).toBe(seo.description);
    const check = (id: string) => body.seo.checks.find((c: { id: string }) => c.id === id);
    // The given title lacks the keyword: the report says so honestly.
    expect(check("keyword-in-title").passed).toBe(false);
    expect(check("meta-description-length").passed).toBe(false);
  });

  it("writes no heading at all when headingTags is false", async () => {
    const body = await (await server.generate({ ...request, seo: { ...request.seo, headingTags: false } })).json();
    expectArticleBasics(body, "compost bin", false);
    expect(body.article.outline.length).toBeGreaterThan(1);
  });

  it("serves the Markdown alone for Accept: text/markdown, the same bytes as in the JSON", async () => {
    const markdown = await server.generate(request, { accept: "text/markdown" });
    expect(markdown.status).toBe(200);
    expect(markdown.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const json = await (await server.generate(request)).json();
    expect(await markdown.text()).toBe(json.article.markdown);
  });

  it("serves a full HTML document for Accept: text/html", async () => {
    const response = await server.generate({ ...request, language: "de" }, { accept: "text/html" });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    // Model text in a page: nothing may run or load, and the type is never sniffed.
    expect(response.headers.get("content-security-policy")).toMatch(/^default-src 'none'; style-src 'unsafe-inline'(;|$)/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await response.text();
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toMatch(/<html[^>]* lang="de"/);
    expect(html).toMatch(/<title>[^<]*compost bin[^<]*<\/title>/i);
    expect(html).toMatch(/<meta name="description" content="[^"]*compost bin/i);
    expect(html).toMatch(/<h1>/);
  });

  it("escapes HTML given in any field instead of passing it through", async () => {
    const hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>";
    const body = await (
      await server.generate({ topic: `${hostile} tips`, length: 150, seo: { keywords: `${hostile}`, title: `${hostile} title` } })
    ).json();
    expect(body.article.html).not.toMatch(/<script|<img/i);
    const document = await (
      await server.generate(
        { topic: `${hostile} tips`, length: 150, seo: { keywords: "tips", title: `${hostile} title`, description: hostile } },
        { accept: "text/html" },
      )
    ).text();
    // The one script is the JSON-LD: the hostile title is in it, escaped, and parses back whole.
    expect((jsonLdOf(document) as any)["@graph"][0].headline).toBe(`${hostile} title`);
    // Inside a quoted attribute value "<" is plain text; everywhere else (that script's own tags aside) it must be escaped.
    expect(document.replace(/="[^"]*"/g, '=""').replace(/<script type="">[^<]*<\/script>/, "")).not.toMatch(/<script|<img/i);
    expect(document).toContain("&#x3C;script>");
    // The Markdown escapes it too, so a Markdown renderer shows text, not markup.
    expect(parseArticle(body.article.markdown).tree.children.some((n) => n.type === "html")).toBe(false);
    expect(mentions(body.article.title, hostile)).toBe(true);
  });
});
