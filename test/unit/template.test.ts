import type { Heading, List, Nodes, Paragraph, Root } from "mdast";
import { toString } from "mdast-util-to-string";
import remarkParse from "remark-parse";
import { unified } from "unified";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import type { GeneratedArticle, GeneratedSection } from "../../src/article/generate.js";
import { plan, type Plan } from "../../src/article/plan.js";
import { GenerateRequestSchema, type Preset } from "../../src/article/request.js";
import { htmlDocument, template } from "../../src/article/template.js";

// The template stage on hand-built model output: no model, every byte predictable.

const PRIMARY = "indoor plants";
const TITLE = "Indoor plants: a calm guide for busy people";
const META = "Indoor plants need light, water and a little patience. This guide shows how to keep indoor plants healthy with a simple weekly routine.";

const text = (value: string) => ({ type: "text" as const, value });
const p = (value: string): Paragraph => ({ type: "paragraph", children: [text(value)] });
const h3 = (value: string): Heading => ({ type: "heading", depth: 3, children: [text(value)] });
const list = (...items: string[]): List => ({
  type: "list",
  ordered: false,
  spread: false,
  children: items.map((item) => ({ type: "listItem", spread: false, children: [p(item)] })),
});

const INTRO = "Indoor plants make a room feel alive. They also clean the air a little.";
const FAQ_QUESTIONS = ["What is indoor plants?", "Why does indoor plants matter?", "How do you get started with indoor plants?"];
const SUBHEADINGS = ["How often to water", "Signs of overwatering", "Choosing a pot", "Mixing potting soil"];
const BODY_HEADINGS = ["Watering indoor plants well", "Pots and soil"];

/** A `detailed` article as generate() returns it: sections with H3 subsections and an FAQ. */
function detailedArticle(): GeneratedArticle {
  return {
    title: TITLE,
    metaDescription: META,
    sections: [
      { kind: "introduction", heading: null, children: [p(INTRO), p("Most of them forgive small mistakes.")] },
      { kind: "takeaways", heading: "Key takeaways", children: [list("Water less than you think.", "Give them bright light.", "Repot every spring.")] },
      {
        kind: "body",
        heading: BODY_HEADINGS[0]!,
        children: [h3(SUBHEADINGS[0]!), p("Check the soil with a finger first."), h3(SUBHEADINGS[1]!), p("Yellow leaves often mean wet roots.")],
      },
      {
        kind: "body",
        heading: BODY_HEADINGS[1]!,
        children: [h3(SUBHEADINGS[2]!), p("A pot needs a drainage hole."), h3(SUBHEADINGS[3]!), p("Add some bark to keep the mix airy.")],
      },
      { kind: "conclusion", heading: "Conclusion", children: [p("Indoor plants reward a steady routine.")] },
      {
        kind: "faq",
        heading: "Frequently asked questions",
        children: FAQ_QUESTIONS.flatMap((q, i) => [h3(q), p(`Answer number ${i + 1} is short and clear.`)]),
      },
    ],
  };
}

/** A `sections` / `paragraphs` article: H2 sections without subsections. */
function sectionsArticle(): GeneratedArticle {
  return {
    title: TITLE,
    metaDescription: META,
    sections: [
      { kind: "introduction", heading: null, children: [p(INTRO)] },
      { kind: "body", heading: BODY_HEADINGS[0]!, children: [p("Check the soil with a finger first.")] },
      { kind: "body", heading: BODY_HEADINGS[1]!, children: [p("A pot needs a drainage hole.")] },
      { kind: "conclusion", heading: "Conclusion", children: [p("Indoor plants reward a steady routine.")] },
    ],
  };
}

function planFor(structure: Preset, headingTags: boolean, extra: { language?: string; keywords?: string } = {}): Plan {
  return plan(
    v.parse(GenerateRequestSchema, {
      topic: "Caring for indoor plants",
      structure,
      length: 800,
      seed: 1,
      language: extra.language ?? "en",
      seo: { keywords: extra.keywords ?? "indoor plants, watering schedule", headingTags },
    }),
  );
}

