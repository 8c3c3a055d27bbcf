import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseArticle } from "../helpers/article.js";
import { blocksOf } from "../helpers/blocks.js";
import { expectValidJsonLd, jsonLdOf } from "../helpers/jsonld.js";
import { readSse } from "../helpers/sse.js";
import { startApp, type TestApp } from "../helpers/app.js";
import { testModel } from "../helpers/server.js";

// schema.org JSON-LD from the app served in-process on both random-weight test models: the JSON answer's
// `article.jsonLd`, the HTML document's `application/ld+json` script and the stream's
// `done` event carry the same object (the same seed writes the same article; only the
// dates, from `created`, may differ between two requests), and it restates the article's
// own headings and paragraphs, read back from its Markdown.

type Node = Record<string, any>;

/** The JSON-LD with the dates of another answer, to compare two requests for the same article. */
const datedAs = (jsonLd: Node, other: Node) => {
  const copy = structuredClone(jsonLd);
  copy["@graph"][0].datePublished = other["@graph"][0].datePublished;
  copy["@graph"][0].dateModified = other["@graph"][0].dateModified;
  return copy;
};

describe.each(["plain", "chat"] as const)("JSON-LD on the %s test model", (variant) => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startApp({ model: await testModel(variant) });
  });
  afterAll(() => server?.stop());

  it("carries an Article and a FAQPage for a detailed article, the same in JSON, HTML and the stream", async () => {
    const request = {
      topic: "Home composting for beginners",
      length: 300,
      structure: "detailed",
      seed: 11,
      seo: { keywords: "compost bin" },
    };
    const body = await (await server.generate(request)).json();
    const jsonLd = body.article.jsonLd;
    const byType = expectValidJsonLd(jsonLd);
    expect(jsonLd["@graph"].map((n: Node) => n["@type"])).toEqual(["Article", "FAQPage"]);
    expect(byType.Article).toMatchObject({
      headline: body.article.title,
      description: body.article.metaDescription,
      inLanguage: "en",
      keywords: body.article.keywords,
      wordCount: body.article.wordCount,
      datePublished: new Date(body.created * 1000).toISOString(),
    });

    // Every question is an H3 of the article, every answer paragraph one of its paragraphs.
    const parsed = parseArticle(body.article.markdown);
    const h3 = parsed.headings.filter((h) => h.depth === 3).map((h) => h.text);
    for (const question of byType.FAQPage!.mainEntity) {
      expect(h3).toContain(question.name);
      for (const paragraph of question.acceptedAnswer.text.split("\n\n")) expect(parsed.paragraphs).toContain(paragraph);
    }

    const html = await (await server.generate(request, { accept: "text/html" })).text();
    const fromHtml = jsonLdOf(html) as Node;
    expect(fromHtml).toEqual(datedAs(jsonLd, fromHtml));

    const stream = await server.generate(request, { accept: "text/event-stream" });
    let done: Node | undefined;
    for await (const event of readSse(stream.body!)) if (event.event === "done") done = JSON.parse(event.data);
    expect(done!.article.jsonLd).toEqual(datedAs(jsonLd, done!.article.jsonLd));
  });

  it("carries a HowTo with one step per numbered step heading", async () => {
    const body = await (await server.generate({ topic: "Building a compost heap", length: 300, structure: "how-to", seed: 5 })).json();
    const byType = expectValidJsonLd(body.article.jsonLd);
    expect(Object.keys(byType)).toEqual(["Article", "HowTo"]);
    // The step headings of the Markdown with the paragraphs under each.
    const steps: { name: string; text: string[] }[] = [];
    let current: { name: string; text: string[] } | undefined;
    for (const block of blocksOf(body.article.markdown).blocks) {
      if (block.kind === "prose") current?.text.push(block.text);
      else if (block.depth === 2 && /^\d+\. /.test(block.text)) steps.push((current = { name: block.text, text: [] }));
      else current = undefined;
    }
    expect(steps.length).toBeGreaterThanOrEqual(3);
    // A step the model left without text has nothing to restate; with this seed every step has text.
    expect(steps.every((s) => s.text.length > 0)).toBe(true);
    expect(byType.HowTo!.step).toEqual(
      steps.map((s) => {
        const [, position, name] = s.name.match(/^(\d+)\. (.*)$/)!;
        return { "@type": "HowToStep", position: Number(position), name, text: s.text.join("\n\n") };
      }),
    );
    expect(byType.HowTo).toMatchObject({ name: body.article.title, inLanguage: "en" });
  });

  it("keeps a hostile title, description and keyword inside the one script element", async () => {
    const hostile = "</script><script>alert(1)</script> <!--<script> \u2028&";
    const request = {
      topic: "Home composting",
      length: 150,
      seed: 3,
      seo: { keywords: "compost bin, </SCRIPT><!--x", title: `Compost bin ${hostile}`, description: hostile },
    };
    const response = await server.generate(request, { accept: "text/html" });
    expect(response.status).toBe(200);
    const html = await response.text();
    const jsonLd = jsonLdOf(html) as Node;
    expectValidJsonLd(jsonLd);
    expect(jsonLd["@graph"][0]).toMatchObject({
      headline: `Compost bin ${hostile}`,
      description: hostile,
      keywords: ["compost bin", "</SCRIPT><!--x"],
    });
    const body = await (await server.generate(request)).json();
    expect(jsonLd).toEqual(datedAs(body.article.jsonLd, jsonLd));
  });
});
