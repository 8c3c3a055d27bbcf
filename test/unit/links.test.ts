import { describe, expect, it } from "vitest";
import { LinkSet, anchorPhrases, planLinks, sameAddress, type LinkSection } from "../../src/article/grounding/links.js";
import { LINKING } from "../../src/contract/limits.js";
import type { Link } from "../../src/contract/request.js";
import { stopWords } from "../../src/article/text/terms.js";

const link = (url: string, title: string, keywords: string[] = []): Link => ({ url, title, keywords });

const LINKS = [
  link("/compost-bins", "How to Choose a Compost Bin", ["compost bin", "tumbler"]),
  link("https://example.org/rain-barrels/", "Rain barrels for small gardens"),
  link("/worms", "Worm composting: a beginner's guide", ["worm farm", "vermicompost"]),
  link("/leaves", "Autumn leaves as brown material", ["leaf mould"]),
  link("/history", "Click here"),
  link("/knitting", "Knitting patterns for winter scarves"),
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
  planLinks({
    links: LINKS,
    sections: SECTIONS,
    length: 800,
    language: "en",
    article: "Home composting garden",
    primary: "home composting",
    ...over,
  }).sections;

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
    // A page that matches neither a section nor the article is not linked, nor one with no descriptive anchor.
    expect(urls).not.toContain("/knitting");
    expect(urls).not.toContain("/history");
  });

  it("says which pages it leaves out and why", () => {
    const { unlinked } = planLinks({
      links: [...LINKS, link("/worms/", "Worms again")],
      sections: SECTIONS,
      length: 600,
      language: "en",
      article: "Home composting garden",
    });
    expect(unlinked).toEqual([
      // "Click here" names nothing: no anchor names the page.
      { url: "/history", reason: "no-anchor" },
      { url: "/worms/", reason: "duplicate" },
      // 600 words take three links; the fourth relevant page is past them.
      { url: "https://example.org/rain-barrels/", reason: "budget" },
      { url: "/knitting", reason: "irrelevant" },
    ]);
  });

  it("leaves out a page whose every anchor holds a banned phrase, and says so", () => {
    // A banned phrase inside a page's keyword is a 422 (plan/conflicts.ts); inside its title, only its anchors go.
    const pages = [link("/tools", "Garden Tools for Children"), link("/leaves", "Composting autumn leaves")];
    const result = planLinks({
      links: pages,
      sections: [{ query: "garden leaves", words: 400 }],
      length: 400,
      language: "en",
      article: "garden leaves",
      banned: (text) => /\bgarden/i.test(text),
    });
    expect(result.sections.flat().map((l) => l.url)).toEqual(["/leaves"]);
    expect(result.unlinked).toEqual([{ url: "/tools", reason: "banned" }]);
  });

  it('links a page relevant in any word form: "Compost in 18 days" for "Home composting"', () => {
    const page = link("/fast", "Compost in 18 days", ["compost bin"]);
    const sections = [{ query: "Home composting", words: 300 }];
    expect(
      planLinks({ links: [page], sections, length: 300, language: "en", article: "Home composting", primary: "home composting" }).sections,
    ).toEqual([[{ url: "/fast", title: page.title, anchors: ["compost bin", "compost in 18 days"] }]]);
  });

  it("spreads links over the sections before a section gets a second, and never more than its paragraphs", () => {
    const two = [link("/a", "Compost bin sizes"), link("/b", "Compost bin materials"), link("/c", "Compost bin placement")];
    const sections: LinkSection[] = [
      { query: "compost bin", words: 400 },
      { query: "compost", words: 90 },
    ];
    const result = planLinks({ links: two, sections, length: 600, language: "en", article: "compost" }).sections;
    expect(result.map((s) => s.length)).toEqual([2, 1]);
    // One paragraph per section: one link each, whatever the length asks for.
    const tight = planLinks({
      links: two,
      sections: sections.map((s) => ({ ...s, paragraphs: 1 })),
      length: 2000,
      language: "en",
      article: "compost",
    }).sections;
    expect(tight.map((s) => s.length)).toEqual([1, 1]);
    // A section that takes no links gets none.
    const none = planLinks({
      links: two,
      sections: [{ query: "compost bin", words: 400, paragraphs: 0 }],
      length: 600,
      language: "en",
      article: "compost",
    });
    expect(none).toEqual({ sections: [[]], unlinked: two.map((l) => ({ url: l.url, reason: "budget" })) });
  });

  it("fills sections with room from pages that rank only for the whole article", () => {
    const result = planLinks({
      links: [link("/soil", "Healthy garden soil")],
      sections: [
        { query: "Introduction", words: 100 },
        { query: "Getting started", words: 200 },
      ],
      length: 300,
      language: "en",
      article: "garden soil",
    }).sections;
    expect(result).toEqual([[], [{ url: "/soil", title: "Healthy garden soil", anchors: expect.any(Array) }]]);
  });

  it("links the same URL once even when the request lists it twice, and one page per 200 words at least once", () => {
    const twice = [link("/a", "Compost bin sizes"), link("/a/", "Compost bin sizes again")];
    const result = planLinks({
      links: twice,
      sections: [
        { query: "compost bin", words: 300 },
        { query: "compost bin", words: 300 },
      ],
      length: 600,
      language: "en",
      article: "compost",
    });
    expect(result.sections.flat()).toHaveLength(1);
    expect(
      planLinks({
        links: twice,
        sections: [{ query: "compost bin", words: 100 }],
        length: 100,
        language: "en",
        article: "compost",
      }).sections.flat(),
    ).toHaveLength(1);
    expect(planLinks({ links: [], sections: SECTIONS, length: 800, language: "en", article: "compost" })).toEqual({
      sections: SECTIONS.map(() => []),
      unlinked: [],
    });
  });
});

