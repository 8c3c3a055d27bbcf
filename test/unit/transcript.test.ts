import { describe, expect, it } from "vitest";
import { Transcript } from "../../src/model/remote/transcript.js";

function transcript(...parts: string[]): Transcript {
  const t = new Transcript();
  for (const part of parts) t.append(part);
  return t;
}

describe("Transcript", () => {
  it("shows everything until prose is dropped", () => {
    const t = transcript("Outline\n", "First words here. ");
    expect(t.visible()).toBe(t.text);
  });

  it("drops the oldest prose after the pinned part, at a word's end, and keeps the text whole", () => {
    const t = transcript("Outline\n");
    t.pin();
    t.append("one two three four five");
    expect(t.drop(5)).toBe("one two ".length);
    expect(t.text).toBe("Outline\none two three four five");
    expect(t.visible()).toBe("Outline\nthree four five");
    // A second drop continues where the first ended.
    t.drop(3);
    expect(t.visible()).toBe("Outline\nfour five");
  });

  it("has nothing to drop when all prose after the pin is gone", () => {
    const t = transcript("Outline\n");
    t.pin();
    expect(t.drop(10)).toBe(0);
    t.append("word");
    expect(t.drop(10)).toBe(4);
    expect(t.drop(10)).toBe(0);
    expect(t.visible()).toBe("Outline\n");
  });

  it("truncate() cuts the text and what was dropped past the cut", () => {
    const t = transcript("Outline\n");
    t.pin();
    t.append("one two three four");
    t.drop(5);
    t.truncate("Outline\none t".length);
    expect(t.text).toBe("Outline\none t");
    expect(t.visible()).toBe("Outline\n");
    t.append("wo again");
    expect(t.visible()).toBe("Outline\nwo again");
    t.truncate(3);
    expect(t.visible()).toBe("Out");
    t.truncate(10);
    expect(t.text).toBe("Out");
  });

  it("a later pin keeps the newer text too; drops go after it", () => {
    const t = transcript("Outline\n");
    t.pin();
    t.append("old prose here\n");
    t.drop(1);
    t.append("Section\n");
    t.pin();
    t.append("new prose follows");
    t.drop(1);
    expect(t.visible()).toBe("Outline\nprose here\nSection\nprose follows");
  });
});
