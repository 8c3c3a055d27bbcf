import { describe, expect, it } from "vitest";
import { LABELLED_LANGUAGES, isIso6391, labelsFor, languageName } from "../../src/contract/languages.js";

// The labels of the structural sections are the only fixed strings an article may hold.

const KEYS = ["introduction", "conclusion", "faq", "keyTakeaways", "sources"] as const;

describe("labels", () => {
  it("covers the 22 languages the API promises labels in (docs/guarantees.md lists them)", () => {
    expect([...LABELLED_LANGUAGES].sort()).toEqual(
      [
        "en",
        "de",
        "fr",
        "es",
        "it",
        "pt",
        "nl",
        "pl",
        "sv",
        "da",
        "no",
        "fi",
        "cs",
        "tr",
        "ru",
        "uk",
        "ja",
        "zh",
        "ko",
        "ar",
        "hi",
        "id",
      ].sort(),
    );
  });

  it("English labels", () => {
    expect(labelsFor("en")).toEqual({
      introduction: "Introduction",
      conclusion: "Conclusion",
      faq: "Frequently asked questions",
      keyTakeaways: "Key takeaways",
      sources: "Sources",
    });
  });

  describe.each([...LABELLED_LANGUAGES])("%s", (language) => {
    const labels = labelsFor(language);

    it("has exactly the five section labels (the sources list's among them), each a short trimmed phrase", () => {
      expect(Object.keys(labels).sort()).toEqual([...KEYS].sort());
      for (const key of KEYS) {
        const label = labels[key];
        expect(label, key).toBe(label.trim());
        expect(label, key).not.toBe("");
        expect([...label].length, key).toBeLessThanOrEqual(40);
        // A heading, not a sentence and not Markdown.
        expect(label, key).not.toMatch(/[.!?:#*_`[\]<>]$|^[#>*-]/u);
      }
      expect(new Set(KEYS.map((k) => labels[k].toLocaleLowerCase(language))).size).toBe(KEYS.length);
    });

    it("is in its own language: only English shares the English labels", () => {
      if (language === "en") return;
      const english = labelsFor("en");
      // French "Introduction"/"Conclusion" are the same words as in English; the FAQ label never is.
      expect(labels.faq).not.toBe(english.faq);
      expect(labels.keyTakeaways).not.toBe(english.keyTakeaways);
    });

    it("has an English language name for the prompts", () => {
      expect(languageName(language)).toMatch(/^[A-Z][a-zA-Z ]+$/);
    });
  });

  it("finds labels in any case and falls back to English", () => {
    expect(labelsFor("DE")).toBe(labelsFor("de"));
    expect(labelsFor("sw").introduction).toBe("Introduction");
    expect(labelsFor("xx")).toBe(labelsFor("en"));
  });

  it("gives Bokmål the Norwegian labels", () => {
    expect(labelsFor("nb")).toBe(labelsFor("no"));
    expect(labelsFor("NB")).toBe(labelsFor("no"));
  });
});

describe("ISO 639-1", () => {
  it("accepts valid codes in any case and nothing else", () => {
    expect(isIso6391("EN")).toBe(true);
    expect(isIso6391("en")).toBe(true);
    expect(isIso6391("no")).toBe(true);
    expect(isIso6391("nb")).toBe(true);
    expect(isIso6391("nn")).toBe(true);
    expect(isIso6391("xx")).toBe(false);
    expect(isIso6391("eng")).toBe(false);
    expect(isIso6391("en-US")).toBe(false);
    expect(isIso6391(" en")).toBe(false);
    expect(isIso6391("")).toBe(false);
  });

  it("has exactly 184 codes, each with a name", () => {
    const letters = "abcdefghijklmnopqrstuvwxyz";
    const codes = [...letters].flatMap((a) => [...letters].map((b) => a + b)).filter(isIso6391);
    expect(codes).toHaveLength(184);
    for (const code of codes) expect(languageName(code), code).toMatch(/\S/u);
  });
});

describe("languageName", () => {
  const displayNames = new Intl.DisplayNames(["en"], { type: "language" });

  it("names languages in English through Intl.DisplayNames", () => {
    expect(languageName("sw")).toBe("Swahili");
    expect(languageName("DE")).toBe("German");
    expect(languageName("ja")).toBe("Japanese");
    expect(languageName("zh")).toBe("Chinese");
    expect(languageName("nb")).toBe("Norwegian Bokmål");
  });

  it("agrees with Intl.DisplayNames for every labelled language", () => {
    for (const code of LABELLED_LANGUAGES) expect(languageName(code), code).toBe(displayNames.of(code));
  });

  it("is undefined for anything that is not an ISO 639-1 code, even when Intl knows it", () => {
    expect(languageName("xx")).toBeUndefined();
    expect(languageName("eng")).toBeUndefined();
    // A valid BCP 47 tag, but not a two-letter code.
    expect(languageName("haw")).toBeUndefined();
    expect(languageName("en-GB")).toBeUndefined();
    expect(languageName("")).toBeUndefined();
  });
});
