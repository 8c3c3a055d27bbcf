import { describe, expect, it } from "vitest";
import { analyse, scoreChecks, type AnalyseInput, type Analysis, type CheckId } from "../../src/article/report/analyse.js";
import { slugify } from "../../src/article/text/slug.js";
import { splitSentences } from "../../src/article/text/text.js";
import { blocksOf } from "../helpers/blocks.js";

// ---------------------------------------------------------------------------------------
// Fixture writer: builds long bodies from distinct, plausible sentences. Slot lengths are
// pairwise coprime, so every slot changes on every sentence: no two sentences are equal
// and consecutive sentences never share a first word.

interface Vocabulary {
  slots: string[][];
  /** The slot a keyword replaces. */
  object: number;
  compose: (words: string[]) => string;
  /** Between sentences of a paragraph. */
  separator: string;
}

const ENGLISH: Vocabulary = {
  slots: [
    ["Often", "Usually", "Sometimes", "Later", "Today", "Meanwhile", "Ideally", "Naturally", "Eventually", "Clearly", "Typically"],
    [
      "home gardeners",
      "city growers",
      "careful beginners",
      "busy families",
      "school groups",
      "allotment keepers",
      "patient growers",
      "weekend helpers",
      "local farmers",
    ],
    ["add", "turn", "check", "water", "cover", "sort", "gather"],
    [
      "dry leaves",
      "coffee grounds",
      "grass clippings",
      "vegetable peelings",
      "shredded cardboard",
      "eggshell pieces",
      "straw bundles",
      "wood chips",
      "apple cores",
      "tea leaves",
      "banana skins",
    ],
    // Places a person writing on compost names: the text is about its subject by meaning, not only by its keywords.
    [
      "near the garden shed",
      "before the first frost",
      "after every heavy rain",
      "in the early morning",
      "with a steady hand",
      "near the rotting heap",
      "inside the warm compost",
      "among the busy earthworms",
      "under a damp sack",
      "on the steaming pile",
    ],
  ],
  object: 3,
  compose: ([opener, ...rest]) => `${opener}, ${rest.join(" ")}.`,
  separator: " ",
};

/** The English vocabulary with openers that link nothing: no sentence holds a transition word. */
const UNLINKED_ENGLISH: Vocabulary = {
  ...ENGLISH,
  slots: [
    ["Often", "Usually", "Sometimes", "Today", "Ideally", "Typically", "Gladly", "Happily", "Quietly", "Carefully", "Wisely"],
    ...ENGLISH.slots.slice(1),
  ],
};

const GERMAN: Vocabulary = {
  slots: [
    ["Oft", "Meistens", "Manchmal", "Später", "Heute", "Inzwischen", "Idealerweise", "Natürlich", "Schließlich", "Übrigens", "Gewöhnlich"],
    ["prüfen", "sammeln", "mischen", "wässern", "bedecken", "sortieren", "wenden", "lockern", "holen"],
    [
      "fleißige Gärtner",
      "erfahrene Gärtnerinnen",
      "neugierige Anfänger",
      "müde Nachbarn",
      "kluge Kinder",
      "ältere Paare",
      "jüngere Familien",
    ],
    [
      "trockenes Laub",
      "frischen Kaffeesatz",
      "grüne Grasreste",
      "alte Gemüseschalen",
      "feuchte Pappe",
      "zerdrückte Eierschalen",
      "lockeres Stroh",
      "grobe Holzspäne",
    ],
    [
      "hinter dem alten Gartenhaus",
      "vor dem ersten Frost",
      "nach jedem starken Regen",
      "am frühen kalten Morgen",
      "mit ruhiger sicherer Hand",
    ],
  ],
  object: 3,
  compose: (words) => `${words.join(" ")}.`,
  separator: " ",
};

