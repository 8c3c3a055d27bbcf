import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { focusKeyword } from "../../src/article/plan/focus.js";
import { plan, type Plan, type PlannedHeading } from "../../src/article/plan/plan.js";
import { GenerateRequestSchema, type Preset } from "../../src/contract/request.js";
import { countWords } from "../../src/article/text/text.js";
import { planFor } from "../helpers/body.js";

// `plan()` decides everything code owns before the model writes a word. These tests read
// the plan as a contract: they compute the figures the rules ask for (H2s per requested
// words, keyword share of subheadings, keyword density…) from the plan and compare them
// with the rules, rather than restating how plan.ts computes them.

/** The request these tests plan unless told otherwise: no length, no keywords. */
const PLANTS = { topic: "Caring for indoor plants", seed: 1 };
const KEYWORDS = "indoor plants, watering schedule, potting soil";
const PRIMARY = "indoor plants";
const SECONDARY = ["watering schedule", "potting soil"];
const PRESETS: Preset[] = ["paragraphs", "sections", "detailed", "listicle", "how-to"];
const LENGTHS = [100, 150, 200, 300, 500, 800, 1200, 2000, 3000, 5000];

function keywordPlan(structure: Preset, length: number, headingTags = true): Plan {
  return planFor({ structure, length, seo: { keywords: KEYWORDS, headingTags } }, PLANTS);
}

const kinds = (p: Plan) => p.sections.map((s) => s.kind);
const bodies = (p: Plan) => p.sections.filter((s) => s.kind === "body");
const proseSections = (p: Plan) => p.sections.filter((s) => ["introduction", "body", "conclusion"].includes(s.kind));
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** Every subheading a reader sees when headings are on: fixed labels (never holding the keyword) and written H2s and H3s. */
function visibleSubheadings(p: Plan): { keyword: boolean }[] {
  return p.sections.flatMap((s) => [
    ...(s.label !== null ? [{ keyword: false }] : []),
    ...(s.heading ? [s.heading] : []),
    ...s.subheadings,
  ]);
}

/** Model-written headings and questions. */
const writtenHeadings = (p: Plan): PlannedHeading[] => p.sections.flatMap((s) => [...(s.heading ? [s.heading] : []), ...s.subheadings]);

/** Words each stretch of text between two headings is planned to get (headings on). */
function plannedRuns(p: Plan): number[] {
  const totalShare = sum(p.sections.map((s) => s.share));
  const runs: number[] = [];
  for (const s of p.sections) {
    const words = (p.request.length * s.share) / totalShare;
    const heading = s.label !== null || s.heading !== null;
    if (s.subheadings.length > 0) {
      // Text between the H2 and its first H3 is empty; each H3 starts a run.
      for (let i = 0; i < s.subheadings.length; i++) runs.push(words / s.subheadings.length);
    } else if (heading || runs.length === 0) {
      runs.push(words);
    } else {
      // A section without a heading continues the run before it.
      runs[runs.length - 1]! += words;
    }
  }
  return runs;
}