const articleFor = (structure: Preset) => (structure === "detailed" ? detailedArticle() : sectionsArticle());

function parse(markdown: string): Root {
  return unified().use(remarkParse).parse(markdown);
}

/** Every node of a tree, depth first, in document order. */
function nodes(node: Nodes): Nodes[] {
  return [node, ...("children" in node ? node.children.flatMap((child) => nodes(child)) : [])];
}

const headingsOf = (tree: Root) => nodes(tree).filter((n): n is Heading => n.type === "heading");
const paragraphsOf = (tree: Root) => nodes(tree).filter((n): n is Paragraph => n.type === "paragraph").map((n) => toString(n));
const htmlHeadingLevels = (html: string) => [...html.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));

/** Decode the character references rehype-stringify writes. */
function decodeHtml(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");
}

describe("template: headingTags true", () => {
  describe.each(["sections", "detailed"] as const)("%s", (structure) => {
    const result = template(planFor(structure, true), articleFor(structure));
    const tree = parse(result.markdown);
    const headings = headingsOf(tree);

    it("starts with the one H1, the title", () => {
      expect(tree.children[0]).toMatchObject({ type: "heading", depth: 1 });
      expect(toString(tree.children[0]!)).toBe(TITLE);
      expect(headings.filter((h) => h.depth === 1)).toHaveLength(1);
      expect(result.markdown.startsWith(`# ${TITLE}\n`)).toBe(true);
    });

    it("has only H2 and H3 below it, with no level skipped", () => {
      const depths = headings.map((h) => h.depth);
      expect(depths.slice(1).every((d) => d === 2 || d === 3), depths.join(",")).toBe(true);
      depths.forEach((d, i) => expect(d, `heading ${i}: H${d} after H${depths[i - 1] ?? 0}`).toBeLessThanOrEqual((depths[i - 1] ?? 0) + 1));
    });

    it("shows every section heading as an H2, the introduction without one", () => {
      const h2 = headings.filter((h) => h.depth === 2).map((h) => toString(h));
      const expected = articleFor(structure).sections.flatMap((s) => (s.heading ? [s.heading] : []));
      expect(h2).toEqual(expected);
      // The introduction sits right under the title.
      expect(tree.children[1]).toMatchObject({ type: "paragraph" });
      expect(toString(tree.children[1]!)).toBe(INTRO);
    });

    it("gives the HTML the same headings as the Markdown", () => {
      expect(htmlHeadingLevels(result.html)).toEqual(headings.map((h) => h.depth));
      expect(result.html.startsWith(`<h1>`)).toBe(true);
    });
  });

  it("detailed: subsection H3s sit under their H2, FAQ questions are H3s each followed by an answer", () => {
    const tree = parse(template(planFor("detailed", true), detailedArticle()).markdown);
    const h3s = headingsOf(tree).filter((h) => h.depth === 3).map((h) => toString(h));
    expect(h3s).toEqual([...SUBHEADINGS, ...FAQ_QUESTIONS]);
    const top = tree.children;
    const faqAt = top.findIndex((n) => n.type === "heading" && toString(n) === "Frequently asked questions");
    const faq = top.slice(faqAt + 1);
    expect(faq.map((n) => n.type)).toEqual(FAQ_QUESTIONS.flatMap(() => ["heading", "paragraph"]));
    // The takeaways list comes right after its H2.
    const listAt = top.findIndex((n) => n.type === "list");
    expect(toString(top[listAt - 1]!)).toBe("Key takeaways");
  });
});

