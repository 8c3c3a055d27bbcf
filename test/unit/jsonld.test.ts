import { AvoidList } from "../../src/article/plan/avoid.js";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { ArticleDocument } from "../../src/article/body/document.js";
import { HEADLINE_MAX, JsonLdSchema, type JsonLd } from "../../src/contract/jsonld.js";
import { articleJsonLd, serialiseJsonLd, type JsonLdSource } from "../../src/article/output/jsonld.js";
import { renderArticle } from "../../src/article/output/render.js";
import type { GenerateRequestInput } from "../../src/contract/request.js";
import { writeBody } from "../../src/article/body/write.js";
import { blocksOf } from "../helpers/blocks.js";
import { COMPOSTING, outlineFor, planFor } from "../helpers/body.js";
import { FakeWriter, continuations, distinctSentences, proseModel } from "../../scripts/fixtures/fake-writer.js";
import { expectValidJsonLd, jsonLdOf, scriptsOf } from "../helpers/jsonld.js";

// The structured data of articles written by the real body pass on a scripted model: the
// plan, outline, document and JSON-LD code are the real ones. What the JSON-LD should hold
// is read independently from the article's Markdown (remark-parse), and the HTML document
// is read back the way an HTML parser reads a script element.

const PRIMARY = "compost bins";
/** The request these tests write: a secondary keyword besides the primary. */
const TWO_KEYWORDS = { ...COMPOSTING, seo: { keywords: `${PRIMARY}, kitchen scraps` } };
const CREATED = 1_795_311_039;
const DESCRIPTION = "Compost bins turn kitchen scraps into rich soil for every small garden, balcony and shared plot, all year round.";

/** Write the article with the real body pass on an endless prose model; returns what `articleJsonLd` reads. */
async function written(input: Partial<GenerateRequestInput> = {}, title?: string) {
  const p = planFor(input, TWO_KEYWORDS);
  const outline = outlineFor(p, { ...(title === undefined ? {} : { title }), metaDescription: DESCRIPTION });
  const writer = new FakeWriter(proseModel(distinctSentences(), continuations()));
  const keywords = [p.primary, ...p.secondary];
  const document = new ArticleDocument(p.request.language, keywords);
  await writeBody(p, outline, {
    writer,
    document,
    avoid: new AvoidList({ style: { avoid: [], cliches: true }, language: p.request.language }),
    seed: 7,
  });
  const source: JsonLdSource = {
    plan: p,
    outline,
    blocks: document.blocks,
    title: outline.title,
    metaDescription: outline.metaDescription,
    language: p.request.language,
    keywords,
    wordCount: document.wordCount,
    readingTimeMinutes: Math.max(1, Math.round(document.wordCount / 200)),
    created: CREATED,
  };
  const jsonLd = articleJsonLd(source);
  return { plan: p, outline, document, source, jsonLd, markdown: document.markdown() };
}

const typesOf = (jsonLd: JsonLd) => jsonLd["@graph"].map((n) => n["@type"]);
const nodeOf = <T extends JsonLd["@graph"][number]["@type"]>(jsonLd: JsonLd, type: T) =>
  jsonLd["@graph"].find((n) => n["@type"] === type) as Extract<JsonLd["@graph"][number], { "@type": T }> | undefined;

/** Prose blocks as the Markdown shows them, grouped under the block that opens each group. */
function groups(markdown: string, opens: (block: { kind: string; text: string; depth?: number }) => boolean) {
  const out: { name: string; text: string[] }[] = [];
  let current: { name: string; text: string[] } | undefined;
  for (const block of blocksOf(markdown).blocks) {
    if (opens(block)) out.push((current = { name: block.text, text: [] }));
    else if (block.kind === "heading") current = undefined;
    else current?.text.push(block.text);
  }
  return out;
}

