import { describe, expect, it } from "vitest";
import { countWords, splitSentences, wordSpans } from "../../src/article/text/text.js";

// A long text is segmented piece by piece (Intl.Segmenter's time grows with the square of
// what it is given): the pieces must give the words and sentences the whole text has.

const SENTENCES = Array.from({ length: 400 }, (_, i) => `Sentence number ${i} tells how the compost bin turns scraps into soil.`);

describe("long texts", () => {
  it("counts every word of a text far longer than a piece, each at its own offset", () => {
    const text = SENTENCES.join(" ");
    const spans = wordSpans(text, "en");
    expect(spans).toHaveLength(400 * 12);
    expect(countWords(text, "en")).toBe(400 * 12);
    for (const span of spans) expect(text.slice(span.index, span.index + span.word.length)).toBe(span.word);
  });

  it("reads the same sentences piece by piece", () => {
    expect(splitSentences(SENTENCES.join(" "), "en")).toEqual(SENTENCES);
  });

  it("cuts a run without spaces or terminators, never inside a surrogate pair", () => {
    // 1,500 characters of one "word" made of astral letters: each is two UTF-16 units.
    const text = "𝒜".repeat(750);
    const spans = wordSpans(text, "en");
    expect(spans.map((span) => span.word).join("")).toBe(text);
    expect(spans.every((span) => !/[\uD800-\uDBFF]$/u.test(span.word))).toBe(true);
  });
});
