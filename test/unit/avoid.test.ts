import { describe, expect, it } from "vitest";
import { AvoidList, countBanned } from "../../src/article/plan/avoid.js";

// The banned-phrase matcher: one pattern for the whole list, the phrase it found told apart
// afterwards; phrases that open on a letter and phrases that open on a symbol mixed in one list.

describe("the banned-phrase matcher", () => {
  const phrases = ["delve", "🙂 day", "delved", "🙂", "happy 🙂", "Lily", "ひらがな"];

  it("counts the longest phrase at one place, whichever kind of start the phrases have", () => {
    const counts = countBanned(["We delved in. A 🙂 day, then 🙂 and happy 🙂 too."], phrases);
    expect(Object.fromEntries(counts)).toEqual({ delved: 1, "🙂 day": 1, "🙂": 1, "happy 🙂": 1 });
  });

  it("matches a word-led phrase only after a non-word character, with letters glued on after it", () => {
    expect(Object.fromEntries(countBanned(["xLily met Lilych and LILY.", "かなひらがなです"], phrases))).toEqual({ Lily: 2, ひらがな: 1 });
  });

  it("finds where a phrase was completed and cuts back to its last word", () => {
    const list = new AvoidList({ style: { avoid: ["so happy", "🙂"], cliches: true }, language: "en" });
    const text = "The cat was so   happyer";
    expect(list.completedIn(text, text.length - 3)).toEqual({ phrase: "so happy", start: 12, cut: 14, word: "happy" });
    expect(list.completedIn("A smile 🙂", 7)).toMatchObject({ phrase: "🙂", start: 8 });
    expect(list.completedIn("Nothing banned here", 10)).toBeUndefined();
    expect(list.holds("in today’s fast-paced world")).toBe(true);
  });
});
