import { describe, expect, it } from "vitest";
import { LABELLED_LANGUAGES, isIso6391, labelsFor, languageName } from "../../src/article/labels.js";
import { countWords, splitSentences } from "../../src/article/text.js";

/** Languages written without spaces, where "first word" needs another rule. */
const UNSPACED = new Set(["ja", "zh"]);

/** A two-word noun phrase per language ("garden soil"), put in for `{k}` to count a lead-in as the engine will. */
const SAMPLE_KEYWORD: Record<string, string> = {
  en: "garden soil", de: "gesunde Ernährung", fr: "terre végétale", es: "tierra fértil", it: "terriccio universale",
  pt: "solo fértil", nl: "goede tuinaarde", pl: "ziemia ogrodowa", sv: "god trädgårdsjord", da: "god havejord",
  no: "god hagejord", fi: "puutarhan multa", cs: "zahradní zemina", tr: "bahçe toprağı", ru: "садовая земля",
  uk: "садова земля", ja: "園芸用土", zh: "花园土壤", ko: "정원 흙", ar: "تربة الحديقة", hi: "जैविक खाद",
  id: "tanah kebun",
};

function sentenceEnd(language: string): string {
  if (UNSPACED.has(language)) return "。";
  return language === "hi" ? "।" : ".";
}

function questionMark(language: string): string {
  if (UNSPACED.has(language)) return "？";
  return language === "ar" ? "؟" : "?";
}

/** The opening words of a template, compared case-insensitively; two characters count as a word in ja/zh. */
function openingWords(template: string, language: string, n: number): string {
  if (UNSPACED.has(language)) return template.slice(0, 2 * n);
  return template
    .split(/\s+/u)
    .map((w) => w.replace(/[\p{P}]+$/u, "").toLowerCase())
    .filter((w) => w !== "")
    .slice(0, n)
    .join(" ");
}

const firstWord = (template: string, language: string) => openingWords(template, language, 1);

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

    it("has at least 24 one-sentence lead-ins of 6–16 words, one keyword each", () => {
      expect(labels.leadIns.length).toBeGreaterThanOrEqual(24);
      expect(new Set(labels.leadIns).size).toBe(labels.leadIns.length);
      const keyword = SAMPLE_KEYWORD[language]!;
      expect(countWords(keyword, language)).toBe(2);
      for (const leadIn of labels.leadIns) {
        expect(occurrences(leadIn, "{k}"), leadIn).toBe(1);
        expect(leadIn.endsWith(sentenceEnd(language)), leadIn).toBe(true);
        if (!UNSPACED.has(language)) {
          expect(wordCount(leadIn, language), leadIn).toBeGreaterThanOrEqual(6);
          expect(wordCount(leadIn, language), leadIn).toBeLessThanOrEqual(16);
        }
        const text = leadIn.replace("{k}", keyword);
        expect(splitSentences(text, language), text).toHaveLength(1);
        expect(countWords(text, language), text).toBeGreaterThanOrEqual(6);
        expect(countWords(text, language), text).toBeLessThanOrEqual(16);
      }
    });

    it("varies how lead-ins open, and neighbours never open alike", () => {
      const firsts = labels.leadIns.map((l) => firstWord(l, language));
      expect(new Set(firsts).size).toBeGreaterThanOrEqual(12);
      const pairs = labels.leadIns.map((l) => openingWords(l, language, 2));
      expect(pairs.filter((p, i) => pairs.indexOf(p) !== i)).toEqual([]);
      const clashes = firsts.flatMap((w, i) => (i > 0 && w === firsts[i - 1] ? [labels.leadIns[i]] : []));
      expect(clashes).toEqual([]);
    });

    it("has at least 8 FAQ questions about the keyword", () => {
      expect(labels.faqQuestions.length).toBeGreaterThanOrEqual(8);
      expect(new Set(labels.faqQuestions).size).toBe(labels.faqQuestions.length);
      for (const question of labels.faqQuestions) {
        expect(occurrences(question, "{k}")).toBe(1);
        expect(question.endsWith(questionMark(language))).toBe(true);
      }
    });

    it("has at least 3 heading patterns with the heading and the keyword", () => {
      expect(labels.headingWithKeyword.length).toBeGreaterThanOrEqual(3);
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
