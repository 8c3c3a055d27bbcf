import { readFileSync } from "node:fs";
import path from "node:path";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { parseMarkdown } from "../../src/article/text/markdown.js";
import { htmlShape } from "../../src/contract/html-shape.js";
import { markdownDepth, MAX_NESTING } from "../../src/contract/nesting.js";
import { PARSE_BUDGET, parseCost } from "../../src/contract/parse-cost.js";
import { AnalyseRequestSchema } from "../../src/contract/analyse.js";
import { PublishRequestSchema } from "../../src/contract/publish.js";
import { InvalidFieldError } from "../../src/errors.js";

const htmlDepth = (text: string) => htmlShape(text, MAX_NESTING).depth;

// The pre-checks read text in time linear in it, and bound what the Markdown parser would
// take with the square of: CPU time, never wall time, with a generous margin.

/** CPU milliseconds of `run` on `input`, the quickest of 3 runs (each repeated to at least 10 ms). */
function cpuMs(run: (input: string) => unknown, input: string): number {
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 3; round++) {
    let reps = 0;
    const start = process.cpuUsage();
    let spent = 0;
    do {
      run(input);
      reps++;
      const used = process.cpuUsage(start);
      spent = (used.user + used.system) / 1000;
    } while (spent < 10);
    best = Math.min(best, spent / reps);
  }
  return best;
}

/**
 * The time for 16 times the input over the time for the input: linear work takes about 16 times
 * as long, square work 256 times. One ratio over the whole span, not one per doubling: a
 * collection or a busy machine can slow a single step by half, never the span by three.
 */
function growth(run: (input: string) => unknown, make: (n: number) => string, n: number): number {
  run(make(n)); // warm up
  return cpuMs(run, make(n * 16)) / cpuMs(run, make(n));
}

/** Most growth over 16 times the input that still reads as linear: three times linear, far under the square's 256. */
const LINEAR = 48;

describe("the pre-checks before parsing", () => {
  // The tag pattern this replaced took the cube of these: 4 KB of `<a` stalled a server 9 s.
  const inputs: Array<[string, (n: number) => string]> = [
    ["unclosed tags", (n) => "<a".repeat(n)],
    ["tags without an end", (n) => "<a b='".repeat(n)],
    ["comments never closed", (n) => "<!-".repeat(n)],
    ["nested elements", (n) => "<div><p>text</p>".repeat(n)],
    ["formatting left open paragraph after paragraph", (n) => "<p><b>bees</p><p><i class=x>wasps</p>".repeat(n)],
  ];
  for (const [name, make] of inputs)
    it(`read ${name} in HTML in linear time`, () => {
      expect(growth(htmlDepth, make, 4000)).toBeLessThan(LINEAR);
    });

  const markdown: Array<[string, (n: number) => string]> = [
    ["lazy lines", (n) => `> a\n${"b\n".repeat(n)}`],
    ["setext pairs", (n) => "a\n=\n".repeat(n)],
    ["emphasis runs", (n) => "*a_".repeat(n)],
    ["deep quotes line after line", (n) => "> > > > a\n".repeat(n)],
  ];
  for (const [name, make] of markdown)
    it(`read ${name} in Markdown in linear time, nesting and parse cost alike`, () => {
      expect(growth((text) => [markdownDepth(text), parseCost(text)], make, 4000)).toBeLessThan(LINEAR);
    });
});

