import { describe, expect, it } from "vitest";
import {
  RESTATES,
  SourceIndex,
  givenWords,
  excerptsForSections,
  pickExcerpts,
  restates,
  splitExcerpts,
  type Excerpt,
} from "../../src/article/grounding/sources.js";
import { contentTerms } from "../../src/article/text/terms.js";
import { countWords } from "../../src/article/text/text.js";

const COMPOST = {
  title: "Composting guide",
  url: "https://example.org/compost",
  text: [
    "# Composting at home",
    "",
    "A **compost bin** turns [kitchen scraps](https://example.org/scraps) into dark soil. Brown leaves add carbon to the heap. Green scraps add nitrogen.",
    "Shredded paper counts as brown material.",
    "",
    "## Turning the heap",
    "",
    "Turn the heap every two weeks so that air reaches the middle. A hot heap reaches 60 degrees.",
    "",
    "- Coffee grounds",
    "- Eggshells, crushed",
    "",
    "```js",
    "turnHeap({ everyDays: 14 });",
    "```",
    "",
    "| material | kind |",
    "|---|---|",
    "| straw | brown |",
  ].join("\n"),
};
const BARRELS = { title: "Rain barrels", text: "Rain barrels collect water from the roof. A 200 litre barrel fills in one summer storm." };

