import { describe, expect, it } from "vitest";
import { nextUnit } from "../../src/article/body/units.js";
import { countWords } from "../../src/article/text/text.js";

// What the body pass reads off the front of the model's unconsumed text: one whole unit, or
// nothing while the text may still grow into a longer one.

describe("nextUnit", () => {
  it("waits while the sentence may go on, and gives it whole once the next one begins", () => {
    expect(nextUnit(" The heap warms up in spring", "en", false)).toBeUndefined();
    expect(nextUnit(" The heap warms up in spring.", "en", false)).toBeUndefined();
    const unit = nextUnit(" The heap warms up in spring. Then", "en", false);
    // Its length covers the space before it: the pass moves on by exactly that much.
    expect(unit).toEqual({ kind: "sentence", text: "The heap warms up in spring.", length: " The heap warms up in spring.".length });
  });

  it("takes the last sentence without a follower when the model has stopped, finishing it with a full stop", () => {
    expect(nextUnit(" the heap warms up in spring", "en", true)).toEqual({
      kind: "sentence",
      text: "The heap warms up in spring.",
      length: 28,
    });
    expect(nextUnit("堆肥は春に温かくなります", "ja", true)).toMatchObject({ kind: "sentence", text: "堆肥は春に温かくなります。" });
  });

  it("reads a heading line as a heading, and a short line without an end as one to skip", () => {
    expect(nextUnit("\n\n## A section of its own\n", "en", false)).toEqual({ kind: "heading", length: 2 });
    expect(nextUnit("Key points\nThe heap warms up in spring. Then", "en", false)).toEqual({ kind: "skip", length: "Key points".length });
  });

  it("keeps a quotation the segmenter split in one sentence", () => {
    // The segmenter breaks after "Stop." and after "now!"": the first break is inside the quotation.
    const unit = nextUnit(' He said "Stop. Turn the heap now!" and left. Then', "en", false);
    expect(unit).toMatchObject({ kind: "sentence", text: 'He said "Stop. Turn the heap now!"' });
  });

  it("cuts the head off a run-on sentence that never ends, once it is long", () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(" ");
    const unit = nextUnit(` ${words}`, "en", false);
    expect(unit?.kind).toBe("sentence");
    if (unit?.kind !== "sentence") return;
    expect(countWords(unit.text, "en")).toBeLessThanOrEqual(20);
    expect(unit.text).toMatch(/^Word0 word1 .*\.$/u);
    // The unit covers exactly the words it took from the text.
    expect(` ${words}`.slice(0, unit.length).trim()).toBe(unit.text.slice(0, -1).replace(/^W/, "w"));
  });
});