const JAPANESE: Vocabulary = {
  slots: [
    [
      "春には",
      "夏には",
      "秋には",
      "冬には",
      "朝には",
      "夕方には",
      "週末には",
      "雨の日には",
      "晴れた日には",
      "収穫の後には",
      "植え付けの前には",
    ],
    [
      "家庭菜園の初心者",
      "近所の農家",
      "学校の子どもたち",
      "ベランダの園芸家",
      "週末の手伝い",
      "熟練の庭師",
      "市民農園の利用者",
      "忙しい家族",
      "地域のボランティア",
    ],
    ["落ち葉", "コーヒーかす", "刈った芝", "野菜くず", "細かい段ボール", "卵の殻", "わら", "木のチップ"],
    ["丁寧に混ぜます", "よく確認します", "少しずつ加えます", "しっかり覆います", "静かに運びます", "毎回量ります", "きちんと集めます"],
  ],
  object: 2,
  compose: ([opener, subject, object, verb]) => `${opener}、${subject}が${object}を${verb}。`,
  separator: "",
};

/** A sentence source for one article: numbering runs across the article, so sentences stay distinct. */
function writer(vocabulary: Vocabulary) {
  let next = 0;
  const sentence = (object?: string) => {
    const n = next++;
    const words = vocabulary.slots.map((options) => options[n % options.length]!);
    if (object !== undefined) words[vocabulary.object] = object;
    return vocabulary.compose(words);
  };
  /** `n` sentences; the k-th carries objects[k] (a keyword) when given. */
  const sentences = (n: number, ...objects: (string | undefined)[]) => Array.from({ length: n }, (_, k) => sentence(objects[k]));
  return {
    sentences,
    para: (n: number, ...objects: (string | undefined)[]) => sentences(n, ...objects).join(vocabulary.separator),
  };
}

/** Turn a 10-word English sentence into a 21-word one. */
const lengthen = (sentence: string) => sentence.replace(/\.$/, ", while the soil below stays loose and dark for many weeks.");

const markdown = (parts: Record<string, string>) => Object.values(parts).join("\n\n");

/** The analyser's input from Markdown, read by remark (test/helpers/blocks.ts), not by the engine's document. */
function body(source: string, language = "en"): Pick<AnalyseInput, "blocks" | "hasTitle"> {
  const { blocks, hasTitle } = blocksOf(source, language);
  return { blocks, hasTitle };
}

const failing = (a: Analysis) => a.checks.filter((c) => c.passed === false).map((c) => c.id);
/** The checks that do not apply, the voice checks aside: without a voice none applies (test/unit/voice.test.ts measures them). */
const notApplicable = (a: Analysis) => a.checks.filter((c) => c.passed === null && !c.id.startsWith("voice-")).map((c) => c.id);
const check = (a: Analysis, id: CheckId) => a.checks.find((c) => c.id === id)!;

// ---------------------------------------------------------------------------------------
// Good articles

const PRIMARY = "compost bins";
const TITLE = "Compost bins: a practical guide for small gardens";
const META =
  "Compost bins turn kitchen scraps into rich soil. Learn how to choose, place and fill compost bins so a small garden gets free fertiliser.";

/** 585 body words: 57 ten-word sentences and 15 heading words; "compost bins" 7 times. */
function sectionParts(w = writer(ENGLISH)) {
  return {
    title: `# ${TITLE}`,
    intro: w.para(5, PRIMARY),
    whyHeading: "## Why compost bins matter",
    why: w.para(10, PRIMARY),
    whyMore: w.para(8, "kitchen scraps"),
    siteHeading: "## Choosing a site",
    site: w.para(10, PRIMARY),
    shadeHeading: "### Shade and drainage",
    shade: w.para(8),
    fillHeading: "## Filling compost bins well",
    fill: w.para(10, PRIMARY, "worm castings"),
    conclusionHeading: "## Conclusion",
    conclusion: w.para(6, PRIMARY),
  };
}

function sectionsInput(parts: Record<string, string> = sectionParts(), overrides: Partial<AnalyseInput> = {}): AnalyseInput {
  return {
    ...body(markdown(parts)),
    title: TITLE,
    metaDescription: META,
    slug: "compost-bins-small-gardens",
    keywords: [PRIMARY, "kitchen scraps", "worm castings"],
    about: ["Home composting in a small garden"],
    language: "en",
    headingTags: true,
    preset: "sections",
    targetLength: 600,
    // Phrases stories260K writes all the time, none of them in this article.
    style: { avoid: ["Lily", "so happy"], cliches: true },
    ...overrides,
  };
}

