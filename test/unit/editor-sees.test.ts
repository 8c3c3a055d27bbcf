/** What an editor sees: the report judges titles, headings, counts, figures and slugs as an editor would. */
import { describe, expect, it } from "vitest";
import { analyse, type AnalyseInput, type CheckId } from "../../src/article/report/analyse.js";
import { countForms } from "../../src/article/text/forms.js";
import { functionWords } from "../../src/article/text/function-words.js";
import { stopWords } from "../../src/article/text/terms.js";
import { analyseInput } from "../helpers/blocks.js";

const check = (i: AnalyseInput, id: CheckId) => analyse(i).checks.find((c) => c.id === id)!;

const SKILLET =
  "A cast iron skillet lasts for generations when you look after it. Seasoning is a thin layer of baked oil that keeps food from sticking. " +
  "Wash the pan, dry it on a low flame and rub a spoonful of oil over every surface. Wipe off the excess until the pan looks almost dry.";

describe("keyword matching as editors match", () => {
  it("lets function words stand between the keyword's words, and word forms count", () => {
    expect(countForms("How to Season a Cast Iron Skillet", "season cast iron skillet", "en")).toBe(1);
    expect(countForms("Seasoning the cast iron skillets of a camp", "season cast iron skillet", "en")).toBe(1);
    expect(countForms("Season cast iron skillet", "season a cast iron skillet", "en")).toBe(1);
    // Content words between, punctuation between, or more than two function words: no use.
    expect(countForms("Season every cast iron skillet", "season cast iron skillet", "en")).toBe(0);
    expect(countForms("Season, cast iron skillet", "season cast iron skillet", "en")).toBe(0);
    expect(countForms("seo, tools", "seo tools", "en")).toBe(0);
    expect(countForms("Den Kompost in der Tonne", "Kompost Tonne", "de")).toBe(0);
    expect(countForms("Kompost in der Tonne", "Kompost in Tonne", "de")).toBe(1);
  });

  it("passes keyword-in-title for “season cast iron skillet” in “How to Season a Cast Iron Skillet”, naming the exact count", () => {
    const article = analyseInput(SKILLET, { title: "How to Season a Cast Iron Skillet", keywords: ["season cast iron skillet"] });
    expect(check(article, "keyword-in-title")).toMatchObject({
      passed: true,
      message:
        "The primary keyword “season cast iron skillet” appears 1 time in the title (word forms counted, function words between the keyword's words ignored; 0 exact).",
    });
    const elsewhere = analyseInput(SKILLET, { title: "Caring for Old Pans at Home", keywords: ["season cast iron skillet"] });
    expect(check(elsewhere, "keyword-in-title").passed).toBe(false);
  });

  it("takes function words from the shipped stop-word lists, never a word that ends a phrase", () => {
    for (const language of ["en", "de", "fr", "es", "it", "pt", "nl", "ja"]) {
      const words = functionWords(language);
      expect(words.size, language).toBeGreaterThan(5);
      for (const word of words) expect(stopWords(language).has(word), `${language}: ${word}`).toBe(true);
    }
    for (const word of ["it", "them", "this", "in", "up", "is", "can"]) expect(functionWords("en").has(word), word).toBe(false);
  });
});
