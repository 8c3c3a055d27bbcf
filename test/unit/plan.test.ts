import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { plan, type Plan, type PlannedSection } from "../../src/article/plan.js";
import { GenerateRequestSchema, type GenerateRequestInput, type Preset } from "../../src/article/request.js";

// `plan()` decides everything code owns before the model writes a word. These tests read
// the plan as a contract: they compute the figures the issue asks for (H2s per requested
// words, keyword share of subheadings, keyword density…) from the plan and compare them
// with the rules, rather than restating how plan.ts computes them.

const KEYWORDS = "indoor plants, watering schedule, potting soil";
const PRIMARY = "indoor plants";
const SECONDARY = ["watering schedule", "potting soil"];
const PRESETS: Preset[] = ["paragraphs", "sections", "detailed"];
const LENGTHS = [100, 150, 200, 300, 500, 800, 1200, 2000, 3000, 5000];

function planFor(input: Partial<GenerateRequestInput> & { seo?: GenerateRequestInput["seo"] }): Plan {
  return plan(v.parse(GenerateRequestSchema, { topic: "Caring for indoor plants", seed: 1, ...input }));
}

function keywordPlan(structure: Preset, length: number, headingTags = true): Plan {
  return planFor({ structure, length, seo: { keywords: KEYWORDS, headingTags } });
}

