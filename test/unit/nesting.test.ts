import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { readPage } from "../../src/article/existing/page.js";
import { htmlShape } from "../../src/contract/html-shape.js";
import { markdownDepth, MAX_NESTING } from "../../src/contract/nesting.js";
import { AnalyseRequestSchema } from "../../src/contract/analyse.js";
import { SourcesSchema } from "../../src/contract/request.js";
import { InvalidFieldError } from "../../src/errors.js";
import { RefreshRequestSchema } from "../../src/contract/refresh.js";

const htmlDepth = (text: string) => htmlShape(text, MAX_NESTING).depth;

// The nesting limit: Markdown and HTML nested deeper than MAX_NESTING levels are refused,
// naming the field, before a parser recurses; what articles hold passes.

const DEEP = 8000;

describe("markdownDepth", () => {
  it("counts blockquote and list markers, and the indent of a nested list item", () => {
    expect(markdownDepth("> > > a")).toBe(3);
    expect(markdownDepth("- a\n  - b\n    - c")).toBe(3);
    expect(markdownDepth("1. a\n   > quoted")).toBe(2);
    expect(markdownDepth("> ".repeat(DEEP))).toBeGreaterThan(MAX_NESTING);
    expect(markdownDepth("- ".repeat(DEEP))).toBeGreaterThan(MAX_NESTING);
  });

  it("counts runs of emphasis and brackets, but not a rule made of one", () => {
    expect(markdownDepth(`${"*".repeat(DEEP)}a${"*".repeat(DEEP)}`)).toBeGreaterThan(MAX_NESTING);
    expect(markdownDepth(`${"[".repeat(DEEP)}a`)).toBeGreaterThan(MAX_NESTING);
    expect(markdownDepth(`Text\n\n${"_".repeat(400)}\n\nMore **bold** and [a link](https://example.com).`)).toBeLessThan(5);
  });
});

describe("htmlDepth", () => {
  it("counts open elements as the tree builder keeps them", () => {
    expect(htmlDepth("<blockquote>".repeat(DEEP))).toBeGreaterThan(MAX_NESTING);
    expect(htmlDepth("<div><p>a</p><p>b</div>")).toBe(2);
    // Paragraphs and list items that are never closed end at the next one.
    expect(htmlDepth("<p>a".repeat(500))).toBe(1);
    expect(htmlDepth(`<ul>${"<li>a".repeat(500)}</ul>`)).toBe(2);
    expect(htmlDepth("a<br>".repeat(500))).toBe(0);
    expect(htmlDepth(`<svg>${'<path d="M0"/>'.repeat(500)}</svg>`)).toBe(1);
    expect(htmlDepth(`<script>${"<div>".repeat(500)}</script><p>a`)).toBe(1);
    expect(htmlDepth(`<!-- ${"<div>".repeat(500)} --><p>a`)).toBe(1);
  });
});

describe("the nesting limit", () => {
  it("refuses a page before it is parsed, naming the field", () => {
    for (const page of [{ markdown: "> ".repeat(DEEP) }, { html: "<blockquote>".repeat(DEEP) }]) {
      const field = Object.keys(page)[0]!;
      let thrown: unknown;
      try {
        readPage(page, field);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(InvalidFieldError);
      expect((thrown as InvalidFieldError).field).toBe(field);
    }
  });

  it("is a validation issue on analyse, refresh and sources, at the field's path", () => {
    const path = (result: v.SafeParseResult<v.GenericSchema>) =>
      result.success ? "passed" : result.issues[0].path?.map((p) => p.key).join(".");
    expect(path(v.safeParse(AnalyseRequestSchema, { markdown: "> ".repeat(DEEP) }))).toBe("markdown");
    expect(path(v.safeParse(AnalyseRequestSchema, { html: "<blockquote>".repeat(DEEP) }))).toBe("html");
    expect(path(v.safeParse(RefreshRequestSchema, { markdown: "> ".repeat(DEEP) }))).toBe("markdown");
    expect(
      path(
        v.safeParse(SourcesSchema, [
          { title: "A", text: "ok" },
          { title: "B", text: "> ".repeat(DEEP) },
        ]),
      ),
    ).toBe("1.text");
    expect(path(v.safeParse(AnalyseRequestSchema, { markdown: "> > quoted\n\n- a\n  - b" }))).toBe("passed");
  });
});