describe("splitExcerpts", () => {
  const excerpts = splitExcerpts({ sources: [COMPOST, BARRELS], language: "en" });

  it("strips Markdown, keeps each excerpt under one heading of one source, and leaves code out", () => {
    const texts = excerpts.map((p) => p.text);
    expect(texts[0]).toBe(
      "A compost bin turns kitchen scraps into dark soil. Brown leaves add carbon to the heap. Green scraps add nitrogen.",
    );
    expect(excerpts[0]).toMatchObject({ index: 0, source: 0, heading: "Composting at home" });
    // The fourth sentence of the paragraph starts an excerpt of its own (three sentences at most).
    expect(texts[1]).toBe("Shredded paper counts as brown material.");
    expect(
      excerpts
        .filter((p) => p.heading === "Turning the heap")
        .map((p) => p.text)
        .join(" "),
    ).toBe(
      "Turn the heap every two weeks so that air reaches the middle. A hot heap reaches 60 degrees. Coffee grounds. Eggshells, crushed. material; kind. straw; brown.",
    );
    expect(texts.join(" ")).not.toMatch(/[*#`|[\]]|https?:|turnHeap/);
    expect(excerpts.at(-1)).toMatchObject({ source: 1, text: BARRELS.text });
    expect(excerpts.at(-1)).not.toHaveProperty("heading");
    expect(excerpts.map((p) => p.index)).toEqual(excerpts.map((_, i) => i));
    for (const p of excerpts) expect(p.words).toBe(countWords(p.text, "en"));
  });

  it("reads a source as analyse reads a page: its front matter is no excerpt", () => {
    const text = "---\ntitle: Rain barrels\ndraft: true\n---\nRain barrels collect water from the roof.\n";
    expect(splitExcerpts({ sources: [{ title: "Barrels", text }], language: "en" }).map((p) => p.text)).toEqual([
      "Rain barrels collect water from the roof.",
    ]);
  });

  it("cuts an excerpt at its word limit, and a sentence longer than the limit into pieces", () => {
    const long = Array.from({ length: 50 }, (_, i) => `word${i}`).join(" ");
    const cut = splitExcerpts({ sources: [{ title: "Long", text: `${long}. Short one here.` }], language: "en", maxWords: 20 });
    expect(cut.map((p) => p.words)).toEqual([20, 20, 13]);
    expect(cut.map((p) => p.text).join(" ")).toBe(`${long}. Short one here.`);
  });

  it("splits a very long paragraph the way it splits short ones, keeping every word", () => {
    const sentences = Array.from({ length: 400 }, (_, i) => `Heap ${i} needs "brown" leaves (and green scraps)!`);
    const excerpts = splitExcerpts({ sources: [{ title: "Long", text: sentences.join(" ") }], language: "en" });
    expect(excerpts.map((p) => p.text).join(" ")).toBe(sentences.join(" "));
    expect(excerpts).toHaveLength(Math.ceil(400 / 3));
    for (const p of excerpts) expect(p.text.split("!").length - 1).toBeLessThanOrEqual(3);
    // Text without any terminator is cut at spaces, never inside a word.
    const plain = splitExcerpts({ sources: [{ title: "Plain", text: "word ".repeat(3000) }], language: "en" });
    expect(plain.reduce((n, p) => n + p.words, 0)).toBe(3000);
  });

  it("splits text without spaces between words (Japanese) into sentences too", () => {
    const ja = splitExcerpts({
      sources: [{ title: "堆肥", text: "堆肥は土を豊かにします。落ち葉は炭素を加えます。生ごみは窒素を加えます。毎週かき混ぜます。" }],
      language: "ja",
    });
    expect(ja.map((p) => p.text)).toEqual([
      "堆肥は土を豊かにします。 落ち葉は炭素を加えます。 生ごみは窒素を加えます。",
      "毎週かき混ぜます。",
    ]);
  });
});

describe("SourceIndex: BM25 per section", () => {
  const index = new SourceIndex({ sources: [COMPOST, BARRELS], language: "en" });

  it("ranks the excerpt that answers a section's heading first, and leaves out excerpts sharing no word", () => {
    const ranked = index.rank("Turning the heap every week");
    expect(ranked[0]!.excerpt.text).toMatch(/^Turn the heap every two weeks/);
    expect(ranked.map((r) => r.score)).toEqual([...ranked.map((r) => r.score)].sort((a, b) => b - a));
    expect(index.rank("Rain barrels and roof water")[0]!.excerpt.source).toBe(1);
    expect(index.rank("quantum chromodynamics")).toEqual([]);
  });

  it("matches word forms both ways (composting → compost, turned heaps → turn the heap), and stop words match nothing", () => {
    expect(index.rank("composting")[0]!.excerpt.text).toMatch(/compost bin/);
    expect(index.rank("turned heaps")[0]!.excerpt.text).toMatch(/^Turn the heap/);
    expect(index.rank("the and of which")).toEqual([]);
  });
});

describe("pickExcerpts and excerptsForSections", () => {
  const excerpt = (index: number, words: number): Excerpt => ({ index, source: 0, text: `p${index}`, words });

  it("takes excerpts in rank order while they fit, skipping one too long for what is left", () => {
    const ranked = [excerpt(0, 50), excerpt(1, 100), excerpt(2, 20)].map((p, i) => ({ excerpt: p, score: 3 - i }));
    // 50 words × 1.4 = 70 tokens, then 140 does not fit in the 50 left, then 28 does.
    expect(pickExcerpts({ ranked, budget: 120 }).map((p) => p.index)).toEqual([0, 2]);
    expect(pickExcerpts({ ranked, budget: 120, tokens: (p) => p.words }).map((p) => p.index)).toEqual([0, 2]);
    expect(pickExcerpts({ ranked, budget: 200, tokens: (p) => p.words }).map((p) => p.index)).toEqual([0, 1, 2]);
    expect(pickExcerpts({ ranked, budget: 10 })).toEqual([]);
    expect(pickExcerpts({ ranked, budget: 1000, exclude: new Set([1]) }).map((p) => p.index)).toEqual([0, 2]);
  });

  it("shows each excerpt to one section only, the prompt growing with the excerpts picked, not the sources given", () => {
    const index = new SourceIndex({ sources: [COMPOST, BARRELS], language: "en" });
    const sections = excerptsForSections({
      index,
      sections: [
        { query: "compost heap", budget: 60 },
        { query: "compost heap turning", budget: 60 },
        { query: "rain water", budget: 60 },
      ],
    });
    const shown = sections.flat().map((p) => p.index);
    expect(new Set(shown).size).toBe(shown.length);
    for (const picked of sections) expect(picked.reduce((n, p) => n + Math.ceil(p.words * 1.4), 0)).toBeLessThanOrEqual(60);
    expect(sections[2]!.map((p) => p.source)).toEqual([1]);
    // Twenty more sources on other subjects change nothing a section is shown.
    const crowded = new SourceIndex({
      sources: [
        COMPOST,
        BARRELS,
        ...Array.from({ length: 20 }, (_, i) => ({ title: `Other ${i}`, text: `Knitting patterns number ${i} use wool and needles.` })),
      ],
      language: "en",
    });
    const again = excerptsForSections({
      index: crowded,
      sections: [
        { query: "compost heap", budget: 60 },
        { query: "compost heap turning", budget: 60 },
        { query: "rain water", budget: 60 },
      ],
    });
    expect(again.map((s) => s.map((p) => p.text))).toEqual(sections.map((s) => s.map((p) => p.text)));
  });
});

describe("restates: the citation measure", () => {
  const excerpts = splitExcerpts({ sources: [COMPOST, BARRELS], language: "en" });
  const turning = excerpts.find((p) => p.text.startsWith("Turn the heap"))!;
  const barrel = excerpts.find((p) => p.source === 1)!;
  const none = givenWords([], "en");
  const cite = (sentence: string, given = none, among = excerpts) => restates({ sentence, excerpts: among, language: "en", given });

  it("cites a sentence sharing 3 content words, 40% of its own, and a run of two of them with an excerpt", () => {
    expect(cite("Gardeners turn their heap every two weeks.")).toEqual({
      excerpt: turning.index,
      source: 0,
      shared: ["turn", "heap", "everi", "two", "week"],
      evidence: ["turn", "heap"],
    });
  });

  it("takes a figure the excerpt gives as the evidence when no run is shared", () => {
    // "storm summer", "summer 200", "200 fill", "fill barrel": no run the excerpt has, but its figure.
    expect(cite("Storms each summer, 200 fill the barrel.")).toMatchObject({ excerpt: barrel.index, evidence: ["200"] });
    // The same words without the figure, or with a figure the request gave, restate nothing.
    expect(cite("Storms each summer fill the barrel.")).toBeUndefined();
    expect(cite("Storms each summer, 200 fill the barrel.", givenWords(["Barrels of 200 litres"], "en"))).toBeUndefined();
  });

  it("does not cite a sentence that shares too few words, or too small a share of its own", () => {
    expect(cite("The dog ran across the park.")).toBeUndefined();
    // Two shared words are not enough, however short the sentence.
    expect(cite("Turn the heap.")).toBeUndefined();
    // Three shared of eight content words (37.5%) is under the 40% share.
    const sentence = "Turn the heap twice, said Lily, laughing loudly with Tom in sunshine.";
    const own = new Set(contentTerms(sentence, "en"));
    expect(own.size).toBeGreaterThanOrEqual(8);
    expect([...own].filter((w) => contentTerms(turning.text, "en").includes(w)).length).toBeGreaterThanOrEqual(RESTATES.minShared - 1);
    expect(cite(sentence)).toBeUndefined();
    expect(cite("Gardeners turn their heap every two weeks.", none, [])).toBeUndefined();
  });

  it("never counts the request's words: keywords steered into a sentence prove nothing", () => {
    const guide = splitExcerpts({
      sources: [
        { title: "Kitchen scraps", text: "Kitchen scraps such as fruit peels, coffee grounds and eggshells go into the compost bin." },
      ],
      language: "en",
    });
    const given = givenWords(["Home composting", "compost bin", "kitchen scraps", "garden waste"], "en");
    // Its only run ("kitchen scraps") is a keyword: cited without the request's words, not with them.
    const steered = "Eggshells, coffee and fruit go into kitchen scraps.";
    expect(cite(steered, none, guide)).toMatchObject({ evidence: ["kitchen", "scrap"] });
    expect(cite(steered, given, guide)).toBeUndefined();
    // The keywords themselves, with a word or two of the model's own, are no restatement.
    expect(cite("Kitchen scraps go into the compost bin, said Lily.", none, guide)).toBeDefined();
    expect(cite("Kitchen scraps go into the compost bin, said Lily.", given, guide)).toBeUndefined();
    // What the excerpt says beyond the keywords is.
    expect(cite("Fruit peels and coffee go into the compost bin.", given, guide)).toMatchObject({ evidence: ["fruit", "peel"] });
    // Word forms of the request's words are the request's too ("composting" gives "compost").
    expect(given.terms.has(contentTerms("composted", "en")[0]!)).toBe(true);
  });

  it("picks the excerpt sharing the most words when several qualify", () => {
    const a: Excerpt = { index: 0, source: 0, text: "Brown leaves add carbon to compost.", words: 6 };
    const b: Excerpt = { index: 1, source: 1, text: "Brown leaves add carbon and nitrogen to compost heaps.", words: 9 };
    expect(cite("Brown leaves add carbon and nitrogen.", none, [a, b])).toMatchObject({ excerpt: 1, source: 1 });
  });
});
