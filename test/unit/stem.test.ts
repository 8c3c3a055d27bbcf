import { describe, expect, it } from "vitest";
import { stem, stems } from "../../src/article/text/stem.js";

describe("stem", () => {
  it("gives word forms one stem both ways in English", () => {
    expect(new Set(["composting", "composted", "compost"].map((w) => stem(w, "en")))).toEqual(new Set(["compost"]));
    expect(stem("gardeners", "en")).toBe(stem("gardener", "en"));
  });

  it("loads a stemmer for each language the package covers, and leaves words alone in the others", () => {
    const covered = [
      "ar",
      "bg",
      "da",
      "de",
      "el",
      "en",
      "es",
      "fi",
      "fr",
      "ga",
      "hi",
      "hu",
      "hy",
      "id",
      "it",
      "lt",
      "nb",
      "ne",
      "nl",
      "no",
      "pt",
      "ro",
      "ru",
      "sa",
      "sr",
      "sv",
      "ta",
      "tr",
      "uk",
    ];
    for (const language of covered) expect(stems(language), language).toBe(true);
    expect(stem("kompostierung", "de")).toBe("kompostier");
    expect(stem("jardinería", "es")).not.toBe("jardinería");
    for (const language of ["pl", "ja", "zh", "xx"]) {
      expect(stems(language), language).toBe(false);
      expect(stem("kompostowanie", language)).toBe("kompostowanie");
    }
  });
});