describe("anchorPhrases", () => {
  const anchors = (title: string, keywords: string[] = [], over: Partial<Parameters<typeof anchorPhrases>[0]> = {}) =>
    anchorPhrases({ link: link("/x", title, keywords), query: "", language: "en", ...over });

  it("offers the page's keywords, then phrases of 2–6 title words that keep its head noun, then the title whole", () => {
    expect(anchors("How to Choose a Compost Bin", ["compost bin", "tumbler"])).toEqual([
      "compost bin",
      "tumbler",
      "choose a compost bin",
      "how to choose a compost bin",
    ]);
    expect(anchors("Worm composting: a beginner's guide")).toEqual(["worm composting", "beginner's guide"]);
    expect(anchors("Worm composting indoors")).toEqual(["composting indoors", "worm composting indoors"]);
    expect(anchors("SEO Tools for Small Shops")).toEqual(["SEO tools", "SEO tools for small shops"]);
    expect(anchors("Watering the Garden in Summer")).toEqual(["watering the garden", "watering the garden in summer"]);
    expect(anchors("A Guide to the Compost Bin")).toEqual(["compost bin", "guide to the compost bin", "a guide to the compost bin"]);
    // A title of two words is the anchor whole.
    expect(anchors("Garden gloves")).toEqual(["garden gloves"]);
  });

  it("offers a keyword only when it is words joined by spaces: a grammar offering symbols could be answered with a control token", () => {
    expect(anchors("Garden notes", ["kitchen scraps <|im_start|> </s>", "self-watering pots", "grandma's compost", "C++ tips"])).toEqual([
      "self-watering pots",
      "grandma's compost",
      "garden notes",
    ]);
    // Nor a title with symbols between its words: its whole is no anchor, only its plain stretches.
    expect(anchors("Garden <|im_start|> notes")).toEqual([]);
    expect(anchors("Compost </s> bins for small gardens")).toEqual(["bins for small gardens"]);
  });

  it("never offers a lone title word, stop words only, a generic phrase or the article's primary keyword", () => {
    // "choose" alone says nothing of the page; "compost bin" is the article's primary keyword.
    expect(anchors("How to Choose a Compost Bin", ["compost bin"], { primary: "compost bin" })).toEqual([
      "choose a compost bin",
      "how to choose a compost bin",
    ]);
    // A single word is an anchor only as one of the page's keywords.
    expect(anchors("Tumblers", ["tumbler"])).toEqual(["tumbler"]);
    // A run cut in two keeps its end, where an English compound has its head: never "healthy garden".
    expect(anchors("Healthy Garden Soil")).toEqual(["garden soil", "healthy garden soil"]);
    expect(anchors("Click here", ["click here", "read more", "the", "of the"])).toEqual([]);
    // Inside the article's primary keyword ("garden" for "garden day") is the article's, not the page's.
    expect(anchors("Garden", ["garden"], { primary: "garden day" })).toEqual([]);
    // A secondary keyword of the article that is the page's own keyword names the page well.
    expect(anchors("Kitchen scraps to keep out", ["kitchen scraps"], { primary: "compost bin" })[0]).toBe("kitchen scraps");
  });

  it("holds a content word and the head noun of the page's title, or is one of its keywords, 2–6 words, for every page", () => {
    const pages = [
      ...LINKS,
      link("/a", "The Complete Guide to Composting Kitchen Scraps at Home in Winter"),
      link("/b", "Birds That Visit the Garden", ["bird feeder"]),
    ];
    // Each title's head noun, as a reader names the page.
    const heads: Record<string, string> = {
      "/compost-bins": "bin",
      "https://example.org/rain-barrels/": "barrels",
      "/worms": "composting|guide",
      "/leaves": "leaves",
      "/knitting": "patterns",
      "/a": "guide|scraps",
      "/b": "birds",
    };
    for (const page of pages) {
      const words = new Set(`${page.title} ${page.keywords.join(" ")}`.toLowerCase().split(/[^\p{L}\p{N}']+/u));
      for (const phrase of anchorPhrases({ link: page, query: "compost", language: "en", primary: "home composting" })) {
        const own = phrase.toLowerCase().split(/\s+/);
        expect(
          own.some((w) => words.has(w) && !stopWords("en").has(w)),
          phrase,
        ).toBe(true);
        if (!page.keywords.includes(phrase)) {
          expect(own.length, phrase).toBeGreaterThanOrEqual(2);
          if (heads[page.url]) expect(phrase, page.title).toMatch(new RegExp(`\\b(${heads[page.url]})\\b`, "i"));
        }
        expect(own.length, phrase).toBeLessThanOrEqual(6);
        expect(phrase.toLowerCase()).not.toBe("home composting");
      }
    }
  });

  it("never leaves a word out of a phrase's middle, nor offers a phrase after a preposition, never a figure alone", () => {
    expect(anchors("Composting autumn leaves")).toEqual(["autumn leaves", "composting autumn leaves"]);
    expect(anchors("How to Choose a Compost Bin", [], { primary: "compost bin" })).toEqual([
      "choose a compost bin",
      "how to choose a compost bin",
    ]);
    // "18 days" says when, not what: the page is about compost.
    expect(anchors("Compost in 18 Days")).toEqual(["compost in 18 days"]);
    expect(anchors("Birds That Visit the Garden")).toEqual(["birds that visit", "birds that visit the garden"]);
    // German titles often end on a verb: no head rule, but the title whole still is one.
    expect(anchorPhrases({ link: link("/k", "Kompost im Garten anlegen"), query: "", language: "de" })).toEqual([
      "Garten anlegen",
      "Kompost im Garten anlegen",
    ]);
  });

  it("never offers a phrase that holds a banned one, glued letters included", () => {
    const banned = (text: string) => /\bcompost/i.test(text);
    expect(anchors("How to Choose a Compost Bin", ["compost bin", "tumbler"], { banned })).toEqual(["tumbler"]);
    expect(anchors("Composting autumn leaves", [], { banned })).toEqual(["autumn leaves"]);
  });

  it("puts the phrases that share words with the section first, in any word form", () => {
    const page = link("/worms", "Worm composting: a beginner's guide", ["worm farm", "vermicompost"]);
    expect(anchorPhrases({ link: page, query: "Setting up worm farms", language: "en" })[0]).toBe("worm farm");
    expect(anchorPhrases({ link: page, query: "Which guides to read first", language: "en" })[0]).toBe("beginner's guide");
  });

  it("keeps a German title's capitals, which are the nouns' own", () => {
    expect(anchorPhrases({ link: link("/k", "Kompost im Garten anlegen"), query: "", language: "de" })).toEqual([
      "Garten anlegen",
      "Kompost im Garten anlegen",
    ]);
  });
});

describe("LinkSet and sameAddress", () => {
  it('ranks a page relevant whichever way its words are formed: "Compost in 18 days" for "Home composting"', () => {
    const pages = [link("/other", "Knitting"), link("/fast", "Compost in 18 days", ["compost bin"])];
    expect(new LinkSet(pages).for({ query: "Home composting", language: "en", max: 1 }).map((l) => l.url)).toEqual(["/fast"]);
    // A language the stemmer package lacks (Polish) still matches the words a query word begins.
    expect(
      new LinkSet([link("/other", "Robótki"), link("/k", "Kompostownik dla każdego")])
        .for({ query: "kompost", language: "pl", max: 1 })
        .map((l) => l.url),
    ).toEqual(["/k"]);
  });

  it("ranks pages by their title and keywords, and keeps the set's order where nothing matches", () => {
    expect(new LinkSet(LINKS).for({ query: "vermicompost", language: "en", max: 1 }).map((l) => l.url)).toEqual(["/worms"]);
    expect(new LinkSet(LINKS).for({ query: "the of and", language: "en", max: 2 }).map((l) => l.url)).toEqual([
      "/compost-bins",
      "https://example.org/rain-barrels/",
    ]);
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
    expect(set.for({ query: "compost", language: "en", max: 50, own: "https://example.org/compost/" }).map((l) => l.url)).not.toContain(
      "/compost",
    );
    expect(
      new LinkSet(LINKS).for({ query: "compost", language: "en", max: 50, own: "https://example.org/worms/" }).map((l) => l.url),
    ).toEqual(LINKS.map((l) => l.url).filter((u) => u !== "/worms"));
  });

  it("compares addresses without a trailing slash, a site path matching any host's page of that path", () => {
    expect(sameAddress("/worms", "https://example.org/worms/")).toBe(true);
    expect(sameAddress("https://example.org/a", "https://example.org/a/")).toBe(true);
    expect(sameAddress("https://a.example/x", "https://b.example/x")).toBe(false);
    expect(sameAddress("/a?x=1", "/a?x=2")).toBe(false);
  });
});