describe("the Article node", () => {
  it.each(["paragraphs", "sections", "listicle", "detailed", "how-to"])(
    "is always there, first, with what Google requires (%s)",
    async (structure) => {
      const { jsonLd, outline, document, plan: p } = await written({ structure });
      expect(v.is(JsonLdSchema, jsonLd)).toBe(true);
      const byType = expectValidJsonLd(jsonLd);
      expect(byType.Article).toEqual({
        "@type": "Article",
        headline: outline.title,
        description: outline.metaDescription,
        inLanguage: "en",
        keywords: [PRIMARY, "kitchen scraps"],
        wordCount: document.wordCount,
        timeRequired: `PT${Math.max(1, Math.round(document.wordCount / 200))}M`,
        datePublished: "2026-11-22T01:30:39.000Z",
        dateModified: "2026-11-22T01:30:39.000Z",
      });
      expect(p.preset).toBe(structure);
    },
  );

  it("holds nothing else for articles without an FAQ or steps", async () => {
    for (const structure of ["paragraphs", "sections", "listicle"])
      expect(typesOf((await written({ structure })).jsonLd)).toEqual(["Article"]);
  });

  it("cuts a long title to a headline of at most 110 characters on a word end", async () => {
    const title = `Compost bins ${"and garden waste ".repeat(5)}explained for you all`;
    expect(title.length).toBeGreaterThan(HEADLINE_MAX);
    expect(title.length).toBeLessThanOrEqual(120);
    const { jsonLd } = await written({ seo: { keywords: PRIMARY, title } }, title);
    const headline = nodeOf(jsonLd, "Article")!.headline;
    expect(headline.length).toBeLessThanOrEqual(HEADLINE_MAX);
    expect(title.startsWith(headline)).toBe(true);
    expect(title[headline.length]).toBe(" ");
    expect(headline).not.toMatch(/\s$/);
  });

  it("cuts a title without word ends on a whole character", async () => {
    const title = "😀".repeat(60);
    const { jsonLd } = await written({ seo: { keywords: PRIMARY, title } }, title);
    const headline = nodeOf(jsonLd, "Article")!.headline;
    expect(headline).toBe("😀".repeat(55));
  });

  it("leaves out a description the model never wrote", async () => {
    const p = planFor({}, TWO_KEYWORDS);
    const { source } = await written();
    const jsonLd = articleJsonLd({ ...source, plan: p, metaDescription: "" });
    expect(nodeOf(jsonLd, "Article")).not.toHaveProperty("description");
    expect(v.is(JsonLdSchema, jsonLd)).toBe(true);
  });

  it("answers in the article's language", async () => {
    const { jsonLd } = await written({ language: "de" });
    expect(nodeOf(jsonLd, "Article")!.inLanguage).toBe("de");
  });
});

describe("the FAQPage node", () => {
  it("lists every question of a detailed article with the paragraphs that answer it", async () => {
    const { jsonLd, markdown, outline, plan: p } = await written({ structure: "detailed" });
    expect(typesOf(jsonLd)).toEqual(["Article", "FAQPage"]);
    expectValidJsonLd(jsonLd);
    const faq = nodeOf(jsonLd, "FAQPage")!;
    const questions = outline.sections[p.sections.findIndex((s) => s.kind === "faq")]!.subheadings;
    expect(questions.length).toBeGreaterThanOrEqual(3);
    // The Markdown's H3s that are questions, with the paragraphs under each.
    const expected = groups(markdown, (b) => b.kind === "heading" && b.depth === 3 && b.text.endsWith("?"));
    expect(expected.map((g) => g.name)).toEqual(questions);
    expect(faq.mainEntity).toEqual(
      expected.map((g) => ({ "@type": "Question", name: g.name, acceptedAnswer: { "@type": "Answer", text: g.text.join("\n\n") } })),
    );
    expect(faq.inLanguage).toBe("en");
  });

  it("finds the questions as paragraphs when headings are off", async () => {
    const { jsonLd, markdown, outline, plan: p } = await written({ structure: "detailed", seo: { keywords: PRIMARY, headingTags: false } });
    expect(typesOf(jsonLd)).toEqual(["Article", "FAQPage"]);
    expectValidJsonLd(jsonLd);
    const questions = outline.sections[p.sections.findIndex((s) => s.kind === "faq")]!.subheadings;
    const { blocks } = blocksOf(markdown);
    expect(blocks.some((b) => b.kind === "heading")).toBe(false);
    const expected = questions.map((q, i) => {
      const at = blocks.findIndex((b) => b.text === q);
      const next = i + 1 < questions.length ? blocks.findIndex((b) => b.text === questions[i + 1]) : blocks.length;
      expect(at).toBeGreaterThanOrEqual(0);
      return {
        "@type": "Question",
        name: q,
        acceptedAnswer: {
          "@type": "Answer",
          text: blocks
            .slice(at + 1, next)
            .map((b) => b.text)
            .join("\n\n"),
        },
      };
    });
    expect(nodeOf(jsonLd, "FAQPage")!.mainEntity).toEqual(expected);
  });

  it("leaves out a question the article does not hold", async () => {
    const { source, outline, plan: p } = await written({ structure: "detailed" });
    const faq = p.sections.findIndex((s) => s.kind === "faq");
    const missing = structuredClone(outline);
    missing.sections[faq]!.subheadings.splice(1, 0, "A question never written?");
    const jsonLd = articleJsonLd({ ...source, outline: missing });
    expect(nodeOf(jsonLd, "FAQPage")!.mainEntity.map((q) => q.name)).toEqual(outline.sections[faq]!.subheadings);
  });
});