/** A title and `count` paragraphs: 60 + 80 × (count − 1) words. */
function paragraphParts(count = 5, w = writer(ENGLISH)): Record<string, string> {
  const rest = Array.from({ length: count - 1 }, (_, i) => [`p${i}`, w.para(8, i === 0 ? "kitchen scraps" : PRIMARY)]);
  return { title: "# Compost bins for beginners", intro: w.para(6, PRIMARY), ...Object.fromEntries(rest) };
}

function paragraphsInput(parts = paragraphParts(), overrides: Partial<AnalyseInput> = {}): AnalyseInput {
  return sectionsInput(parts, {
    title: "Compost bins for beginners",
    metaDescription:
      "Compost bins for beginners: how to start, what to add and what to leave out, so kitchen scraps become dark, crumbly soil within a season.",
    slug: "compost-bins-for-beginners",
    keywords: [PRIMARY, "kitchen scraps"],
    preset: "paragraphs",
    targetLength: 380,
    ...overrides,
  });
}

/** The paragraphs article as written with heading tags off: no heading nodes at all. */
function plainInput(): AnalyseInput {
  const { title: _, ...body } = paragraphParts();
  return paragraphsInput(body, { headingTags: false });
}

function germanInput(): AnalyseInput {
  const w = writer(GERMAN);
  const parts = {
    title: "# Gründüngung im Gemüsegarten: so gelingt es",
    intro: w.para(5, "Gründüngung"),
    whyHeading: "## Warum GRÜNDÜNGUNG hilft",
    why: w.para(10, "Gründüngung"),
    life: w.para(8, "Bodenleben"),
    timeHeading: "## Der richtige Zeitpunkt",
    time: w.para(10, "Gründüngung"),
    endHeading: "## Fazit",
    end: w.para(6, "Gründüngung"),
  };
  return {
    ...body(markdown(parts), "de"),
    title: "Gründüngung im Gemüsegarten: so gelingt es",
    metaDescription:
      "Gründüngung verbessert schwere Böden, schützt vor Erosion und fördert das Bodenleben. So wählen Sie die passenden Pflanzen und den richtigen Zeitpunkt.",
    slug: slugify("Gründüngung im Gemüsegarten"),
    keywords: ["gründüngung", "bodenleben"],
    language: "de",
    headingTags: true,
    preset: "sections",
    targetLength: 400,
  };
}

function japaneseMarkdown(): string {
  const w = writer(JAPANESE);
  const parts = {
    title: "# 堆肥箱の使い方：小さな庭のための実践ガイド",
    intro: w.para(4, "堆肥箱"),
    whyHeading: "## 堆肥箱を選ぶ理由",
    why: w.para(7, "堆肥箱"),
    placeHeading: "## 置き場所の選び方",
    place: w.para(7),
    careHeading: "## 堆肥箱の手入れ",
    care: w.para(7, "堆肥箱", "生ごみ"),
    endHeading: "## まとめ",
    end: w.para(4, "堆肥箱"),
  };
  return markdown(parts);
}

function japaneseInput(): AnalyseInput {
  return {
    ...body(japaneseMarkdown(), "ja"),
    title: "堆肥箱の使い方：小さな庭のための実践ガイド",
    metaDescription:
      "堆肥箱を使えば、台所の生ごみや落ち葉を栄養たっぷりの土に変えられます。この記事では、小さな庭やベランダでも無理なく続けられる堆肥箱の選び方、置き場所、材料の混ぜ方、季節ごとの手入れのコツを順番に分かりやすく解説します。初めての方でも今日から始められるように、よくある失敗とその対策も紹介します。",
    // Japanese does not transliterate, so slugify falls back to a stable hash of the keyword.
    slug: slugify("堆肥箱"),
    keywords: ["堆肥箱", "生ごみ"],
    language: "ja",
    headingTags: true,
    preset: "sections",
    targetLength: 470,
  };
}

