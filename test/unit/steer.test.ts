import { describe, expect, it } from "vitest";
import { tailShape } from "../../src/article/outline/steer.js";

describe("tailShape", () => {
  const title = { words: [3, 10] as const, keyword: "compost bins", before: 2 };

  it("leaves the words the field still has after its keyword, perhaps none", () => {
    expect(tailShape(title, 4).words).toEqual([0, 6]);
    expect(tailShape(title, 2).words).toEqual([1, 8]);
    expect(tailShape(title, 12).words).toEqual([0, 0]);
    expect(tailShape(title, 4)).not.toHaveProperty("keyword");
  });

  it("asks at least `least` words while they fit: a title's keyword stays in its first half", () => {
    expect(tailShape(title, 4, 2).words).toEqual([2, 6]);
    expect(tailShape(title, 9, 2).words).toEqual([1, 1]);
  });
});
