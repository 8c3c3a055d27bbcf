import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { acceptRequest, conflictingFields } from "../../src/article/accept.js";
import { fieldErrors } from "../../src/contract/fields.js";
import { GenerateRequestSchema, type GenerateRequestInput } from "../../src/contract/request.js";

/** The fields validation, then the engine's entry, name for a request, or none when it passes both. */
function invalid(input: GenerateRequestInput): Record<string, string> {
  const result = GenerateRequestSchema["~standard"].validate(input);
  if (result instanceof Promise) throw new Error("validation is synchronous");
  if (result.issues) return Object.fromEntries(fieldErrors(result).map((e) => [e.path, e.message]));
  const { stream: _stream, ...request } = result.value;
  return Object.fromEntries(conflictingFields(request).map((e) => [e.path, e.message]));
}

// A ban the request's own keywords or topic contradict is refused, naming every field involved.
describe("bans that contradict the request", () => {
  it("a ban equal to the primary keyword names both fields", () => {
    const errors = invalid({ topic: "Math tricks", seo: { keywords: "x^y" }, style: { avoid: ["dragon", "x^y"] } });
    expect(Object.keys(errors)).toEqual(["style.avoid[1]", "seo.keywords"]);
    expect(errors["style.avoid[1]"]).toContain("“x^y”");
  });

  it("a ban a keyword holds, a ban that holds a keyword, and a ban that only glues letters onto one", () => {
    expect(
      Object.keys(invalid({ topic: "Gardens", seo: { keywords: "compost bin, kitchen scraps" }, style: { avoid: ["scraps"] } })),
    ).toEqual(["style.avoid[0]", "seo.keywords"]);
    expect(Object.keys(invalid({ topic: "Gardens", seo: { keywords: "compost bin" }, style: { avoid: ["the compost bin"] } }))).toEqual([
      "style.avoid[0]",
      "seo.keywords",
    ]);
    expect(Object.keys(invalid({ topic: "Gardens", seo: { keywords: "compost bins" }, style: { avoid: ["compost bin"] } }))).toEqual([
      "style.avoid[0]",
      "seo.keywords",
    ]);
  });

  it("a ban a link keyword holds names the link", () => {
    const links = [
      { url: "/a", title: "Page A", keywords: ["leaf mould"] },
      { url: "/b", title: "Page B", keywords: "x^y" },
    ];
    expect(Object.keys(invalid({ topic: "Gardens", seo: { keywords: "compost" }, style: { avoid: ["X^Y"] }, links }))).toEqual([
      "style.avoid[0]",
      "links[1].keywords",
    ]);
  });

  it("without keywords, a ban the topic's focus keyword holds names the topic", () => {
    expect(Object.keys(invalid({ topic: "A day at the park", style: { avoid: ["day"] } }))).toEqual(["style.avoid[0]", "topic"]);
  });

  it("a topic whose every content word is banned names the topic and each ban", () => {
    const errors = invalid({ topic: "Lily and Tom", seo: { keywords: "friends" }, style: { avoid: ["Lily", "so happy", "Tom"] } });
    expect(Object.keys(errors)).toEqual(["style.avoid[0]", "style.avoid[2]", "topic"]);
  });

  it("passes bans that leave the keywords and the topic something to say", () => {
    expect(invalid({ topic: "Lily and Tom", seo: { keywords: "friends" }, style: { avoid: ["Lily", "so happy"] } })).toEqual({});
    expect(
      invalid({ topic: "Snow games", seo: { keywords: "snow games" }, style: { avoid: ["the", "happy 🙂", "Once upon a time"] } }),
    ).toEqual({});
    expect(invalid({ topic: "Snow games", style: { avoid: ["snowman"] } })).toEqual({});
  });
});

describe("bans that leave too little to write with", () => {
  const LETTERS = "abcdehijklmnoprstuwy".split("");

  it("twenty single letters refuse nearly every common word: a 422 names each ban that refuses any", () => {
    const errors = invalid({ topic: "Green fun", seo: { keywords: "green fun" }, style: { avoid: LETTERS } });
    expect(Object.keys(errors).every((path) => /^style\.avoid\[\d+\]$/.test(path))).toBe(true);
    expect(Object.keys(errors).length).toBeGreaterThanOrEqual(15);
    expect(Object.values(errors)[0]).toContain("too little is left to write with");
  });

  it('"the", or fifty common words, are still written', () => {
    expect(invalid({ topic: "Snow games", seo: { keywords: "snow games" }, style: { avoid: ["the"] } })).toEqual({});
    expect(invalid({ topic: "Snow games", seo: { keywords: "snow games" }, style: { avoid: FIFTY } })).toEqual({});
  });
});

describe("the engine's entry", () => {
  const parse = (input: GenerateRequestInput) => {
    const { stream: _stream, ...request } = v.parse(GenerateRequestSchema, input);
    return request;
  };

  it("refuses a request a ban contradicts with a 422 naming every field, as validation names a field", () => {
    const request = parse({ topic: "Math tricks", seo: { keywords: "x^y" }, style: { avoid: ["dragon", "x^y"] } });
    expect(() => acceptRequest(request)).toThrow(
      expect.objectContaining({
        status: 422,
        message: "The request has 2 invalid fields: style.avoid[1], seo.keywords.",
        extensions: { errors: conflictingFields(request) },
      }),
    );
  });

  it("accepts a request its bans leave something to say, as it is", () => {
    const request = parse({ topic: "Lily and Tom", seo: { keywords: "friends" }, style: { avoid: ["Lily"] } });
    expect(acceptRequest(request)).toBe(request);
  });
});

/** Fifty of the commonest English words. */
const FIFTY =
  "the be to of and a in that have I it for not on with he as you do at this but his by from they we say her she or an will my one all would there their what so up out if about who get which go me".split(
    " ",
  );