describe("the parse budget", () => {
  // Each input is what the parser takes with the square of: measured, 8,000 setext pairs 23 s.
  const costly: Array<[string, string]> = [
    ["24 KB of setext pairs", "a\n=\n".repeat(6000)],
    ["30 KB of a blockquote's lazy lines", `> a\n${"b\n".repeat(15_000)}`],
    ["empty list items between paragraphs", "a\n\n-\n".repeat(8000)],
    ["50,000 emphasis marks", "*a".repeat(50_000)],
    ["brackets with no partner", "a]".repeat(8000)],
  ];
  for (const [name, text] of costly)
    it(`refuses ${name} before parsing, naming the field`, () => {
      let thrown: unknown;
      try {
        parseMarkdown(text, "sources[1].text");
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(InvalidFieldError);
      expect((thrown as InvalidFieldError).field).toBe("sources[1].text");
      expect((thrown as InvalidFieldError).problem).toMatch(/^too costly to parse/);
    });

  it("is a validation issue of analyse and publish, saying what to change", () => {
    const result = v.safeParse(AnalyseRequestSchema, { markdown: "a\n=\n".repeat(6000) });
    expect(result.success).toBe(false);
    expect(result.issues?.[0].message).toMatch(/^markdown is too costly to parse: .*write headings with #/);
    const publish = v.safeParse(PublishRequestSchema, { markdown: "*a_".repeat(8000), publish: { target: "blog" } });
    expect(publish.issues?.[0].message).toMatch(/^markdown is too costly to parse: a paragraph has too many/);
  });

  it("passes the repository's own documents with room to spare", () => {
    const root = path.resolve(import.meta.dirname, "../..");
    for (const file of ["README.md", "docs/api.md", "docs/operating.md", "docs/guarantees.md", "docs/performance.md"]) {
      const cost = parseCost(readFileSync(path.join(root, file), "utf8"));
      expect(Math.max(cost.structure, cost.inline), file).toBeLessThan(PARSE_BUDGET / 10);
    }
  });

  it("keeps an article with setext headings, a lazy quote and a list passing", () => {
    const article = [
      "Keeping bees in a small garden",
      "==============================",
      "",
      "> The first spring I kept bees, I was stung *twice* before breakfast,",
      "and I still went back out after lunch.",
      "",
      "- a hive stand, level and off the ground",
      "a second line of the same item",
      "- a smoker and [dry fuel](https://example.com/fuel)",
      "",
      "Where to put the hive",
      "---------------------",
      "",
      "Face the entrance south-east, out of the wind, with water close by.",
    ].join("\n");
    expect(parseCost(article).structure).toBeLessThan(1000);
    expect(parseMarkdown(article).children.map((node) => node.type)).toEqual(["heading", "blockquote", "list", "heading", "paragraph"]);
  });
});

describe("HTML the tree builder reopens, paragraph after paragraph", () => {
  /** Each paragraph leaves a `<b>` open, one unlike the others: the builder reopens all of them in each paragraph after. */
  const reopened = (paragraphs: number) => Array.from({ length: paragraphs }, (_, i) => `<p><b id=b${i}>bees</p>`).join("");

  it("counts the elements the builder reopens and how deep they nest, as it builds them", () => {
    // 50 paragraphs: the n-th holds the n-1 reopened before its own, 1,225 in all, 51 deep (measured with parse5).
    expect(htmlShape(reopened(50), MAX_NESTING)).toEqual({ depth: 51, reopenedAtDepth: 49, reopened: 1225 });
    // Three alike at most stay active, an `<a>` closes the one before it, an end tag ends one, a cell drops what it opened.
    expect(htmlShape("<p><b>x</p>".repeat(100), MAX_NESTING).reopened).toBe(294);
    expect(htmlShape("<p><a href=x>y</p>".repeat(100), MAX_NESTING).reopened).toBe(0);
    expect(htmlShape("<p><i>a<b>b</i>c</b></p>".repeat(50), MAX_NESTING).reopened).toBe(50);
    expect(htmlShape(`<table>${"<tr><td><font color=red>x</td></tr>".repeat(100)}</table>`, MAX_NESTING).reopened).toBe(0);
  });

  it("refuses such a page before it is parsed, saying what to change, nested too deep or too many", () => {
    // 1,500 took minutes to build (each paragraph 1,500 deep); 100 left open, then 1,000 short paragraphs, 100,000 elements.
    const many = `<p>${Array.from({ length: 100 }, (_, i) => `<b id=b${i}>`).join("")}</p>${"<p>x</p>".repeat(1000)}`;
    for (const [html, how] of [
      [reopened(1500), /nested over 128 deep/],
      [many, /100000 elements/],
    ] as const) {
      const result = v.safeParse(AnalyseRequestSchema, { html });
      expect(result.success).toBe(false);
      expect(result.issues?.[0].message).toMatch(
        /^html is too costly to parse: it leaves formatting elements .* open, and the browser reopens/,
      );
      expect(result.issues?.[0].message).toMatch(how);
      expect(result.issues?.[0].message).toMatch(/close each with its end tag$/);
    }
  });
});