/** Case-insensitive whole-phrase match (Unicode letters and digits are word characters). */
function mentions(text: string, phrase: string): boolean {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");
  return new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])${escaped}(?![\\p{L}\\p{N}\\p{M}])`, "iu").test(text);
}

const kinds = (p: Plan) => p.sections.map((s) => s.kind);
/** Whether a section shows an H2 when headings are on: body sections get a written heading, others their label. */
const showsH2 = (s: PlannedSection) => s.kind === "body" || s.label !== null;
const h2Sections = (p: Plan) => p.sections.filter(showsH2);
const proseSections = (p: Plan) => p.sections.filter((s) => ["introduction", "body", "conclusion"].includes(s.kind));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Every H2 and H3 the plan will show, with whether it carries the primary keyword (headings on). */
function plannedSubheadings(p: Plan): boolean[] {
  const out: boolean[] = [];
  for (const s of h2Sections(p)) {
    out.push(s.headingKeyword || (s.label !== null && mentions(s.label, p.primary)));
    for (let i = 0; i < s.subsections; i++) out.push(false);
  }
  for (const q of p.faqQuestions) out.push(mentions(q, p.primary));
  return out;
}

/** Words each stretch of text between two headings is planned to get (headings on). */
function plannedRuns(p: Plan): number[] {
  const totalShare = sum(p.sections.map((s) => s.share));
  const runs: number[] = [];
  for (const s of p.sections) {
    const words = (p.request.length * s.share) / totalShare;
    const parts = s.kind === "faq" ? p.faqQuestions.length : s.subsections;
    const heading = s.kind === "introduction" || showsH2(s);
    if (parts > 0) {
      // Text between the H2 and its first H3 is empty; each H3 starts a run.
      for (let i = 0; i < parts; i++) runs.push(words / parts);
    } else if (heading || runs.length === 0) {
      runs.push(words);
    } else {
      // A section without a heading continues the run before it.
      runs[runs.length - 1]! += words;
    }
  }
  return runs;
}

describe("plan: section counts per preset and length", () => {
  describe.each(LENGTHS)("sections preset, %i words", (length) => {
    const p = keywordPlan("sections", length);

    it("has about one H2 per 150–300 requested words (at least 1)", () => {
      const h2 = h2Sections(p).length;
      const low = Math.max(1, Math.floor(length / 300));
      const high = Math.max(1, Math.ceil(length / 150));
      expect(h2, `${h2} H2 sections for ${length} words; expected ${low}–${high}`).toBeGreaterThanOrEqual(low);
      expect(h2, `${h2} H2 sections for ${length} words; expected ${low}–${high}`).toBeLessThanOrEqual(high);
    });

    it("is an introduction, body sections and a labelled conclusion, nothing else", () => {
      const k = kinds(p);
      expect(k[0]).toBe("introduction");
      expect(k.at(-1)).toBe("conclusion");
      expect(k.slice(1, -1).every((kind) => kind === "body")).toBe(true);
      expect(k.filter((kind) => kind === "body").length).toBeGreaterThanOrEqual(1);
      expect(p.sections[0]!.label).toBeNull();
      // A short article may close without a conclusion heading; a longer one has it.
      expect([null, "Conclusion"]).toContain(p.sections.at(-1)!.label);
      if (length >= 500) expect(p.sections.at(-1)!.label).toBe("Conclusion");
      expect(p.sections.every((s) => s.subsections === 0)).toBe(true);
      expect(p.faqQuestions).toEqual([]);
      expect(p.takeaways).toBe(0);
    });
  });

  describe.each(LENGTHS)("detailed preset, %i words", (length) => {
    const p = keywordPlan("detailed", length);

    it("is introduction, key takeaways, body sections with H3 subsections, conclusion, FAQ", () => {
      const k = kinds(p);
      expect(k.slice(0, 2)).toEqual(["introduction", "takeaways"]);
      expect(k.slice(-2)).toEqual(["conclusion", "faq"]);
      const body = p.sections.slice(2, -2);
      expect(body.length).toBeGreaterThanOrEqual(1);
      for (const s of body) {
        expect(s.kind).toBe("body");
        expect(s.subsections).toBeGreaterThanOrEqual(1);
      }
      expect(p.sections.filter((s) => s.kind !== "body").every((s) => s.subsections === 0)).toBe(true);
      expect(p.sections[1]!.label).toBe("Key takeaways");
      expect(p.sections.at(-2)!.label).toBe("Conclusion");
      expect(p.sections.at(-1)!.label).toBe("Frequently asked questions");
    });

    it("has 3–5 takeaways and 3–5 FAQ questions, each carrying the primary keyword", () => {
      expect(p.takeaways).toBeGreaterThanOrEqual(3);
      expect(p.takeaways).toBeLessThanOrEqual(5);
      expect(p.faqQuestions.length).toBeGreaterThanOrEqual(3);
      expect(p.faqQuestions.length).toBeLessThanOrEqual(5);
      expect(new Set(p.faqQuestions).size).toBe(p.faqQuestions.length);
      for (const q of p.faqQuestions) {
        expect(mentions(q, PRIMARY), q).toBe(true);
        expect(q.trim().endsWith("?"), q).toBe(true);
      }
    });
  });

  it("detailed: longer articles never get fewer FAQ questions, and the longest get 5", () => {
    const counts = LENGTHS.map((length) => keywordPlan("detailed", length).faqQuestions.length);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThanOrEqual(counts[i - 1]!);
    expect(counts.at(-1)).toBe(5);
  });

  describe.each(LENGTHS)("paragraphs preset, %i words", (length) => {
    const p = keywordPlan("paragraphs", length);

    it("is introduction, body parts and conclusion with no subsections, takeaways, FAQ or heading keywords", () => {
      const k = kinds(p);
      expect(k[0]).toBe("introduction");
      expect(k.at(-1)).toBe("conclusion");
      expect(k.slice(1, -1).every((kind) => kind === "body")).toBe(true);
      expect(p.sections.every((s) => s.subsections === 0)).toBe(true);
      expect(p.sections.some((s) => s.headingKeyword)).toBe(false);
      expect(p.faqQuestions).toEqual([]);
      expect(p.takeaways).toBe(0);
    });
  });

  // The paragraphs preset shows no subheadings, so there is nothing to distribute there.
  describe.each(["sections", "detailed"] as const)("%s", (structure) => {
    it.each(LENGTHS)("%i words: no planned stretch between two headings is over 300 words", (length) => {
      const runs = plannedRuns(keywordPlan(structure, length)).map((w) => Math.round(w));
      expect(Math.max(...runs), `planned runs: ${runs.join(", ")}`).toBeLessThanOrEqual(300);
    });
  });
});

describe("plan: keywords", () => {
  describe.each(["sections", "detailed"] as const)("%s with headings on", (structure) => {
    it.each(LENGTHS)("%i words: keyword heading marks make 30–75 per cent of subheadings carry the primary keyword", (length) => {
      const p = keywordPlan(structure, length);
      const subheadings = plannedSubheadings(p);
      const holding = subheadings.filter(Boolean).length;
      const share = holding / subheadings.length;
      const figures = `${holding} of ${subheadings.length} subheadings (${(share * 100).toFixed(1)}%)`;
      if (subheadings.length === 1) {
        // One subheading can hold 0 % or 100 %: like Yoast, a single subheading should carry the keyword.
        expect(holding, figures).toBe(1);
        return;
      }
      expect(share, figures).toBeGreaterThanOrEqual(0.3);
      expect(share, figures).toBeLessThanOrEqual(0.75);
      // Only generated (body) headings are marked; fixed labels are never rewritten.
      for (const s of p.sections) if (s.headingKeyword) expect(s.kind).toBe("body");
    });
  });

  describe.each(PRESETS)("%s", (structure) => {
    it.each(LENGTHS)("%i words: primary uses are spread over the prose sections, the introduction first", (length) => {
      const p = keywordPlan(structure, length);
      const prose = proseSections(p);
      const uses = prose.map((s) => s.primaryUses);
      expect(uses[0], `uses per prose section: ${uses.join(", ")}`).toBeGreaterThanOrEqual(1);
      expect(Math.max(...uses), `uses per prose section: ${uses.join(", ")}`).toBe(uses[0]);
      expect(Math.max(...uses) - Math.min(...uses), `uses per prose section: ${uses.join(", ")}`).toBeLessThanOrEqual(1);
      // Lists and FAQ answers are not asked to carry the keyword.
      for (const s of p.sections.filter((s) => !prose.includes(s))) expect(s.primaryUses).toBe(0);
    });

    it.each(LENGTHS)("%i words: each secondary keyword is assigned to exactly one prose section", (length) => {
      const p = keywordPlan(structure, length);
      expect(p.primary).toBe(PRIMARY);
      expect(p.secondary).toEqual(SECONDARY);
      for (const keyword of SECONDARY) {
        const holders = p.sections.filter((s) => s.secondary.includes(keyword));
        expect(holders, keyword).toHaveLength(1);
        expect(["introduction", "body", "conclusion"]).toContain(holders[0]!.kind);
      }
      expect(p.sections.flatMap((s) => s.secondary).sort()).toEqual([...SECONDARY].sort());
    });

    // Density counts what the reader sees: prose uses, FAQ questions, and marked headings
    // only when headings are shown (CONVENTIONS: density = occurrences ÷ body words).
    describe.each([true, false])("headingTags %s", (headingTags) => {
      it.each([250, 300, 620, 800, 2000, 5000])("%i words: the planned keyword uses give a 0.5–2.5 per cent density", (length) => {
        const p = keywordPlan(structure, length, headingTags);
        const visibleHeadings = headingTags && structure !== "paragraphs";
        const prose = sum(p.sections.map((s) => s.primaryUses));
        const headings = visibleHeadings ? p.sections.filter((s: PlannedSection) => s.headingKeyword).length : 0;
        const faq = p.faqQuestions.filter((q) => mentions(q, p.primary)).length;
        const density = ((prose + headings + faq) / length) * 100;
        const figures = `${prose} prose + ${headings} heading + ${faq} FAQ uses in ${length} words = ${density.toFixed(2)}%`;
        expect(density, figures).toBeGreaterThanOrEqual(0.5);
        expect(density, figures).toBeLessThanOrEqual(2.5);
      });
    });
  });

  it("assigns all 19 secondary keywords of a 20-keyword request, round-robin over the prose sections", () => {
    const keywords = Array.from({ length: 20 }, (_, i) => `keyword ${i}`);
    const p = planFor({ structure: "sections", length: 800, seo: { keywords: keywords.join(", ") } });
    expect(p.primary).toBe("keyword 0");
    expect(p.sections.flatMap((s) => s.secondary).sort()).toEqual(keywords.slice(1).sort());
    const perSection = proseSections(p).map((s) => s.secondary.length);
    expect(Math.max(...perSection) - Math.min(...perSection)).toBeLessThanOrEqual(1);
  });
});

describe("plan: topic as primary keyword when no keywords are given", () => {
  it.each([
    ["Indoor plants", "en", "indoor plants"],
    ["Indoor plants for beginners.", "en", "indoor plants for beginners"],
    ["How do I repot a cactus?", "en", "how do I repot a cactus"],
    ["SEO tools for small shops", "en", "SEO tools for small shops"],
    ["NASA missions to Mars", "en", "NASA missions to Mars"],
    ["Zimmerpflanzen richtig gießen", "de", "Zimmerpflanzen richtig gießen"],
  ])("%s (%s) → %s", (topic, language, primary) => {
    const p = planFor({ topic, language, structure: "detailed", length: 800 });
    expect(p.primary).toBe(primary);
    expect(p.secondary).toEqual([]);
    for (const q of p.faqQuestions) expect(q).toContain(primary);
    expect(proseSections(p)[0]!.primaryUses).toBeGreaterThanOrEqual(1);
  });

  it("uses the first given keyword, not the topic, when keywords are given", () => {
    expect(planFor({ topic: "Caring for indoor plants", seo: { keywords: "Monstera care, light" } }).primary).toBe("Monstera care");
  });
});

describe("plan: structure mapping", () => {
  it.each([
    ["listicle", "sections"],
    ["how-to guide", "detailed"],
    ["essay", "paragraphs"],
    ["Ultimate FAQ", "detailed"],
    ["top 10 list", "sections"],
    ["blog post", "paragraphs"],
    ["something else entirely", "sections"],
    ["paragraphs", "paragraphs"],
    ["sections", "sections"],
    ["detailed", "detailed"],
  ] as const)("%s → %s, with the requested words kept", (structure, preset) => {
    const p = planFor({ structure });
    expect(p.preset).toBe(preset);
    expect(p.request.structure).toBe(preset);
    expect(p.request.structureRequested).toBe(structure);
  });

  it("defaults to sections", () => {
    const p = planFor({});
    expect(p.preset).toBe("sections");
    expect(p.request.structureRequested).toBe("sections");
  });

  it("plans the mapped preset's shape: a how-to guide gets takeaways and an FAQ", () => {
    const p = planFor({ structure: "how-to guide", length: 800, seo: { keywords: KEYWORDS } });
    expect(kinds(p)).toContain("takeaways");
    expect(kinds(p).at(-1)).toBe("faq");
    expect(planFor({ structure: "essay", length: 800 }).sections.some((s) => s.kind === "faq" || s.kind === "takeaways")).toBe(false);
  });
});

describe("plan: localised labels", () => {
  it("German: Fazit, Das Wichtigste in Kürze, German FAQ questions with the keyword", () => {
    const p = planFor({ topic: "Zimmerpflanzen", language: "de", structure: "detailed", seo: { keywords: "Zimmerpflanzen, Gießplan" } });
    expect(p.languageName).toBe("German");
    expect(p.labels.conclusion).toBe("Fazit");
    expect(p.sections.find((s) => s.kind === "conclusion")!.label).toBe("Fazit");
    expect(p.sections.find((s) => s.kind === "takeaways")!.label).toBe("Das Wichtigste in Kürze");
    expect(p.sections.find((s) => s.kind === "faq")!.label).toBe("Häufig gestellte Fragen");
    expect(p.faqQuestions.length).toBeGreaterThanOrEqual(3);
    for (const q of p.faqQuestions) {
      expect(q).toContain("Zimmerpflanzen");
      expect(q).toMatch(/\?$/);
    }
    expect(p.faqQuestions[0]).toBe("Worum geht es beim Thema Zimmerpflanzen?");
  });

  it("Japanese: まとめ, よくある質問, Japanese FAQ questions with the keyword", () => {
    const p = planFor({ topic: "観葉植物の育て方", language: "ja", structure: "detailed", seo: { keywords: "観葉植物, 水やり" } });
    expect(p.languageName).toBe("Japanese");
    expect(p.primary).toBe("観葉植物");
    expect(p.sections.find((s) => s.kind === "conclusion")!.label).toBe("まとめ");
    expect(p.sections.find((s) => s.kind === "takeaways")!.label).toBe("重要なポイント");
    expect(p.sections.find((s) => s.kind === "faq")!.label).toBe("よくある質問");
    for (const q of p.faqQuestions) {
      expect(q).toContain("観葉植物");
      expect(q).toMatch(/？$/);
    }
  });

  it("Japanese topic without keywords is the primary keyword as written", () => {
    expect(planFor({ topic: "観葉植物の育て方", language: "ja" }).primary).toBe("観葉植物の育て方");
  });

  it("Swahili has no labels of its own: English labels, but the prompts still name Swahili", () => {
    const p = planFor({ topic: "Mimea ya ndani", language: "sw", structure: "detailed", seo: { keywords: "mimea ya ndani" } });
    expect(p.languageName).toBe("Swahili");
    expect(p.labels.conclusion).toBe("Conclusion");
    expect(p.sections.find((s) => s.kind === "conclusion")!.label).toBe("Conclusion");
    expect(p.sections.find((s) => s.kind === "takeaways")!.label).toBe("Key takeaways");
    expect(p.sections.find((s) => s.kind === "faq")!.label).toBe("Frequently asked questions");
    expect(p.faqQuestions[0]).toBe("What is mimea ya ndani?");
  });

  it("language codes are taken in any case", () => {
    const p = planFor({ language: "DE", structure: "sections" });
    expect(p.request.language).toBe("de");
    expect(p.sections.at(-1)!.label).toBe("Fazit");
  });
});
