import { describe, expect, it } from "vitest";
import { Grounding } from "../../src/article/grounding/grounding.js";
import { outlineFor, planFor } from "../helpers/body.js";

// The request's own material per section, without the model: the notes a section is shown,
// the citation a written sentence earns, and the link a sentence carries.

const SOURCES = [
  {
    title: "Municipal composting report",
    url: "https://example.org/report",
    text: "Compost bins in the city collected 1,200 tonnes of kitchen scraps last year. Households that sort kitchen scraps cut their waste by a third.",
  },
  {
    title: "Garden club notes",
    text: "Turning the heap every week keeps it warm. A warm heap breaks down garden waste in about three months.",
  },
];
const LINKS = [{ url: "https://example.org/heaps", title: "Caring for a compost heap", keywords: ["compost heap", "home composting"] }];

function grounding(options: { sources?: boolean; links?: boolean } = {}) {
  const plan = planFor({ length: 800, structure: "sections" });
  const outline = outlineFor(plan);
  return {
    plan,
    g: new Grounding({ plan, outline, ...(options.sources ? { sources: SOURCES } : {}), ...(options.links ? { links: LINKS } : {}) }),
  };
}

describe("grounding", () => {
  it("does nothing without sources and links", () => {
    const { plan, g } = grounding();
    for (const [i] of plan.sections.entries()) {
      expect(g.notes(i)).toBe("");
      expect(g.owedAnchors(i)).toBeUndefined();
    }
    expect(g.cite("Compost bins in the city collected kitchen scraps.")).toBeUndefined();
    expect(g.stats()).toEqual({ sources: 0, cited: 0, links: 0, linksWanted: 0, linksPlaced: 0, unlinked: [] });
  });

  it("shows each source excerpt to one section, as notes, and cites a sentence that restates one it was shown", () => {
    const { plan, g } = grounding({ sources: true });
    const notes = plan.sections.map((_, i) => g.notes(i));
    const lines = notes.flatMap((n) => (n ? n.split("\n") : []));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^Note: /);
    expect(new Set(lines).size).toBe(lines.length);
    const cited = g.cite("Compost bins in the city collected many tonnes of kitchen scraps.");
    expect(cited).toEqual({ n: 1, title: "Municipal composting report", url: "https://example.org/report" });
    // The same source keeps its number; a sentence that restates nothing gets none.
    expect(g.cite("Households that sort kitchen scraps cut their waste a lot.")).toEqual(cited);
    expect(g.cite("The weather was pleasant on Sunday.")).toBeUndefined();
    expect(g.citedSources()).toEqual([cited]);
  });

  it("places an owed link on the words of a sentence that holds its anchor, once", () => {
    const { plan, g } = grounding({ links: true });
    const section = plan.sections.findIndex((_, i) => g.owes(i));
    expect(section).toBeGreaterThanOrEqual(0);
    const anchor = g.owedAnchors(section)![0]!;
    expect(anchor).toBeTruthy();
    expect(g.place(section, "The weather was pleasant on Sunday.")).toBeUndefined();
    const sentence = `Many gardeners keep a ${anchor} behind the shed.`;
    const link = g.place(section, sentence);
    expect(link?.url).toBe("https://example.org/heaps");
    expect(sentence.slice(link!.start, link!.start + link!.length).toLowerCase()).toBe(anchor.toLowerCase());
    expect(g.owes(section)).toBe(false);
    expect(g.stats()).toMatchObject({ links: 1, linksWanted: 1, linksPlaced: 1 });
  });

  it("offers half the owed page's phrases, from the one the seed puts first, and never an anchor another link of the article took", () => {
    const links = [
      { url: "/heaps", title: "Caring for a compost heap", keywords: ["garden waste", "compost heap"] },
      { url: "/waste", title: "Composting garden waste in winter", keywords: ["garden waste", "leaf mould"] },
    ];
    const offered = new Set<string>();
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const plan = planFor({ length: 800, structure: "sections", seed, seo: { keywords: "compost bin" } });
      const g = new Grounding({ plan, outline: outlineFor(plan), links });
      const [first, second] = plan.sections.map((_, i) => i).filter((i) => g.owes(i));
      // "/waste" has five phrases ("composting waste", "garden waste", "leaf mould", …): three are offered.
      const phrases = g.owedAnchors(second!)!;
      expect(phrases, `seed ${seed}`).toHaveLength(3);
      for (const phrase of phrases) offered.add(phrase);
      // Both pages have "garden waste": the first link to take it keeps it, offered or not.
      expect(g.place(first!, "We sort the garden waste each week.")).toBeDefined();
      expect(g.owedAnchors(second!)).not.toContain("garden waste");
      expect(g.place(second!, "We sort the garden waste each week.")).toBeUndefined();
      expect(g.place(second!, "Leaf mould takes a year.")).toMatchObject({ url: "/waste", start: 0, length: 10 });
    }
    // Articles of other seeds are offered other phrases.
    expect(offered.size).toBeGreaterThan(3);
  });
});
