import { describe, expect, it } from "vitest";
import { LABELLED_LANGUAGES, isIso6391, labelsFor, languageName } from "../../src/engine/labels.js";

/** Languages written without spaces, where "first word" and word counts need other rules. */
const UNSPACED = new Set(["ja", "zh"]);

function sentenceEnd(language: string): string {
  if (UNSPACED.has(language)) return "。";
  return language === "hi" ? "।" : ".";
}

function questionMark(language: string): string {
  if (UNSPACED.has(language)) return "？";
  return language === "ar" ? "؟" : "?";
}

/** The opening word of a template, compared case-insensitively. */
function firstWord(template: string, language: string): string {
  if (UNSPACED.has(language)) return template.slice(0, 2);
  return (template.split(/\s+/u)[0] ?? "").replace(/[\p{P}]+$/u, "").toLowerCase();
}

/** Words with the keyword counted as one, as a reader would count the template. */
function wordCount(template: string, language: string): number {
  const segmenter = new Intl.Segmenter(language, { granularity: "word" });
  return [...segmenter.segment(template.replace("{k}", "X"))].filter((s) => s.isWordLike).length;
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe("labels", () => {
  it("covers every language the brief names", () => {
    expect([...LABELLED_LANGUAGES].sort()).toEqual(
      ["en", "de", "fr", "es", "it", "pt", "nl", "pl", "sv", "da", "no", "fi", "cs", "tr", "ru", "uk", "ja", "zh", "ko", "ar", "hi", "id"].sort(),
    );
  });

  describe.each([...LABELLED_LANGUAGES])("%s", (language) => {
    const labels = labelsFor(language);

    it("has every fixed string and its language name", () => {
      for (const key of ["introduction", "conclusion", "faq", "keyTakeaways"] as const) {
        expect(labels[key].trim()).not.toBe("");
      }
      expect(labels.languageName).toBe(languageName(language));
    });

    it("has at least 4 lead-ins with distinct first words and one keyword each", () => {
      expect(labels.leadIns.length).toBeGreaterThanOrEqual(4);
      const firsts = labels.leadIns.map((l) => firstWord(l, language));
      expect(new Set(firsts).size).toBe(firsts.length);
      for (const leadIn of labels.leadIns) {
        expect(occurrences(leadIn, "{k}")).toBe(1);
        expect(leadIn.endsWith(sentenceEnd(language))).toBe(true);
        if (!UNSPACED.has(language)) {
          expect(wordCount(leadIn, language)).toBeGreaterThanOrEqual(6);
          expect(wordCount(leadIn, language)).toBeLessThanOrEqual(14);
        }
      }
    });

    it("has at least 5 FAQ questions about the keyword", () => {
      expect(labels.faqQuestions.length).toBeGreaterThanOrEqual(5);
      for (const question of labels.faqQuestions) {
        expect(occurrences(question, "{k}")).toBe(1);
        expect(question.endsWith(questionMark(language))).toBe(true);
      }
    });

    it("has at least 2 heading patterns with the heading and the keyword", () => {
      expect(labels.headingWithKeyword.length).toBeGreaterThanOrEqual(2);
      for (const pattern of labels.headingWithKeyword) {
        expect(occurrences(pattern, "{h}")).toBe(1);
        expect(occurrences(pattern, "{k}")).toBe(1);
      }
    });
  });

  it("finds labels in any case and falls back to English", () => {
    expect(labelsFor("DE")).toBe(labelsFor("de"));
    expect(labelsFor("sw").introduction).toBe("Introduction");
    expect(labelsFor("xx")).toBe(labelsFor("en"));
  });

  it("gives Bokmål the Norwegian labels", () => {
    expect(labelsFor("nb")).toBe(labelsFor("no"));
  });

  it("returns labels no caller can change", () => {
    expect(() => labelsFor("en").leadIns.push("x")).toThrow();
  });
});

describe("ISO 639-1", () => {
  it("accepts valid codes in any case and nothing else", () => {
    expect(isIso6391("EN")).toBe(true);
    expect(isIso6391("no")).toBe(true);
    expect(isIso6391("nb")).toBe(true);
    expect(isIso6391("nn")).toBe(true);
    expect(isIso6391("xx")).toBe(false);
    expect(isIso6391("eng")).toBe(false);
    expect(isIso6391("")).toBe(false);
  });

  it("names languages in English", () => {
    expect(languageName("sw")).toBe("Swahili");
    expect(languageName("DE")).toBe("German");
    expect(languageName("xx")).toBeUndefined();
  });

  it("has exactly 184 codes, each with a name", () => {
    const letters = "abcdefghijklmnopqrstuvwxyz";
    const codes = [...letters].flatMap((a) => [...letters].map((b) => a + b)).filter(isIso6391);
    expect(codes).toHaveLength(184);
    for (const code of codes) expect(languageName(code)).toMatch(/\S/u);
  });
});
