import { describe, expect, it } from "vitest";
import { unknownFieldReason } from "../../src/did-you-mean.js";

// A body's fields, as the request schema's field map gives them to an unknown field.
const TOP = ["topic", "length", "tone", "seo", "links", "publish"];
const ELSEWHERE = ["seo.keywords", "seo.title", "links[i].url", "links[i].title", "links[i].keywords", "publish.status", "publish.tags"];

describe("the suggestion for an unknown field", () => {
  it("is a sibling a typo away, named by its whole path inside an object", () => {
    expect(unknownFieldReason("lenght", TOP, { at: "", elsewhere: ELSEWHERE })).toBe("unknown field (did you mean length?)");
    expect(unknownFieldReason("stauts", ["target", "status"], { at: "publish", elsewhere: TOP })).toBe(
      "unknown field (did you mean publish.status?)",
    );
  });

  it("is a field of that exact name at another level, the shallowest first", () => {
    expect(unknownFieldReason("keywords", TOP, { at: "", elsewhere: ELSEWHERE })).toBe("unknown field (did you mean seo.keywords?)");
    expect(unknownFieldReason("title", TOP, { at: "", elsewhere: ELSEWHERE })).toBe("unknown field (did you mean seo.title?)");
    expect(unknownFieldReason("tone", ["keywords", "title"], { at: "seo", elsewhere: TOP })).toBe("unknown field (did you mean tone?)");
  });

  it("prefers a sibling one edit away to a field of that name elsewhere, and lists the fields when none is close", () => {
    const link = ["url", "title", "keywords"];
    expect(unknownFieldReason("keyword", link, { at: "links[0]", elsewhere: ["outline.headings[i].keyword"] })).toBe(
      "unknown field (did you mean links[0].keywords?)",
    );
    expect(unknownFieldReason("zzzzzzzz", TOP, { at: "", elsewhere: ELSEWHERE })).toBe(`unknown field (the fields are ${TOP.join(", ")})`);
    // Without a place (a batch row's column), only the names given count.
    expect(unknownFieldReason("keywords", TOP)).toBe(`unknown field (the fields are ${TOP.join(", ")})`);
  });
});