describe("analyse: good articles", () => {
  it("passes every check of a sections article and scores 100", () => {
    const a = analyse(sectionsInput());
    expect(failing(a)).toEqual([]);
    expect(notApplicable(a)).toEqual(["no-headings", "promised-count", "outline", "sources-cited", "internal-links"]);
    expect(a.score).toBe(100);
    expect(a.wordCount).toBe(585);
    expect(a.readingTimeMinutes).toBe(3);
    expect(a.keywordDensity).toEqual({ "compost bins": 1.2, "kitchen scraps": 0.17, "worm castings": 0.17 });
    expect(check(a, "keyword-density").message).toBe(
      "Keyword density is 1.2% (“compost bins” 7 times in 585 words, word forms counted, function words between the keyword's words ignored; target 0.5–2.5%).",
    );
  });

  it("passes a paragraphs article, where subheading checks do not apply", () => {
    const a = analyse(paragraphsInput());
    expect(failing(a)).toEqual([]);
    expect(notApplicable(a)).toEqual([
      "keyword-in-subheadings",
      "no-headings",
      "distinct-headings",
      "subheading-distribution",
      "promised-count",
      "heading-openings",
      "outline",
      "sources-cited",
      "internal-links",
    ]);
    expect(a.score).toBe(100);
    expect(a.wordCount).toBe(380);
  });

  it("passes an article written with heading tags off, where heading checks do not apply", () => {
    const a = analyse(plainInput());
    expect(failing(a)).toEqual([]);
    expect(notApplicable(a)).toEqual([
      "keyword-in-subheadings",
      "single-h1",
      "heading-hierarchy",
      "distinct-headings",
      "subheading-distribution",
      "promised-count",
      "heading-openings",
      "outline",
      "sources-cited",
      "internal-links",
    ]);
    expect(check(a, "no-headings").passed).toBe(true);
    expect(a.score).toBe(100);
  });

  it("matches German keywords with umlauts case-insensitively", () => {
    const a = analyse(germanInput());
    // Its sentences name materials and its one keyword 5 times: most sections never say what it is about.
    expect(failing(a)).toEqual(["on-topic"]);
    expect(a.score).toBe(49);
    expect(a.wordCount).toBe(392);
    // "Gründüngung" 4 times in prose and once as "GRÜNDÜNGUNG" in a subheading.
    expect(check(a, "keyword-density").message).toContain("5 times in 392 words");
    expect(check(a, "keyword-in-subheadings").message).toContain("1 of 3 subheadings");
  });

  it("counts Japanese words by segmentation, not by spaces", () => {
    const a = analyse(japaneseInput());
    // Four slots, particles counted as words: most runs of three words come back.
    // Its filler says nothing of its subject: without vectors for Japanese, its keywords are its only words of it.
    expect(failing(a)).toEqual(["on-topic", "no-loops"]);
    expect(a.score).toBe(49);
    const spaces = japaneseMarkdown().split(" ").length - 1;
    expect(a.wordCount).toBeGreaterThan(spaces * 20);
    expect(a.wordCount).toBeGreaterThan(300);
  });

  it("counts list items, subheadings and FAQ answers but not the H1", () => {
    const a = analyse({
      ...sectionsInput(),
      ...body(
        [
          "# Title words here",
          "One two three.",
          "- Four five.\n- Six seven.",
          "## FAQ",
          "### Is eight nine?",
          "Ten eleven  \ntwelve thirteen.",
          "```\nnot prose at all\n```",
        ].join("\n\n"),
      ),
    });
    expect(a.wordCount).toBe(3 + 2 + 2 + 1 + 3 + 4);
    expect(a.readingTimeMinutes).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------
// Bad articles: each breaks exactly one check, whose message carries the measured figure.

interface BadCase {
  id: CheckId;
  input: () => AnalyseInput;
  figure: string;
  /** Checks that cannot pass while this one fails (text-length implies length-target). */
  alsoFailing?: CheckId[];
}

/** Edit the good sections article with the same writer, so new sentences stay distinct. */
function editSections(
  edit: (parts: ReturnType<typeof sectionParts>, w: ReturnType<typeof writer>) => void,
  overrides: Partial<AnalyseInput> = {},
) {
  return () => {
    const w = writer(ENGLISH);
    const parts = sectionParts(w);
    edit(parts, w);
    return sectionsInput(parts, overrides);
  };
}

const badCases: BadCase[] = [
  {
    id: "on-topic",
    input: () => sectionsInput(undefined, { keywords: [], about: ["Tax returns for freelancers"] }),
    figure: "not about it: the introduction (",
  },
  {
    id: "no-loops",
    input: editSections((parts) => {
      parts.site = [parts.site, parts.site, parts.site, parts.site].join("\n\n");
    }),
    figure: "most repeated: “",
    // A paragraph said 4 times repeats whole sentences and makes the text long.
    alsoFailing: ["duplicate-sentences", "length-target", "subheading-distribution"],
  },
  {
    id: "keyword-in-title",
    input: () => sectionsInput(undefined, { title: "A practical guide to garden waste for small plots" }),
    figure: "appears 0 times in the title",
  },
  {
    id: "keyword-in-introduction",
    input: editSections((parts, w) => {
      parts.intro = w.para(5, undefined, undefined, PRIMARY);
    }),
    figure: "appears 0 times in the first two sentences",
  },
  {
    id: "keyword-in-subheadings",
    input: editSections((parts) => {
      parts.whyHeading = "## Why they matter";
      parts.fillHeading = "## Filling them well";
    }),
    figure: "0 of 5 subheadings (0%",
  },
  {
    id: "keyword-in-meta-description",
    input: () =>
      sectionsInput(undefined, {
        metaDescription:
          "Learn how to choose, place and fill a home composter so a small garden turns kitchen scraps into rich, free fertiliser all year round.",
      }),
    figure: "appears 0 times in the meta description",
  },
  {
    id: "keyword-in-slug",
    // "compost-binsx" holds the keyword slug only across a word boundary.
    input: () => sectionsInput(undefined, { slug: "my-compost-binsx-guide" }),
    figure: "“my-compost-binsx-guide” does not contain the keyword slug “compost-bins”",
  },
  {
    id: "keyword-density",
    input: editSections((parts, w) => {
      parts.site = w.para(10, ...Array<string>(10).fill(PRIMARY));
      parts.shade = w.para(8, ...Array<string>(8).fill(PRIMARY));
    }),
    figure: "Keyword density is 4.1% (“compost bins” 24 times in 585 words",
  },
  {
    id: "secondary-keywords",
    input: () => sectionsInput(undefined, { keywords: [PRIMARY, "kitchen scraps", "worm castings", "leaf mould"] }),
    figure: "2 of 3; missing: “leaf mould”",
  },
  {
    id: "keyword-once-per-sentence",
    input: editSections((parts) => {
      parts.conclusion += " Small compost bins often beat large compost bins in tight corners.";
    }),
    figure: "Found 1 sentence holding the same keyword twice (first: “Small compost bins often beat large compost bins…”)",
  },
  {
    id: "meta-description-length",
    input: () => sectionsInput(undefined, { metaDescription: "Compost bins turn kitchen scraps into rich soil." }),
    figure: "48 characters",
  },
  {
    id: "title-length",
    input: () => sectionsInput(undefined, { title: "Compost bins: a practical and thorough guide for small gardens everywhere" }),
    figure: "73 characters",
  },
  {
    // 90 % of the request is also the floor of length-target, so text-length never fails alone.
    id: "text-length",
    input: () => paragraphsInput(paragraphParts(3), { targetLength: 400 }),
    figure: "220 words (target at least 300)",
    alsoFailing: ["length-target"],
  },
  {
    id: "length-target",
    input: () => sectionsInput(undefined, { targetLength: 1000 }),
    figure: "585 words, 41.5% under the 1000 requested",
  },
  {
    id: "single-h1",
    input: editSections((parts) => {
      parts.conclusionHeading = "# Conclusion";
    }),
    figure: "2 H1 headings",
  },
  {
    id: "no-headings",
    input: () => paragraphsInput(paragraphParts(), { headingTags: false }),
    figure: "1 heading (target 0",
  },
  {
    id: "promised-count",
    input: () => sectionsInput(undefined, { title: "Compost bins: seven tips for small gardens" }),
    figure: "promises 7; the article has no numbered items and 4 H2 sections",
  },
  {
    id: "heading-endings",
    input: () => sectionsInput(undefined, { title: "Compost bins: a practical guide for small gardens and" }),
    figure: "ending on “and”",
  },
  {
    id: "heading-openings",
    input: editSections((parts) => {
      parts.siteHeading = "## Choosing a site";
      parts.shadeHeading = "### Choosing shade and drainage";
      parts.fillHeading = "## Choose how to fill compost bins well";
    }),
    figure:
      "3 of 5 subheadings open alike (“Choosing a site”, “Choosing shade and drainage”, “Choose how to fill compost bins well”; target at most 2)",
  },
  {
    id: "outline",
    input: () =>
      sectionsInput(undefined, {
        outline: { introduction: 60, headings: [{ level: 2, text: "A heading the article lacks", words: 200 }] },
      }),
    figure: "the outline has “H2 A heading the article lacks”",
  },
  {
    id: "sources-cited",
    input: () => sectionsInput(undefined, { grounding: { sources: 2, cited: 0, links: 0, linksWanted: 0, linksPlaced: 0, unlinked: [] } }),
    figure: "0 sources of 2 cited",
  },
  {
    id: "internal-links",
    input: () =>
      sectionsInput(undefined, {
        grounding: {
          sources: 0,
          cited: 0,
          links: 5,
          linksWanted: 4,
          linksPlaced: 1,
          unlinked: [
            { url: "/a", reason: "not-written" },
            { url: "/b", reason: "no-anchor" },
          ],
        },
      }),
    figure: "1 link placed of 4 wanted (target: at least half). Not linked: /b (no descriptive anchor",
  },
  {
    id: "heading-hierarchy",
    input: editSections((parts) => {
      parts.shadeHeading = "#### Shade and drainage";
    }),
    figure: "H4 “Shade and drainage” after H2",
  },
  {
    id: "distinct-headings",
    // Compared without case or punctuation, like sentences.
    input: editSections((parts) => {
      parts.shadeHeading = "### Choosing a SITE!";
    }),
    figure: "Found 1 subheading repeating an earlier one (first: “Choosing a SITE!”)",
  },
  {
    id: "subheading-distribution",
    // The "Choosing a site" section runs 100 + 140 + 80 words without a subheading.
    input: editSections(
      (parts, w) => {
        parts.shadeHeading = w.para(14);
      },
      { targetLength: 700 },
    ),
    figure: "320 words (target at most 300)",
  },
  {
    id: "paragraph-length",
    input: editSections((parts, w) => {
      parts.site = w.para(16, PRIMARY);
    }),
    figure: "160 words (target at most 150)",
  },
  {
    id: "sentence-length",
    input: editSections(
      (parts, w) => {
        parts.whyMore = w.sentences(7, "kitchen scraps").map(lengthen).join(" ");
        parts.shade = w.sentences(7).map(lengthen).join(" ");
        parts.conclusion = w.sentences(6, PRIMARY).map(lengthen).join(" ");
      },
      { targetLength: 800 },
    ),
    // One 11-word tail on 20 sentences is a loop too.
    alsoFailing: ["no-loops"],
    figure: "36.4% of sentences (20 of 55)",
  },
  {
    id: "consecutive-sentence-starts",
    input: editSections((parts, w) => {
      parts.shade = [
        w.para(5),
        "Worms break down soft scraps within a few warm weeks.",
        "Worms avoid citrus peel and strong onion skins.",
        "Worms multiply quickly when their bedding stays damp.",
      ].join(" ");
    }),
    figure: "is 3 (“worms”)",
  },
  {
    id: "duplicate-sentences",
    input: editSections((parts) => {
      const [first] = splitSentences(parts.intro, "en");
      // The repeat differs in case and spacing only.
      parts.conclusion += ` ${first!.toUpperCase().replaceAll(" ", "  ")}`;
    }),
    figure: "Found 1 sentence repeating an earlier one",
  },
  {
    // The English article asked for in German.
    id: "language",
    input: () => sectionsInput(undefined, { language: "de" }),
    figure: "The body reads as English (en) (franc: eng), not German (de) as requested",
    // Read as German there are no word vectors: lexically, words of its topic ("garden") occur outside its keyword phrases.
  },
  {
    id: "keyword-openings",
    // Three of the five sections open with the keyword: a third at most is allowed.
    input: editSections((parts, w) => {
      parts.why = `Compost bins sit best on bare soil in sunny corners. ${w.para(9)}`;
      parts.site = `Compost bins need a shady spot away from the house. ${w.para(9)}`;
      parts.fill = `Compost bins fill quickly when layers stay thin and moist. ${w.para(9, "worm castings")}`;
    }),
    figure: "3 of 6 sentences holding a keyword open with one (50%; target at most 40%), and 3 of 5 sections open with one",
  },
  {
    id: "transition-words",
    input: () => sectionsInput(sectionParts(writer(UNLINKED_ENGLISH))),
    figure: "0% of sentences (0 of 57) hold a transition word (target at least 30%)",
  },
  {
    id: "passive-voice",
    input: editSections((parts) => {
      parts.shade = [
        "Later, the wet leaves were gathered by careful weekend helpers.",
        "Meanwhile, fresh grass clippings are spread thinly across the pile.",
        "Often, cardboard scraps are torn into strips by busy children.",
        "Sometimes, the whole heap is turned twice in one week.",
        "Usually, coffee grounds are collected from a nearby cafe counter.",
        "Ideally, the lid is closed before heavy storms reach town.",
        "Eventually, dark crumbly soil is found at the very bottom.",
        "Typically, finished compost is sifted through a wide wire mesh.",
      ].join(" ");
    }),
    figure: "(8 of 57) are in the passive voice (target at most 10%; first: “Later, the wet leaves were gathered by careful…”)",
  },
  {
    id: "cliches",
    input: editSections((parts) => {
      parts.conclusion += " Gardeners delve into the tapestry of rich soil.";
    }),
    figure: "Found 2 AI clichés: “delve” (1), “tapestry” (1).",
  },
  {
    id: "avoid",
    input: () => sectionsInput(undefined, { style: { avoid: ["Garden shed", "so happy"] } }),
    figure: "banned phrases: “Garden shed” (",
  },
  {
    id: "unsupported-figures",
    input: editSections((parts) => {
      parts.conclusion += " About 42% of gardeners have composted since 2019.";
    }),
    figure: "Found 2 figures that the request does not give (there are no sources): “42%”, “2019”.",
  },
];

/** More ways to break one check. */
const moreBadCases: BadCase[] = [
  {
    id: "duplicate-sentences",
    // Without case or punctuation, the two sentences are the same.
    input: editSections((parts) => {
      parts.shade += " Once upon a time there was a cat.";
      parts.conclusion += " Once upon a time, there was a cat";
    }),
    figure: "Found 1 sentence repeating an earlier one (first: “Once upon a time, there was a cat”)",
  },
  {
    id: "single-h1",
    // One H1, but not the title at the top.
    input: () => {
      const { title: _, ...rest } = sectionParts();
      return sectionsInput({ ...rest, conclusionHeading: "# Conclusion" });
    },
    figure: "The H1 is not the title at the top of the article.",
  },
  {
    id: "single-h1",
    input: () => {
      const { title: _, ...rest } = sectionParts();
      return sectionsInput(rest);
    },
    figure: "0 H1 headings",
  },
  {
    id: "keyword-in-introduction",
    // The body opens with a subheading: there is no introduction to hold the keyword.
    input: editSections(
      (parts) => {
        parts.intro = "";
      },
      { targetLength: 550 },
    ),
    figure: "The article has no introduction before its first subheading.",
  },
];

describe("analyse: bad articles fail exactly one check", () => {
  it("has a bad case for every check", () => {
    // The voice checks' bad cases are articles of another house's voice (test/unit/voice.test.ts).
    const ids = analyse(sectionsInput())
      .checks.map((c) => c.id)
      .filter((id) => !id.startsWith("voice-"));
    expect(badCases.map((c) => c.id).sort()).toEqual([...ids].sort());
  });

  it.each(badCases)("$id", ({ id, input, figure, alsoFailing = [] }) => {
    const a = analyse(input());
    expect(failing(a).sort()).toEqual([id, ...alsoFailing].sort());
    expect(check(a, id).message).toContain(figure);
    expect(a.score).toBeLessThan(100);
  });

  it.each(moreBadCases)("$id: $figure", ({ id, input, figure }) => {
    const a = analyse(input());
    expect(failing(a)).toEqual([id]);
    expect(check(a, id).message).toContain(figure);
  });
});

describe("analyse: length is measured against the request", () => {
  it("does not fail a short request for being under 300 words", () => {
    // 220 words for 220 requested: the text-length floor is 90 % of the request, 198.
    const a = analyse(paragraphsInput(paragraphParts(3), { targetLength: 220 }));
    expect(check(a, "text-length")).toMatchObject({ passed: true, message: "The body has 220 words (target at least 198)." });
    expect(check(a, "length-target").passed).toBe(true);
  });

  it("asks at most 300 words of a long request", () => {
    const a = analyse(paragraphsInput(paragraphParts(5), { targetLength: 5000 }));
    expect(check(a, "text-length").message).toBe("The body has 380 words (target at least 300).");
    expect(check(a, "text-length").passed).toBe(true);
    expect(check(a, "length-target").passed).toBe(false);
  });

  it("fails 10 % over the request, passes within it", () => {
    expect(check(analyse(paragraphsInput(paragraphParts(5), { targetLength: 350 })), "length-target").passed).toBe(true);
    expect(check(analyse(paragraphsInput(paragraphParts(5), { targetLength: 340 })), "length-target")).toMatchObject({
      passed: false,
      message: "The body has 380 words, 11.8% over the 340 requested (target ±10%).",
    });
  });
});

// ---------------------------------------------------------------------------------------

describe("analyse: checks that do not apply", () => {
  const KEYWORD_CHECKS = [
    "keyword-in-title",
    "keyword-in-introduction",
    "keyword-in-subheadings",
    "keyword-in-meta-description",
    "keyword-in-slug",
    "keyword-density",
    "secondary-keywords",
    "keyword-once-per-sentence",
    "keyword-openings",
  ];

  it("skips every keyword check without keywords", () => {
    const a = analyse(sectionsInput(undefined, { keywords: [], about: [] }));
    expect(notApplicable(a)).toEqual([
      "on-topic",
      ...KEYWORD_CHECKS,
      "no-headings",
      "promised-count",
      "outline",
      "sources-cited",
      "internal-links",
    ]);
    expect(failing(a)).toEqual([]);
    expect(a.keywordDensity).toEqual({});
    expect(a.score).toBe(100);
  });

  it("skips secondary keywords when there is only a primary one", () => {
    const a = analyse(sectionsInput(undefined, { keywords: [PRIMARY] }));
    expect(check(a, "secondary-keywords").passed).toBeNull();
  });

  it("skips keyword-in-subheadings when there are no H2 or H3", () => {
    const a = analyse(paragraphsInput(undefined, { preset: "sections" }));
    expect(check(a, "keyword-in-subheadings").passed).toBeNull();
  });

  it("skips subheading distribution in the paragraphs preset, however long the text", () => {
    const a = analyse(paragraphsInput(paragraphParts(8), { targetLength: 620 }));
    expect(check(a, "subheading-distribution").passed).toBeNull();
  });
});

describe("scoreChecks", () => {
  it("weighs passed checks against applicable ones", () => {
    expect(
      scoreChecks([
        { id: "keyword-in-title", passed: false },
        { id: "title-length", passed: true },
        { id: "no-headings", passed: null },
      ]),
    ).toBe(40);
  });

  it("is 100 when nothing applies", () => {
    expect(scoreChecks([])).toBe(100);
    expect(scoreChecks([{ id: "single-h1", passed: null }])).toBe(100);
  });
});