describe("plan: sections per preset and length", () => {
  describe.each(LENGTHS)("sections preset, %i words", (length) => {
    const p = keywordPlan("sections", length);

    it("has about one H2 per 150–300 requested words (at least 1)", () => {
      const h2 = p.sections.filter((s) => s.heading !== null || s.label !== null).length;
      const low = Math.max(1, Math.floor(length / 300));
      const high = Math.max(1, Math.ceil(length / 150));
      expect(h2, `${h2} H2s for ${length} words; expected ${low}–${high}`).toBeGreaterThanOrEqual(low);
      expect(h2, `${h2} H2s for ${length} words; expected ${low}–${high}`).toBeLessThanOrEqual(high);
    });

    it("is an introduction, body sections with written H2s and a conclusion, nothing else", () => {
      const k = kinds(p);
      expect(k[0]).toBe("introduction");
      expect(k.at(-1)).toBe("conclusion");
      expect(k.slice(1, -1).every((kind) => kind === "body")).toBe(true);
      expect(bodies(p).length).toBeGreaterThanOrEqual(1);
      expect(p.sections[0]!.label).toBeNull();
      expect(p.sections[0]!.heading).toBeNull();
      for (const s of bodies(p)) {
        expect(s.heading).not.toBeNull();
        expect(s.label).toBeNull();
        expect(s.number).toBeNull();
      }
      // A short article may close without a conclusion heading; a longer one has it.
      expect([null, "Conclusion"]).toContain(p.sections.at(-1)!.label);
      if (length >= 500) expect(p.sections.at(-1)!.label).toBe("Conclusion");
      expect(p.sections.every((s) => s.subheadings.length === 0 && s.items === 0)).toBe(true);
    });
  });

  describe.each(LENGTHS)("detailed preset, %i words", (length) => {
    const p = keywordPlan("detailed", length);

    it("is introduction, key takeaways, body sections with H3s, conclusion, FAQ", () => {
      const k = kinds(p);
      expect(k.slice(0, 2)).toEqual(["introduction", "takeaways"]);
      expect(k.slice(-2)).toEqual(["conclusion", "faq"]);
      const middle = p.sections.slice(2, -2);
      expect(middle.length).toBeGreaterThanOrEqual(1);
      for (const s of middle) {
        expect(s.kind).toBe("body");
        expect(s.heading).not.toBeNull();
        expect(s.subheadings.length).toBeGreaterThanOrEqual(1);
      }
      expect(p.sections[1]!.label).toBe("Key takeaways");
      expect(p.sections.at(-2)!.label).toBe("Conclusion");
      expect(p.sections.at(-1)!.label).toBe("Frequently asked questions");
      for (const s of [p.sections[0]!, p.sections[1]!, p.sections.at(-2)!]) expect(s.subheadings).toEqual([]);
    });

    it("has 3–5 takeaways and 3–5 FAQ questions", () => {
      const takeaways = p.sections[1]!.items;
      const questions = p.sections.at(-1)!.subheadings.length;
      expect(takeaways).toBeGreaterThanOrEqual(3);
      expect(takeaways).toBeLessThanOrEqual(5);
      expect(questions).toBeGreaterThanOrEqual(3);
      expect(questions).toBeLessThanOrEqual(5);
    });
  });

  it("detailed: longer articles never get fewer FAQ questions or takeaways, and the longest get 5", () => {
    const plans = LENGTHS.map((length) => keywordPlan("detailed", length));
    const questions = plans.map((p) => p.sections.at(-1)!.subheadings.length);
    const takeaways = plans.map((p) => p.sections[1]!.items);
    for (let i = 1; i < plans.length; i++) {
      expect(questions[i]).toBeGreaterThanOrEqual(questions[i - 1]!);
      expect(takeaways[i]).toBeGreaterThanOrEqual(takeaways[i - 1]!);
    }
    expect(questions.at(-1)).toBe(5);
    expect(takeaways.at(-1)).toBe(5);
  });

  describe.each(LENGTHS)("paragraphs preset, %i words", (length) => {
    const p = keywordPlan("paragraphs", length);

    it("is introduction, body parts and conclusion without any heading", () => {
      const k = kinds(p);
      expect(k[0]).toBe("introduction");
      expect(k.at(-1)).toBe("conclusion");
      expect(k.slice(1, -1).every((kind) => kind === "body")).toBe(true);
      for (const s of p.sections) {
        expect(s.label).toBeNull();
        expect(s.heading).toBeNull();
        expect(s.subheadings).toEqual([]);
        expect(s.items).toBe(0);
      }
    });
  });

  describe.each([
    ["listicle", 3, 40, 150],
    ["how-to", 3, 30, 180],
  ] as const)("%s preset", (structure, min, max, wordsPerPart) => {
    const counts = LENGTHS.map((length) => bodies(keywordPlan(structure, length)).length);

    it.each(LENGTHS)("%i words: introduction, numbered sections with written headings, a labelled conclusion", (length) => {
      const p = keywordPlan(structure, length);
      const k = kinds(p);
      expect(k[0]).toBe("introduction");
      expect(k.at(-1)).toBe("conclusion");
      expect(k.slice(1, -1).every((kind) => kind === "body")).toBe(true);
      expect(p.sections.at(-1)!.label).toBe("Conclusion");
      const items = bodies(p);
      expect(items.map((s) => s.number)).toEqual(items.map((_, i) => i + 1));
      for (const s of items) {
        expect(s.heading).not.toBeNull();
        expect(s.label).toBeNull();
        expect(s.subheadings).toEqual([]);
      }
      expect(p.sections[0]!.number).toBeNull();
      expect(p.sections.at(-1)!.number).toBeNull();
    });

    it(`has ${min}–${max} items, about one per ${wordsPerPart} words, more for longer articles`, () => {
      LENGTHS.forEach((length, i) => {
        const count = counts[i]!;
        const about = length / wordsPerPart;
        expect(count, `${count} items for ${length} words`).toBeGreaterThanOrEqual(min);
        expect(count, `${count} items for ${length} words`).toBeLessThanOrEqual(max);
        if (about >= min && about <= max) expect(Math.abs(count - about), `${count} items for ${length} words`).toBeLessThanOrEqual(1);
        if (i > 0) expect(count).toBeGreaterThanOrEqual(counts[i - 1]!);
      });
      expect(counts[0]).toBe(min);
    });
  });

  // The paragraphs preset shows no subheadings, so there is nothing to distribute there.
  describe.each(["sections", "detailed", "listicle", "how-to"] as const)("%s", (structure) => {
    it.each(LENGTHS)("%i words: no planned stretch between two headings is over 300 words", (length) => {
      const runs = plannedRuns(keywordPlan(structure, length)).map((w) => Math.round(w));
      expect(Math.max(...runs), `planned runs: ${runs.join(", ")}`).toBeLessThanOrEqual(300);
    });
  });

  it.each(PRESETS)("%s: every section gets a positive share of the words", (structure) => {
    for (const length of LENGTHS) for (const s of keywordPlan(structure, length).sections) expect(s.share).toBeGreaterThan(0);
  });
});

