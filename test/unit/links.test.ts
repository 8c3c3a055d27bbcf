import { describe, expect, it } from "vitest";
import { LINKING, LinkSet, anchorPhrases, planLinks, sameAddress, type LinkSection } from "../../src/article/grounding/links.js";
import type { Link } from "../../src/article/wire/request.js";

const link = (url: string, title: string, keywords: string[] = []): Link => ({ url, title, keywords });

const LINKS = [
  link("/compost-bins", "How to Choose a Compost Bin", ["compost bin", "tumbler"]),
  link("https://example.org/rain-barrels/", "Rain barrels for small gardens"),
  link("/worms", "Worm composting: a beginner's guide", ["worm farm", "vermicompost"]),
  link("/leaves", "Autumn leaves as brown material", ["leaf mould"]),
  link("/history", "Our company history"),
];

const SECTIONS: LinkSection[] = [
  { query: "Home composting", words: 100 },
  { query: "Choosing a compost bin", words: 180 },
  { query: "Vermicompost with a worm farm", words: 180 },
  { query: "Collecting rain for the garden", words: 180 },
  { query: "Leaves and other brown material", words: 180 },
  { query: "Home composting", words: 80 },
];

const plan = (over: Partial<Parameters<typeof planLinks>[0]> = {}) =>
  planLinks({ links: LINKS, sections: SECTIONS, length: 800, language: "en", article: "Home composting garden", avoid: ["home composting"], ...over });

describe("planLinks", () => {
  it("links about one page per 200 words, each URL once, a page in the section it ranks for", () => {
    const result = plan();
    const urls = result.flat().map((l) => l.url);
    expect(urls).toHaveLength(800 / LINKING.wordsPerLink);
    expect(new Set(urls).size).toBe(urls.length);
    expect(result[1]!.map((l) => l.url)).toEqual(["/compost-bins"]);
    expect(result[2]!.map((l) => l.url)).toEqual(["/worms"]);
    expect(result[3]!.map((l) => l.url)).toEqual(["https://example.org/rain-barrels/"]);
    expect(result[4]!.map((l) => l.url)).toEqual(["/leaves"]);
    // A page that matches neither a section nor the article is not linked.
    expect(urls).not.toContain("/history");
  });

  it("spreads links over the sections before a section gets a second, and never more than its paragraphs", () => {
    const two = [link("/a", "Compost bin sizes"), link("/b", "Compost bin materials"), link("/c", "Compost bin placement")];
    const sections: LinkSection[] = [{ query: "compost bin", words: 400 }, { query: "compost", words: 90 }];
    const result = planLinks({ links: two, sections, length: 600, language: "en", article: "compost" });
    expect(result.map((s) => s.length)).toEqual([2, 1]);
    // One paragraph per section: one link each, whatever the length asks for.
    const tight = planLinks({ links: two, sections: sections.map((s) => ({ ...s, paragraphs: 1 })), length: 2000, language: "en", article: "compost" });
    expect(tight.map((s) => s.length)).toEqual([1, 1]);
    // A section that takes no links gets none.
    const none = planLinks({ links: two, sections: [{ query: "compost bin", words: 400, paragraphs: 0 }], length: 600, language: "en", article: "compost" });
    expect(none).toEqual([[]]);
  });

  it("fills sections with room from pages that rank only for the whole article", () => {
    const result = planLinks({
      links: [link("/soil", "Healthy garden soil")],
      sections: [{ query: "Introduction", words: 100 }, { query: "Getting started", words: 200 }],
      length: 300,
      language: "en",
      article: "garden soil",
    });
    expect(result).toEqual([[], [{ url: "/soil", title: "Healthy garden soil", anchors: expect.any(Array) }]]);
  });

  it("links the same URL once even when the request lists it twice, and one page per 200 words at least once", () => {
    const twice = [link("/a", "Compost bin sizes"), link("/a/", "Compost bin sizes again")];
    const result = planLinks({ links: twice, sections: [{ query: "compost bin", words: 300 }, { query: "compost bin", words: 300 }], length: 600, language: "en", article: "compost" });
    expect(result.flat()).toHaveLength(1);
    expect(planLinks({ links: twice, sections: [{ query: "compost bin", words: 100 }], length: 100, language: "en", article: "compost" }).flat()).toHaveLength(1);
    expect(planLinks({ links: [], sections: SECTIONS, length: 800, language: "en", article: "compost" })).toEqual(SECTIONS.map(() => []));
  });
});