describe("template: headingTags false", () => {
  describe.each(["paragraphs", "sections", "detailed"] as const)("%s", (structure) => {
    const article = articleFor(structure);
    const result = template(planFor(structure, false), article);
    const tree = parse(result.markdown);

    it("has no heading nodes at all: no # line, no <h1>–<h6>", () => {
      expect(headingsOf(result.tree)).toEqual([]);
      expect(headingsOf(tree)).toEqual([]);
      expect(result.markdown).not.toMatch(/^ {0,3}#/m);
      expect(result.markdown).not.toMatch(/^ {0,3}(=+|-+)\s*$/m);
      expect(result.html).not.toMatch(/<h[1-6][\s>]/);
    });

    it("starts with the introduction and keeps the title outside the body", () => {
      expect(tree.children[0]).toMatchObject({ type: "paragraph" });
      expect(toString(tree.children[0]!)).toBe(INTRO);
      expect(result.title).toBe(TITLE);
      expect(result.markdown).not.toContain(TITLE);
    });

    it("drops section headings and subsection H3s but keeps all their prose", () => {
      for (const heading of [...BODY_HEADINGS, ...SUBHEADINGS, "Key takeaways", "Conclusion", "Frequently asked questions"]) {
        expect(result.markdown).not.toContain(heading);
      }
      const prose = article.sections.flatMap((s) => s.children.filter((c) => c.type !== "heading").flatMap((c) => paragraphsOf({ type: "root", children: [c] })));
      const paragraphs = paragraphsOf(tree);
      for (const paragraph of prose) expect(paragraphs).toContain(paragraph);
    });

    it("still lists every section in the outline", () => {
      const level2 = result.outline.filter((e) => e.level === 2).map((e) => e.text);
      expect(level2).toEqual(article.sections.map((s) => s.heading ?? "Introduction"));
      const level3 = result.outline.filter((e) => e.level === 3).map((e) => e.text);
      const h3 = article.sections.flatMap((s) => s.children.filter((c): c is Heading => c.type === "heading").map((c) => toString(c)));
      expect(level3).toEqual(h3);
    });
  });

  it("detailed: FAQ questions stay, each as its own paragraph before its answer", () => {
    const tree = parse(template(planFor("detailed", false), detailedArticle()).markdown);
    const paragraphs = paragraphsOf(tree);
    for (const [i, question] of FAQ_QUESTIONS.entries()) {
      const at = paragraphs.indexOf(question);
      expect(at, question).toBeGreaterThan(0);
      expect(paragraphs[at + 1]).toBe(`Answer number ${i + 1} is short and clear.`);
    }
    // The article ends with the FAQ: question, answer, question, answer…
    expect(paragraphs.slice(-FAQ_QUESTIONS.length * 2)).toEqual(FAQ_QUESTIONS.flatMap((q, i) => [q, `Answer number ${i + 1} is short and clear.`]));
    // The takeaways list comes right after the introduction paragraphs.
    expect(tree.children.map((n) => n.type).slice(0, 3)).toEqual(["paragraph", "paragraph", "list"]);
  });
});

describe("template: paragraphs preset", () => {
  it("with headingTags true shows the H1 title and no H2 or H3", () => {
    const article = sectionsArticle();
    const result = template(planFor("paragraphs", true), article);
    const tree = parse(result.markdown);
    expect(headingsOf(tree).map((h) => h.depth)).toEqual([1]);
    expect(tree.children[0]).toMatchObject({ type: "heading", depth: 1 });
    expect(htmlHeadingLevels(result.html)).toEqual([1]);
    for (const heading of BODY_HEADINGS) expect(result.markdown).not.toContain(heading);
    expect(tree.children.slice(1).every((n) => n.type === "paragraph")).toBe(true);
    expect(result.outline.length).toBeGreaterThan(0);
  });

  it("drops H3s a model-written section might carry", () => {
    const article = detailedArticle();
    const tree = parse(template(planFor("paragraphs", true), article).markdown);
    expect(headingsOf(tree).map((h) => h.depth)).toEqual([1]);
  });
});

describe("template: slug", () => {
  const ASCII_SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

  it("starts with the keyword slug, then words of the title", () => {
    const result = template(planFor("sections", true), sectionsArticle());
    expect(result.slug.startsWith("indoor-plants-")).toBe(true);
    expect(result.slug).toMatch(ASCII_SLUG);
    expect(result.slug).toContain("guide");
    // The keyword is not repeated from the title.
    expect(result.slug.split("indoor-plants").length - 1).toBe(1);
  });

  it("stays at most 75 characters and cuts on a word", () => {
    const article = { ...sectionsArticle(), title: `Indoor plants ${"and extraordinarily resilient greenery ".repeat(6)}` };
    const slug = template(planFor("sections", true), article).slug;
    expect(slug.length).toBeLessThanOrEqual(75);
    expect(slug).toMatch(ASCII_SLUG);
    expect(slug.startsWith("indoor-plants-")).toBe(true);
    const words = new Set(["indoor", "plants", "and", "extraordinarily", "resilient", "greenery"]);
    for (const word of slug.split("-")) expect(words.has(word), word).toBe(true);
  });

  it("transliterates accents and is built when the keyword is missing from the title", () => {
    const plan = planFor("sections", true, { language: "fr", keywords: "Café crème, lait" });
    const slug = template(plan, { ...sectionsArticle(), title: "Le guide du barista" }).slug;
    expect(slug.startsWith("cafe-creme-")).toBe(true);
    expect(slug).toMatch(ASCII_SLUG);
  });

  it("is ASCII, non-empty and stable for a Japanese keyword and title", () => {
    const plan = planFor("sections", true, { language: "ja", keywords: "観葉植物, 水やり" });
    const article = { ...sectionsArticle(), title: "観葉植物の育て方ガイド" };
    const slug = template(plan, article).slug;
    expect(slug).toMatch(ASCII_SLUG);
    expect(slug.length).toBeGreaterThan(0);
    expect(slug.length).toBeLessThanOrEqual(75);
    expect(template(plan, structuredClone(article)).slug).toBe(slug);
  });

  it("keeps a keyword with an acronym in slug form", () => {
    const plan = planFor("sections", true, { keywords: "SEO tools" });
    const slug = template(plan, { ...sectionsArticle(), title: "SEO tools that small shops can afford" }).slug;
    expect(slug.startsWith("seo-tools-")).toBe(true);
    expect(slug).toMatch(ASCII_SLUG);
  });
});

describe("template: model text is text", () => {
  const HOSTILE = 'Click <script>alert("x")</script> or <b>here</b> & # not a heading, *not* emphasis, [not](a link).';
  const article = (): GeneratedArticle => {
    const a = sectionsArticle();
    const intro: GeneratedSection = { kind: "introduction", heading: null, children: [p(HOSTILE)] };
    return { ...a, title: "Indoor plants <script>x</script> & more", metaDescription: 'Say "hi" & <script>bye</script>', sections: [intro, ...a.sections.slice(1)] };
  };

  it("escapes <script> and other markup in the HTML fragment", () => {
    const result = template(planFor("sections", true), article());
    expect(result.html).not.toMatch(/<script/i);
    expect(result.html).not.toMatch(/<b>/);
    expect(result.html).not.toMatch(/<a[\s>]/);
    expect(result.html).not.toMatch(/<em>/);
    const paragraph = result.html.match(/<p>(.*?)<\/p>/)![1]!;
    expect(decodeHtml(paragraph)).toBe(HOSTILE);
  });

  it("escapes it in the Markdown: it parses back to the same plain text, with no raw HTML node", () => {
    const result = template(planFor("sections", true), article());
    const tree = parse(result.markdown);
    expect(nodes(tree).filter((n) => ["html", "link", "emphasis", "strong"].includes(n.type))).toEqual([]);
    expect(paragraphsOf(tree)[0]).toBe(HOSTILE);
    expect(toString(tree.children[0]!)).toBe("Indoor plants <script>x</script> & more");
  });

  it("escapes it in the HTML document's title, meta description and body", () => {
    const plan = planFor("sections", true);
    const document = htmlDocument(plan, template(plan, article()));
    // Inside a quoted attribute value "<" is plain text; everywhere else it must be escaped.
    expect(document.replace(/="[^"]*"/g, '=""')).not.toMatch(/<script/i);
    expect(decodeHtml(document.match(/<title>(.*?)<\/title>/)![1]!)).toBe("Indoor plants <script>x</script> & more");
    expect(decodeHtml(document.match(/<meta name="description" content="([^"]*)">/)![1]!)).toBe('Say "hi" & <script>bye</script>');
  });
});

describe("template: determinism", () => {
  it.each(["paragraphs", "sections", "detailed"] as const)("%s: the same input gives byte-identical Markdown and HTML", (structure) => {
    for (const headingTags of [true, false]) {
      const input = articleFor(structure);
      const before = JSON.stringify(input);
      const a = template(planFor(structure, headingTags), input);
      const b = template(planFor(structure, headingTags), structuredClone(input));
      expect(b.markdown).toBe(a.markdown);
      expect(b.html).toBe(a.html);
      expect(b.slug).toBe(a.slug);
      expect(b.outline).toEqual(a.outline);
      // template() does not change the generated article it is given.
      expect(JSON.stringify(input)).toBe(before);
      const plan = planFor(structure, headingTags);
      expect(htmlDocument(plan, template(plan, input))).toBe(htmlDocument(plan, template(plan, structuredClone(input))));
    }
  });

  it("serialises with fixed options: '-' bullets, ATX headings, a trailing newline", () => {
    const { markdown } = template(planFor("detailed", true), detailedArticle());
    expect(markdown).toMatch(/^- Water less than you think\.$/m);
    expect(markdown).toMatch(/^## Key takeaways$/m);
    expect(markdown).toMatch(/^### How often to water$/m);
    expect(markdown.endsWith("\n")).toBe(true);
    expect(markdown.endsWith("\n\n")).toBe(false);
  });
});

describe("template: HTML document", () => {
  it("has lang, dir=ltr, the title and the meta description for English", () => {
    const plan = planFor("sections", true);
    const result = template(plan, sectionsArticle());
    const document = htmlDocument(plan, result);
    expect(document).toMatch(/^<!doctype html>/i);
    expect(document).toMatch(/<html[^>]*\slang="en"/);
    expect(document).toMatch(/<html[^>]*\sdir="ltr"/);
    expect(document).toContain(`<title>${TITLE}</title>`);
    expect(decodeHtml(document.match(/<meta name="description" content="([^"]*)">/)![1]!)).toBe(META);
    expect(document).toMatch(/<meta charset="utf-8">/i);
    // The body is the article fragment.
    expect(document).toContain(result.html.split("\n")[0]!);
  });

  it('has dir="rtl" and lang="ar" for Arabic', () => {
    const plan = planFor("sections", true, { language: "ar", keywords: "النباتات المنزلية" });
    const article = { ...sectionsArticle(), title: "النباتات المنزلية للمبتدئين", metaDescription: "دليل عملي عن النباتات المنزلية." };
    const document = htmlDocument(plan, template(plan, article));
    expect(document).toMatch(/<html[^>]*\sdir="rtl"/);
    expect(document).toMatch(/<html[^>]*\slang="ar"/);
    expect(document).toContain("<title>النباتات المنزلية للمبتدئين</title>");
    expect(document).toContain('<meta name="description" content="دليل عملي عن النباتات المنزلية.">');
  });

  it("keeps the title in <title> when headingTags is false, and has no heading element", () => {
    const plan = planFor("detailed", false, { language: "de", keywords: "Zimmerpflanzen" });
    const document = htmlDocument(plan, template(plan, detailedArticle()));
    expect(document).toContain(`<title>${TITLE}</title>`);
    expect(document).toMatch(/<html[^>]*\slang="de"/);
    expect(document).not.toMatch(/<h[1-6][\s>]/);
  });
});