describe("plan: keywords", () => {
  describe.each(["sections", "detailed", "listicle", "how-to"] as const)("%s with headings on", (structure) => {
    it.each(LENGTHS)("%i words: about half of the visible subheadings hold the primary keyword (30–75 %)", (length) => {
      const p = keywordPlan(structure, length);
      const subheadings = visibleSubheadings(p);
      const holding = subheadings.filter((h) => h.keyword).length;
      const share = holding / subheadings.length;
      const figures = `${holding} of ${subheadings.length} subheadings (${(share * 100).toFixed(1)}%)`;
      if (subheadings.length === 1) {
        // One subheading can hold 0 % or 100 %: like Yoast, a single subheading should carry the keyword.
        expect(holding, figures).toBe(1);
        return;
      }
      // A very short article with many headings: the 2.5 % density limit wins over the heading share.
      const densityRoom = Math.max(1, Math.floor(length * 0.025) - 1);
      if (share < 0.3 && holding === densityRoom) {
        expect(length, figures).toBeLessThan(300);
        return;
      }
      expect(share, figures).toBeGreaterThanOrEqual(0.3);
      expect(share, figures).toBeLessThanOrEqual(0.75);
    });

    it("spreads the keyword headings out instead of bunching them at the start", () => {
      const p = keywordPlan(structure, 3000);
      const marks = writtenHeadings(p).map((h) => h.keyword);
      const firstHalf = marks.slice(0, Math.floor(marks.length / 2)).filter(Boolean).length;
      const secondHalf = marks.slice(Math.floor(marks.length / 2)).filter(Boolean).length;
      expect(Math.abs(firstHalf - secondHalf), marks.map((m) => (m ? "K" : "-")).join("")).toBeLessThanOrEqual(1);
    });
  });

  describe.each(PRESETS)("%s with headings off", (structure) => {
    it("marks no heading, only FAQ questions (which stay visible as paragraphs), one in two", () => {
      const p = keywordPlan(structure, 1200, false);
      for (const s of p.sections) {
        if (s.heading) expect(s.heading.keyword).toBe(false);
        if (s.kind !== "faq") for (const h of s.subheadings) expect(h.keyword).toBe(false);
      }
      const questions = p.sections.find((s) => s.kind === "faq")?.subheadings ?? [];
      expect(questions.filter((q) => q.keyword).length).toBe(Math.ceil(questions.length / 2));
    });
  });

  describe.each(PRESETS)("%s", (structure) => {
    it.each(LENGTHS)("%i words: primary uses are spread over the prose sections, the introduction first", (length) => {
      const p = keywordPlan(structure, length);
      const uses = proseSections(p).map((s) => s.primaryUses);
      expect(uses[0], `uses per prose section: ${uses.join(", ")}`).toBeGreaterThanOrEqual(1);
      expect(Math.max(...uses), `uses per prose section: ${uses.join(", ")}`).toBe(uses[0]);
      expect(Math.max(...uses) - Math.min(...uses), `uses per prose section: ${uses.join(", ")}`).toBeLessThanOrEqual(1);
      // Lists and FAQ answers are not asked to open sentences with the keyword.
      for (const s of p.sections.filter((s) => !proseSections(p).includes(s))) expect(s.primaryUses).toBe(0);
    });

    it.each(LENGTHS)("%i words: each secondary keyword goes to exactly one prose section", (length) => {
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
    // only when headings are shown (density = occurrences ÷ body words).
    describe.each([true, false])("headingTags %s", (headingTags) => {
      it.each([250, 300, 620, 800, 2000, 5000])("%i words: the planned keyword uses give a 0.5–2.5 per cent density", (length) => {
        const p = keywordPlan(structure, length, headingTags);
        const visibleHeadings = headingTags && structure !== "paragraphs";
        const prose = sum(p.sections.map((s) => s.primaryUses));
        const headings = p.sections.flatMap((s) =>
          s.kind === "faq" ? s.subheadings : visibleHeadings ? [...(s.heading ? [s.heading] : []), ...s.subheadings] : [],
        );
        const marked = headings.filter((h) => h.keyword).length;
        const density = ((prose + marked) / length) * 100;
        const figures = `${prose} prose + ${marked} heading uses in ${length} words = ${density.toFixed(2)}%`;
        expect(density, figures).toBeGreaterThanOrEqual(0.5);
        expect(density, figures).toBeLessThanOrEqual(2.5);
      });
    });
  });

  it("assigns all 19 secondary keywords of a 20-keyword request round robin over the prose sections", () => {
    const keywords = Array.from({ length: 20 }, (_, i) => `keyword ${i}`);
    const p = planFor({ structure: "sections", length: 800, seo: { keywords: keywords.join(", ") } }, PLANTS);
    expect(p.primary).toBe("keyword 0");
    const prose = proseSections(p);
    expect(p.sections.flatMap((s) => s.secondary).sort()).toEqual(keywords.slice(1).sort());
    const perSection = prose.map((s) => s.secondary.length);
    expect(Math.max(...perSection) - Math.min(...perSection)).toBeLessThanOrEqual(1);
    // Round robin: the next keyword goes to the next prose section, wrapping around.
    const holder = (keyword: string) => prose.findIndex((s) => s.secondary.includes(keyword));
    for (let i = 2; i < keywords.length; i++) {
      expect(holder(keywords[i]!), keywords[i]).toBe((holder(keywords[i - 1]!) + 1) % prose.length);
    }
  });

  it("drops a secondary keyword equal to the primary one, in any case", () => {
    const p = planFor({ seo: { keywords: "Indoor plants, watering" } }, PLANTS);
    expect(p.primary).toBe("Indoor plants");
    expect(p.secondary).toEqual(["watering"]);
  });
});

describe("plan: focus keyword from the topic when no keywords are given", () => {
  it.each([
    ["Indoor plants", "en", "indoor plants"],
    ["Indoor plants for beginners.", "en", "indoor plants for beginners"],
    ["How do I start composting at home?", "en", "start composting at home"],
    ["NASA missions to Mars", "en", "NASA missions to Mars"],
    ["Zimmerpflanzen richtig gießen", "de", "Zimmerpflanzen richtig gießen"],
    ["観葉植物の育て方", "ja", "観葉植物の育て方"],
  ])("%s (%s) → %s", (topic, language, primary) => {
    const p = planFor({ topic, language, structure: "detailed", length: 800 }, PLANTS);
    expect(p.primary).toBe(primary);
    expect(p.secondary).toEqual([]);
    expect(proseSections(p)[0]!.primaryUses).toBeGreaterThanOrEqual(1);
  });

  const SMALL = new Set(
    "a an the and or of in on at to for with by from how what why when where which who is are do does did can i you we my your it this best top ultimate guide".split(
      " ",
    ),
  );

  it.each([
    "The ultimate beginner's guide to growing tomatoes on a small balcony",
    "What is the best way to learn Spanish quickly as an adult?",
    "How can I keep my sourdough starter alive while I am on holiday for two weeks?",
    "Why do cats knock things off tables and how can owners stop it?",
    "A very long topic about the history, economics and future of renewable energy in northern Europe",
  ])("%s: at most 4 words of the topic, not opening or closing on a small word", (topic) => {
    const keyword = focusKeyword(topic, "en");
    expect(countWords(keyword, "en"), keyword).toBeGreaterThanOrEqual(1);
    expect(countWords(keyword, "en"), keyword).toBeLessThanOrEqual(4);
    expect(topic.toLowerCase(), keyword).toContain(keyword.toLowerCase());
    const words = keyword.toLowerCase().split(/\s+/);
    expect(SMALL.has(words[0]!), keyword).toBe(false);
    expect(SMALL.has(words.at(-1)!), keyword).toBe(false);
    expect(keyword).not.toMatch(/[?.!]$/);
    expect(planFor({ topic }, PLANTS).primary).toBe(keyword);
  });

  it("keeps a short topic of small words whole rather than returning nothing", () => {
    expect(focusKeyword("How to?", "en")).not.toBe("");
    expect(focusKeyword("Best", "en")).toBe("best");
  });

  it("uses the first given keyword, not the topic, when keywords are given", () => {
    expect(planFor({ topic: "Caring for indoor plants", seo: { keywords: "Monstera care, light" } }, PLANTS).primary).toBe("Monstera care");
  });
});

describe("plan: structure mapping", () => {
  it.each([
    ["listicle", "listicle"],
    ["top 10 list", "listicle"],
    ["10 tips", "listicle"],
    ["how-to guide", "how-to"],
    ["step-by-step tutorial", "how-to"],
    ["essay", "paragraphs"],
    ["blog post", "paragraphs"],
    ["Ultimate FAQ", "detailed"],
    ["something else entirely", "sections"],
    ["paragraphs", "paragraphs"],
    ["sections", "sections"],
    ["detailed", "detailed"],
    ["how-to", "how-to"],
  ] as const)("%s → %s, with the requested words kept", (structure, preset) => {
    const p = planFor({ structure }, PLANTS);
    expect(p.preset).toBe(preset);
    expect(p.request.structure).toBe(preset);
    expect(p.request.structureRequested).toBe(structure);
  });

  it("defaults to sections", () => {
    const p = planFor({}, PLANTS);
    expect(p.preset).toBe("sections");
    expect(p.request.structureRequested).toBe("sections");
  });

  it("plans the mapped preset's shape: a how-to guide gets numbered steps, an essay no headings", () => {
    const howTo = planFor({ structure: "how-to guide", length: 900, seo: { keywords: KEYWORDS } }, PLANTS);
    expect(bodies(howTo).map((s) => s.number)).toEqual([1, 2, 3, 4, 5]);
    const essay = planFor({ structure: "essay", length: 800 }, PLANTS);
    expect(essay.sections.some((s) => s.heading || s.label || s.kind === "faq" || s.kind === "takeaways")).toBe(false);
  });
});

describe("plan: language", () => {
  it("German: Fazit, Das Wichtigste in Kürze, Häufig gestellte Fragen", () => {
    const p = planFor(
      { topic: "Zimmerpflanzen", language: "de", structure: "detailed", seo: { keywords: "Zimmerpflanzen, Gießplan" } },
      PLANTS,
    );
    expect(p.languageName).toBe("German");
    expect(p.labels.conclusion).toBe("Fazit");
    expect(p.sections.find((s) => s.kind === "conclusion")!.label).toBe("Fazit");
    expect(p.sections.find((s) => s.kind === "takeaways")!.label).toBe("Das Wichtigste in Kürze");
    expect(p.sections.find((s) => s.kind === "faq")!.label).toBe("Häufig gestellte Fragen");
    expect(p.spaced).toBe(true);
  });

  it("Japanese: まとめ, よくある質問, and words without spaces", () => {
    const p = planFor({ topic: "観葉植物の育て方", language: "ja", structure: "detailed", seo: { keywords: "観葉植物, 水やり" } }, PLANTS);
    expect(p.languageName).toBe("Japanese");
    expect(p.primary).toBe("観葉植物");
    expect(p.sections.find((s) => s.kind === "conclusion")!.label).toBe("まとめ");
    expect(p.sections.find((s) => s.kind === "takeaways")!.label).toBe("重要なポイント");
    expect(p.sections.find((s) => s.kind === "faq")!.label).toBe("よくある質問");
    expect(p.spaced).toBe(false);
  });

  it.each(["ja", "zh", "th"])("%s is written without spaces", (language) => {
    expect(planFor({ language }, PLANTS).spaced).toBe(false);
  });

  it("Swahili has no labels of its own: English labels, but the prompts still name Swahili", () => {
    const p = planFor({ topic: "Mimea ya ndani", language: "sw", structure: "detailed", seo: { keywords: "mimea ya ndani" } }, PLANTS);
    expect(p.languageName).toBe("Swahili");
    expect(p.spaced).toBe(true);
    expect(p.sections.find((s) => s.kind === "conclusion")!.label).toBe("Conclusion");
    expect(p.sections.find((s) => s.kind === "takeaways")!.label).toBe("Key takeaways");
    expect(p.sections.find((s) => s.kind === "faq")!.label).toBe("Frequently asked questions");
  });

  it("language codes are taken in any case", () => {
    const p = planFor({ language: "DE", structure: "sections" }, PLANTS);
    expect(p.request.language).toBe("de");
    expect(p.sections.at(-1)!.label).toBe("Fazit");
  });

  it("is pure: the same request gives the same plan", () => {
    const request = v.parse(GenerateRequestSchema, {
      topic: "Caring for indoor plants",
      seed: 1,
      structure: "detailed",
      seo: { keywords: KEYWORDS },
    });
    expect(plan(request)).toEqual(plan(request));
  });
});

describe("plan: banned labels", () => {
  it("a label the request bans gives way to a heading the model writes, under the same grammar as the others", async () => {
    const p = planFor({ structure: "detailed", length: 1500, style: { avoid: ["Conclusion", "key takeaways", "questions"] } });
    for (const kind of ["takeaways", "conclusion", "faq"] as const) {
      const section = p.sections.find((s) => s.kind === kind)!;
      expect(section.label, kind).toBeNull();
      expect(section.heading, kind).not.toBeNull();
    }
    expect(p.labels.sources).toBe("Sources");
    // The FAQ still has its questions; its heading is one field more.
    const faq = p.sections.find((s) => s.kind === "faq")!;
    expect(faq.subheadings.length).toBeGreaterThanOrEqual(3);
  });

  it("a label the request does not ban stays", () => {
    const p = planFor({ structure: "detailed", length: 1500, style: { avoid: ["conclusions drawn"] } });
    expect(p.sections.find((s) => s.kind === "conclusion")!.label).toBe("Conclusion");
  });
});
