import { describe, expect, it } from "vitest";
import { Transcript } from "../../src/model/remote/transcript.js";
import { GeneratedTokens } from "../../src/model/remote/tokens.js";

/** A transcript of generated words, one token id per word (its index + 100). */
function generated(...words: string[]): Transcript {
  const t = new Transcript();
  for (const [i, word] of words.entries()) t.add([100 + i], word);
  return t;
}

describe("Transcript (the remote answer as token ids)", () => {
  it("keeps generated ids as they came and asks for the tokens of forced text, piece by piece", () => {
    const t = generated("Once", " upon");
    t.append(" a time");
    t.append(".");
    expect(t.text).toBe("Once upon a time.");
    expect(t.unresolved()).toEqual([
      { index: 2, text: " a time" },
      { index: 3, text: "." },
    ]);
    t.resolve(2, [7, 8]);
    t.resolve(3, [9]);
    expect(t.unresolved()).toEqual([]);
    expect(t.visibleTokens()).toEqual([100, 101, 7, 8, 9]);
    expect(t.visibleCount()).toBe(5);
    expect(t.visibleText()).toBe(t.text);
  });

  it("a cut inside a generated token keeps the exact tokens before it; the rest of the cut token becomes forced text", () => {
    const t = generated("Once", " upon", " a", " time");
    t.truncate("Once up".length);
    expect(t.text).toBe("Once up");
    expect(t.visibleTokens()).toEqual([100]);
    expect(t.unresolved()).toEqual([{ index: 1, text: " up" }]);
    // A cut at a token's end keeps that token whole.
    t.resolve(1, [5]);
    t.truncate("Once".length);
    expect(t.visibleTokens()).toEqual([100]);
    expect(t.unresolved()).toEqual([]);
    t.truncate(10);
    expect(t.text).toBe("Once");
  });

  it("a cut inside forced text re-tokenizes only what is kept of it", () => {
    const t = generated("Title");
    t.append(": The Red Ball");
    t.resolve(1, [1, 2, 3, 4]);
    t.truncate("Title: The".length);
    expect(t.unresolved()).toEqual([{ index: 1, text: ": The" }]);
    expect(t.visibleTokens()).toEqual([100]);
  });

  it("drops the oldest prose after the pinned part, at a word's end, and keeps the text whole", () => {
    const t = generated("Outline\n");
    t.pin();
    for (const [i, piece] of ["one", " two", " thr", "ee", " four", " five"].entries()) t.add([i], piece);
    // Two tokens asked for: "one two" ends a word.
    expect(t.drop(2)).toBe(2);
    expect(t.text).toBe("Outline\none two three four five");
    expect(t.visibleText()).toBe("Outline\n three four five");
    // "thr" alone would split a word: "ee" goes with it.
    expect(t.drop(1)).toBe(2);
    expect(t.visibleText()).toBe("Outline\n four five");
    expect(t.visibleTokens()).toEqual([100, 4, 5]);
  });

  it("has nothing to drop when all prose after the pin is gone; a later pin keeps newer text, drops go after it", () => {
    const t = generated("Outline\n");
    t.pin();
    expect(t.drop(10)).toBe(0);
    t.add([1], "old prose\n");
    t.drop(1);
    t.add([2], "Section\n");
    t.pin();
    t.add([3], "new");
    t.add([4], " prose");
    t.drop(1);
    expect(t.visibleText()).toBe("Outline\nSection\n prose");
  });

  it("truncate() cuts what was dropped past the cut too", () => {
    const t = generated("Outline\n");
    t.pin();
    t.add([1], "one");
    t.add([2], " two");
    t.drop(1);
    t.truncate("Outline\non".length);
    expect(t.visibleText()).toBe("Outline\non");
    t.truncate(3);
    expect(t.visibleText()).toBe("Out");
    expect(t.visibleTokens()).toEqual([]);
  });
});

describe("GeneratedTokens (a stream's chunks as ids and text)", () => {
  it("passes each token with its text", () => {
    const g = new GeneratedTokens();
    expect(g.take("Once", [10], 1)).toEqual([{ text: "Once", ids: [10] }]);
    expect(g.take(" upon", [11], 2)).toEqual([{ text: " upon", ids: [11] }]);
    expect(g.finish(false)).toEqual([]);
  });

  it("holds a token without text until text follows; the end-of-generation token never joins the answer", () => {
    const g = new GeneratedTokens();
    expect(g.take("", [3], 1)).toEqual([]);
    expect(g.take("é", [4], 2)).toEqual([{ text: "é", ids: [3, 4] }]);
    expect(g.take("", [2], 3)).toEqual([]);
    expect(g.finish(true)).toEqual([]);
  });

  it("a step cut by its length keeps a held token", () => {
    const g = new GeneratedTokens();
    g.take("", [3], 1);
    expect(g.finish(false)).toEqual([{ text: "", ids: [3] }]);
  });

  it("text whose ids the server did not all send goes without ids (tokenized again before the next step)", () => {
    const g = new GeneratedTokens();
    expect(g.take("a", [10], 1)).toEqual([{ text: "a", ids: [10] }]);
    // Three tokens made "€"; llama-server sends the last one's id only.
    expect(g.take("€", [99], 4)).toEqual([{ text: "€", ids: undefined }]);
    expect(g.take("b", undefined)).toEqual([{ text: "b", ids: undefined }]);
  });
});