describe("anchorPhrases", () => {
  it("offers the page's keywords and parts of its title, cased for mid-sentence use, never the whole title or a generic phrase", () => {
    const phrases = anchorPhrases({ link: LINKS[0]!, query: "anything", language: "en" });
    expect(phrases).toEqual(["compost bin", "tumbler", "choose"]);
    expect(anchorPhrases({ link: link("/x", "Worm composting: a beginner's guide"), query: "", language: "en" })).toEqual(["worm composting", "beginner's guide"]);
    expect(anchorPhrases({ link: link("/x", "SEO Tools for Small Shops"), query: "", language: "en" })).toEqual(["SEO tools", "small shops"]);
    expect(anchorPhrases({ link: link("/x", "Click here", ["click here", "read more"]), query: "", language: "en" })).toEqual([]);
    for (const l of LINKS) {
      for (const phrase of anchorPhrases({ link: l, query: "compost", language: "en" })) {
        expect(phrase.toLowerCase()).not.toBe(l.title.toLowerCase());
      }
    }
  });

  it("puts the phrases that share words with the section first, and leaves out the primary keyword", () => {
    const page = link("/worms", "Worm composting: a beginner's guide", ["worm farm", "vermicompost"]);
    expect(anchorPhrases({ link: page, query: "Setting up a worm farm", language: "en" })[0]).toBe("worm farm");
    expect(anchorPhrases({ link: page, query: "Which guide to read first", language: "en" })[0]).toBe("beginner's guide");
    expect(anchorPhrases({ link: page, query: "", language: "en", avoid: ["Worm Farm"] })).not.toContain("worm farm");
  });

  it("keeps a German title's capitals, which are the nouns' own", () => {
    expect(anchorPhrases({ link: link("/k", "Kompost im Garten anlegen"), query: "", language: "de" })).toContain("Kompost");
  });
});

describe("LinkSet and sameAddress", () => {
  it("ranks a page relevant whichever way its words are formed: \"Compost in 18 days\" for \"Home composting\"", () => {
    const pages = [link("/other", "Knitting"), link("/fast", "Compost in 18 days", ["compost bin"])];
    expect(new LinkSet(pages).for({ query: "Home composting", language: "en", max: 1 }).map((l) => l.url)).toEqual(["/fast"]);
    // A language the stemmer package lacks (Polish) still matches the words a query word begins.
    expect(new LinkSet([link("/other", "Robótki"), link("/k", "Kompostownik dla każdego")]).for({ query: "kompost", language: "pl", max: 1 }).map((l) => l.url)).toEqual(["/k"]);
  });

  it("ranks pages by their title and keywords, and keeps the set's order where nothing matches", () => {
    expect(new LinkSet(LINKS).for({ query: "vermicompost", language: "en", max: 1 }).map((l) => l.url)).toEqual(["/worms"]);
    expect(new LinkSet(LINKS).for({ query: "the of and", language: "en", max: 2 }).map((l) => l.url)).toEqual(["/compost-bins", "https://example.org/rain-barrels/"]);
  });

  it("keeps a large link set to the pages most relevant to an article, never its own page", () => {
    const many = Array.from({ length: 60 }, (_, i) => link(`/page-${i}`, `Page number ${i}`));
    many[42] = link("/compost", "Compost basics");
    const set = new LinkSet(many);
    const kept = set.for({ query: "compost", language: "en", max: 50 });
    expect(kept).toHaveLength(50);
    expect(kept.map((l) => l.url)).toContain("/compost");
    // Kept in the set's order; the pages past the relevant ones in order too.
    expect(kept.map((l) => l.url)).toEqual(many.filter((l) => l.url === "/compost" || Number(l.url.split("-")[1]) < 50).map((l) => l.url));
    expect(set.for({ query: "compost", language: "en", max: 50, own: "https://example.org/compost/" }).map((l) => l.url)).not.toContain("/compost");
    expect(new LinkSet(LINKS).for({ query: "compost", language: "en", max: 50, own: "https://example.org/worms/" }).map((l) => l.url)).toEqual(LINKS.map((l) => l.url).filter((u) => u !== "/worms"));
  });

  it("compares addresses without a trailing slash, a site path matching any host's page of that path", () => {
    expect(sameAddress("/worms", "https://example.org/worms/")).toBe(true);
    expect(sameAddress("https://example.org/a", "https://example.org/a/")).toBe(true);
    expect(sameAddress("https://a.example/x", "https://b.example/x")).toBe(false);
    expect(sameAddress("/a?x=1", "/a?x=2")).toBe(false);
  });
});