describe("the HowTo node", () => {
  it("has one step per numbered step heading, with the paragraphs under it", async () => {
    const { jsonLd, markdown, outline } = await written({ structure: "how-to" });
    expect(typesOf(jsonLd)).toEqual(["Article", "HowTo"]);
    expectValidJsonLd(jsonLd);
    const howTo = nodeOf(jsonLd, "HowTo")!;
    const expected = groups(markdown, (b) => b.kind === "heading" && b.depth === 2 && /^\d+\. /.test(b.text));
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(howTo.step).toEqual(
      expected.map((g) => {
        const [, number, name] = g.name.match(/^(\d+)\. (.*)$/)!;
        return { "@type": "HowToStep", position: Number(number), name, text: g.text.join("\n\n") };
      }),
    );
    expect(howTo).toMatchObject({ name: outline.title, description: outline.metaDescription, inLanguage: "en" });
  });

  it("is left out when headings are off: the article shows no steps", async () => {
    const { jsonLd } = await written({ structure: "how-to", seo: { keywords: PRIMARY, headingTags: false } });
    expect(typesOf(jsonLd)).toEqual(["Article"]);
  });

  it("restates only the article's own text", async () => {
    const { jsonLd, markdown } = await written({ structure: "how-to" });
    const texts = new Set(blocksOf(markdown).blocks.map((b) => b.text));
    for (const step of nodeOf(jsonLd, "HowTo")!.step) {
      expect(texts.has(`${step.position}. ${step.name}`)).toBe(true);
      for (const paragraph of step.text.split("\n\n")) expect(texts.has(paragraph)).toBe(true);
    }
  });
});

describe("serialising for a script element", () => {
  const hostile = "</script><script>alert(1)</script> <!--<script> & \u2028 \u2029 </SCRIPT > -->";

  it("escapes <, >, &, U+2028 and U+2029 and parses back to the same object", () => {
    const value = { "@context": "https://schema.org", "@graph": [{ "@type": "Article", headline: hostile }] } as unknown as JsonLd;
    const text = serialiseJsonLd(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/u);
    expect(text).toContain("\\u003c/script\\u003e\\u003cscript\\u003e");
    expect(text).toContain("\\u003c!--");
    expect(text).toContain("\\u0026 \\u2028 \\u2029");
    expect(JSON.parse(text)).toEqual(value);
  });

  it("keeps hostile titles, descriptions, keywords and answers inside the one script of the head", async () => {
    const title = `Compost bins ${hostile}`;
    const keywords = `${PRIMARY}, <!-- kitchen </script> scraps`;
    const { jsonLd, document, source } = await written({ structure: "detailed", seo: { keywords, title } }, title);
    // A hostile description, and a hostile sentence in the last FAQ answer.
    const worse = articleJsonLd({
      ...source,
      metaDescription: hostile,
      blocks: [...source.blocks, { kind: "prose", text: hostile, words: 9, sentences: [hostile] }],
    });
    expect(nodeOf(worse, "FAQPage")!.mainEntity.at(-1)!.acceptedAnswer.text.endsWith(`\n\n${hostile}`)).toBe(true);
    for (const value of [jsonLd, worse]) {
      // The body gets a hostile paragraph too: model text is escaped there as text.
      const tree = structuredClone(document.tree);
      tree.children.push({ type: "paragraph", children: [{ type: "text", value: hostile }] });
      const html = renderArticle(tree, { title, metaDescription: hostile, language: "en", jsonLd: value }).page;
      expect(jsonLdOf(html)).toEqual(value);
      expect(scriptsOf(html)).toHaveLength(1);
    }
    expect(nodeOf(jsonLd, "Article")!.headline).toBe(title);
    expect(nodeOf(jsonLd, "Article")!.keywords).toEqual([PRIMARY, "<!-- kitchen </script> scraps"]);
  });

  it("puts the script after the title and description in the head", async () => {
    const { jsonLd, document, outline } = await written({ structure: "how-to" });
    const html = renderArticle(document.tree, {
      title: outline.title,
      metaDescription: outline.metaDescription,
      language: "en",
      jsonLd,
    }).page;
    const head = html.slice(html.indexOf("<head>"), html.indexOf("</head>"));
    expect(head.indexOf("<title>")).toBeLessThan(head.indexOf('<meta name="description"'));
    expect(head.indexOf('<meta name="description"')).toBeLessThan(head.indexOf("<script"));
    expect(head).toMatch(/<\/script>\n$/);
    expect(jsonLdOf(html)).toEqual(jsonLd);
  });
});
