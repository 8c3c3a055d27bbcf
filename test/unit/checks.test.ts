import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { analyse, scoreChecks, type AnalyseInput, type CheckId } from "../../src/article/report/analyse.js";
import { hasTransition, isPassive } from "../../src/article/report/checks/english.js";
import { figureKey, figuresIn } from "../../src/article/text/figures.js";
import { CHECK_IDS, CHECK_LABELS } from "../../src/contract/checks.js";
import { analyseInput } from "../helpers/blocks.js";

const input = analyseInput;

const check = (i: AnalyseInput, id: CheckId) => analyse(i).checks.find((c) => c.id === id)!;

const ENGLISH =
  "Compost turns kitchen scraps into good soil for the garden. You need a bin, some dry leaves and a little patience. " +
  "Mix green and brown material, and keep the heap as damp as a wrung-out sponge. After a few months the soil is dark and crumbly.";
const GERMAN =
  "Kompostieren ist ein einfacher Weg, Küchenabfälle in gute Erde zu verwandeln. Sie brauchen einen Behälter, etwas trockenes Laub und viel Geduld. " +
  "Mischen Sie grünes und braunes Material und halten Sie den Haufen feucht wie einen ausgedrückten Schwamm. Nach einigen Monaten haben Sie dunkle, krümelige Erde.";
const NORWEGIAN =
  "Kompost er en enkel måte å gjøre kjøkkenavfall om til god jord. Du trenger en beholder, litt tørt løv og mye tålmodighet. " +
  "Bland grønt og brunt materiale, og hold haugen fuktig som en utvridd svamp. Etter noen måneder har du mørk og smuldrete jord som plantene dine elsker.";
const JAPANESE =
  "堆肥箱を使えば、台所の生ごみや落ち葉を栄養たっぷりの土に変えられます。小さな庭やベランダでも無理なく続けられます。" +
  "材料を混ぜて、湿り気を保ち、週に一度かき混ぜましょう。数か月後には、植物が喜ぶ黒くてふかふかの土ができあがります。";

describe("the registry", () => {
  it("names every check in words", () => {
    for (const id of CHECK_IDS) expect(CHECK_LABELS[id], id).toMatch(/^[A-Z][^-]*[a-z]/);
    expect(new Set(Object.values(CHECK_LABELS)).size).toBe(CHECK_IDS.length);
  });

  it("is the report table of docs/guarantees.md, row by row", () => {
    const page = readFileSync(new URL("../../docs/guarantees.md", import.meta.url), "utf8");
    const section = page.slice(page.indexOf("## The SEO report"), page.indexOf("## Built-in clichés"));
    const rows = [...section.matchAll(/^\| `([a-z0-9-]+)` \| ([^|]+) \|/gmu)].map((m) => [m[1], m[2]!.trim()]);
    expect(rows).toEqual(CHECK_IDS.map((id) => [id, CHECK_LABELS[id]]));
  });

  it("answers every check with its id and label, in registry order", () => {
    const checks = analyse(input(ENGLISH)).checks;
    expect(checks.map((c) => c.id)).toEqual(CHECK_IDS);
    for (const c of checks) expect(c.label).toBe(CHECK_LABELS[c.id]);
  });
});

describe("language", () => {
  it.each([
    ["en", ENGLISH, "English (en)"],
    ["de", GERMAN, "German (de)"],
    ["no", NORWEGIAN, "Norwegian (no)"],
    ["ja", JAPANESE, "Japanese (ja)"],
  ])("passes %s text asked for in %s", (language, text, name) => {
    const c = check(input(text, { language }), "language");
    expect(c).toMatchObject({ passed: true, message: expect.stringContaining(`reads as ${name}, as requested`) });
  });

  it("fails English text asked for in German, and caps the score below 80", () => {
    const i = input(ENGLISH, { language: "de" });
    expect(check(i, "language")).toMatchObject({
      passed: false,
      message: "The body reads as English (en) (franc: eng), not German (de) as requested.",
    });
    expect(analyse(i).score).toBeLessThan(80);
  });

  it("does not apply to text too short to judge", () => {
    expect(check(input("Compost is good. Worms like it."), "language")).toMatchObject({
      passed: null,
      message: "The body has too few words to tell its language (6; at least 30).",
    });
  });

  it("does not apply to a language franc cannot recognise", () => {
    expect(check(input(ENGLISH, { language: "kl" }), "language")).toMatchObject({
      passed: null,
      message: "The language detector (franc) cannot recognise Kalaallisut (kl), so this check does not apply.",
    });
  });

  it("reads the whole body, not only its first 2,048 characters", () => {
    // An English opening of about 2,400 characters, then twice as much German.
    const text = [ENGLISH.repeat(10), GERMAN.repeat(8), GERMAN.repeat(8)].join("\n\n");
    expect(check(input(text, { language: "de" }), "language").passed).toBe(true);
  });
});

describe("keyword-openings", () => {
  const keywords = ["compost bins", "kitchen scraps"];

  it("does not count the introduction's first sentence", () => {
    const c = check(
      input(
        [
          "Compost bins save money.",
          "Most gardens have room for compost bins somewhere.",
          "## Why",
          "People love kitchen scraps in their compost bins.",
        ].join("\n\n"),
        { keywords },
      ),
      "keyword-openings",
    );
    expect(c.passed).toBe(true);
    expect(c.message).toContain(
      "0 of 2 sentences holding a keyword open with one (0%; target at most 40%), and 0 of 1 section open with one (target at most a third)",
    );
  });

  it("allows 40% of keyword-bearing sentences to open with one, and no more", () => {
    const opening = (n: number) =>
      [
        "Gardens need care.",
        ...Array.from({ length: n }, (_, i) => `Kitchen scraps feed worm number ${["one", "two", "three"][i]}.`),
        ...Array.from({ length: 5 - n }, (_, i) => `Worms ${["eat", "like", "want", "need", "love"][i]} kitchen scraps.`),
      ].join(" ");
    const plain = { keywords, headingTags: false };
    expect(check(input(opening(2), plain), "keyword-openings")).toMatchObject({ passed: true });
    const c = check(input(opening(3), plain), "keyword-openings");
    expect(c.passed).toBe(false);
    expect(c.message).toContain(
      "3 of 5 sentences holding a keyword open with one (60%; target at most 40%), and there are no sections to open",
    );
    expect(c.message).toContain("(first: “Kitchen scraps feed worm number one.”)");
  });

  it("allows a third of the sections to open with a keyword, matched case-insensitively", () => {
    const doc = (openers: string[]) =>
      [
        "Gardens need care and some patience.",
        ...openers.flatMap((o, i) => [`## Part ${"ABC"[i]}`, `${o} Worms like kitchen scraps.`]),
      ].join("\n\n");
    const one = doc(["COMPOST BINS need air.", "Soil needs air.", "Roots need air."]);
    expect(check(input(one, { keywords }), "keyword-openings")).toMatchObject({ passed: true });
    const two = doc(["COMPOST BINS need air.", "Kitchen scraps rot.", "Roots need air."]);
    expect(check(input(two, { keywords }), "keyword-openings").message).toContain("2 of 3 sections open with one (target at most a third)");
  });

  it("does not apply without keywords", () => {
    expect(check(input(ENGLISH), "keyword-openings").passed).toBeNull();
  });
});

describe("keyword-in-introduction", () => {
  it("looks in the introduction's first two sentences", () => {
    const keywords = ["compost bins"];
    const doc = (intro: string) => input([intro, "## More", "Compost bins again."].join("\n\n"), { keywords });
    expect(check(doc("Gardens need care. Compost bins help."), "keyword-in-introduction").passed).toBe(true);
    expect(check(doc("Gardens need care. Soil helps. Compost bins help."), "keyword-in-introduction")).toMatchObject({
      passed: false,
      message:
        "The primary keyword “compost bins” appears 0 times in the first two sentences of the introduction (word forms counted, function words between the keyword's words ignored).",
    });
  });
});

describe("cliches", () => {
  it("finds the built-in clichés everywhere a reader looks, with either apostrophe", () => {
    const doc = [
      "It’s important to note that worms work hard.",
      "## A tapestry of soil",
      "Gardeners delve into compost. They delve deeper.",
    ].join("\n\n");
    const c = check(input(doc, { metaDescription: "A game-changer for gardens." }), "cliches");
    expect(c.passed).toBe(false);
    expect(c.message).toBe(
      "Found 5 AI clichés: “delve” (2), “tapestry” (1), “game-changer” (1), “it's important to note” (1). Target: none.",
    );
  });

  it("matches from a word's start, its last word also with letters glued on, each occurrence once", () => {
    expect(check(input("Worms delved happily into the scraps. Tapestrywork is not a word, nor untapestried."), "cliches")).toMatchObject({
      passed: false,
      message: "Found 2 AI clichés: “delved” (1), “tapestry” (1). Target: none.",
    });
  });

  it("looks for the language's own list and the English one", () => {
    const c = check(
      input("Tauchen wir ein in die Welt des Kompostierens. Ein echter Game-Changer für jeden Garten.", { language: "de" }),
      "cliches",
    );
    expect(c.message).toBe("Found 2 AI clichés: “tauchen wir ein” (1), “Game-Changer” (1). Target: none.");
  });

  it("still counts them when the request allows clichés, but does not score them", () => {
    const i = input("Gardeners delve into compost.", { style: { cliches: false } });
    expect(check(i, "cliches")).toMatchObject({
      passed: null,
      message: "Found 1 AI cliché: “delve” (1). The request allows clichés (style.cliches is false), so this check does not apply.",
    });
  });

  it("passes a text without any", () => {
    expect(check(input(ENGLISH), "cliches")).toMatchObject({ passed: true, message: "Found no AI cliché." });
  });
});

describe("avoid", () => {
  it("finds banned phrases in the title and headings too, case-insensitively", () => {
    const i = input(["Once upon a time, a worm lived here.", "## Lily and the bin", "She was so happy."].join("\n\n"), {
      title: "ONCE UPON A TIME in the garden",
      style: { avoid: ["Once upon a time", "so happy", "Lily", "dragon"] },
    });
    expect(check(i, "avoid")).toMatchObject({
      passed: false,
      message: "Found 4 banned phrases: “Once upon a time” (2), “so happy” (1), “Lily” (1) (target none of the 4 in style.avoid).",
    });
  });

  it("counts a last word with letters glued on as the phrase, and phrases with symbols as written", () => {
    const i = input(
      [
        "Once upon a timece, a worm lived here.",
        "Lilych was so happyer than before.",
        "She was happy - and happy 🙂 too.",
        "He was happy, not so happy-go-lucky.",
      ].join("\n\n"),
      {
        style: { avoid: ["Once upon a time", "so happy", "Lily", "happy -", "happy 🙂", "happy 😢", "sad -"] },
      },
    );
    expect(check(i, "avoid")).toMatchObject({
      passed: false,
      message:
        "Found 6 banned phrases: “Once upon a time” (1), “so happy” (2), “Lily” (1), “happy -” (1), “happy 🙂” (1) (target none of the 7 in style.avoid).",
    });
    // Plain "happy" is not "happy 🙂" nor "happy -": a text without the symbol passes.
    expect(check(input("She was happy. He was happy too.", { style: { avoid: ["happy 🙂", "happy -"] } }), "avoid")).toMatchObject({
      passed: true,
    });
  });

  it("passes when none appears, and does not apply without a list", () => {
    expect(check(input(ENGLISH, { style: { avoid: ["dragon", "once upon a time"] } }), "avoid")).toMatchObject({
      passed: true,
      message: "None of the 2 phrases in style.avoid appears.",
    });
    expect(check(input(ENGLISH), "avoid").passed).toBeNull();
  });
});

describe("unsupported-figures", () => {
  it("lists figures that no one supplied, once each, as written", () => {
    const i = input("About 42% of gardeners compost. Since 2019, 42 % more do. A bin costs $35 or €1,250.50.");
    expect(check(i, "unsupported-figures")).toMatchObject({
      passed: false,
      message: "Found 4 figures that the request does not give (there are no sources): “42%”, “2019”, “$35”, “€1,250.50”.",
    });
  });

  it("takes figures the request or a source gives, however they are written", () => {
    const text = "About 42% of gardeners compost. A bin costs 1,000 euros. Worms eat 2,5 times their weight. Top 10 tips.";
    const i = input(text, {
      language: "de",
      given: ["Top 10 composting tips"],
      sources: [{ title: "Survey", text: "42 percent compost at home; bins cost 1000 euros and worms eat 2.5 times their weight." }],
    });
    expect(check(i, "unsupported-figures")).toMatchObject({
      passed: true,
      message: "Every figure (4) appears in the sources or the request.",
    });
    const without = input(text, { given: ["Top 10 composting tips"], sources: [{ title: "Survey", text: "Worms eat a lot." }] });
    expect(check(without, "unsupported-figures").message).toBe(
      "Found 3 figures in neither the sources nor the request: “42%”, “1,000”, “2,5”.",
    );
  });

  it("does not count structure: step numbers, the item count and citation markers", () => {
    const doc = [
      "Worms help [1].",
      "## 1. Pick a bin",
      "Bins vary [2, 3].",
      "## 2. Fill it",
      "Add scraps.",
      "## 3. Wait",
      "Be patient.",
    ].join("\n\n");
    expect(check(input(doc, { title: "3 steps to compost" }), "unsupported-figures")).toMatchObject({
      passed: true,
      message: "Every figure (1) appears in the request.",
    });
  });

  it("does not count digits inside words", () => {
    expect(check(input("Play an mp3 about COVID-19 and H2O."), "unsupported-figures")).toMatchObject({
      passed: true,
      message: "The article states no figures.",
    });
  });

  it("reads figures as numbers", () => {
    expect(figuresIn("In 2019, 42% paid $1,000 at 10:30 [4].")).toEqual(["2019", "42%", "$1,000", "10:30"]);
    expect(["1,000", "1.000", "1000"].map(figureKey)).toEqual(["1000", "1000", "1000"]);
    expect(["2,5", "2.50", "1,250.50", "10:30"].map(figureKey)).toEqual(["2.5", "2.5", "1250.5", "10:30"]);
  });
});

describe("readability", () => {
  const words = (n: number, start: string) => `${start} ${Array.from({ length: n - 1 }, (_, i) => `w${i}`).join(" ")}.`;
  const sentences = (n: number, length: number) => Array.from({ length: n }, (_, i) => words(length, `S${i}`)).join(" ");

  it("measures sentence length against each language's threshold", () => {
    // Four sentences of 22 words: too long in English (20), fine in Spanish (25).
    expect(check(input(sentences(4, 22)), "sentence-length")).toMatchObject({
      passed: false,
      message: "100% of sentences (4 of 4) have more than 20 words (target at most 25%).",
    });
    expect(check(input(sentences(4, 22), { language: "es" }), "sentence-length").passed).toBe(true);
    expect(check(input(sentences(4, 17), { language: "ru" }), "sentence-length").message).toContain("have more than 15 words");
  });

  it("checks transition words and the passive voice in English only", () => {
    const german = input(GERMAN.repeat(8), { language: "de" });
    expect(check(german, "transition-words")).toMatchObject({
      passed: null,
      message: "Transition words are checked in English articles only.",
    });
    expect(check(german, "passive-voice")).toMatchObject({
      passed: null,
      message: "The passive voice is checked in English articles only.",
    });
  });

  it("checks transition words from 200 words on", () => {
    expect(check(input(ENGLISH), "transition-words")).toMatchObject({
      passed: null,
      message: "Transition words are checked from 200 words on.",
    });
    const paragraph = Array.from(
      { length: 10 },
      (_, i) => `However, worm ${i} eats scraps. Worm ${i} sleeps. Worms ${i} dig deep in the warm soil all day and night.`,
    );
    const linked = input([...paragraph, ...paragraph].join(" "));
    expect(check(linked, "transition-words").message).toBe("33.3% of sentences (20 of 60) hold a transition word (target at least 30%).");
  });

  it("finds the passive voice", () => {
    const c = check(input("The leaves were added. Worms eat them. Soil is made slowly. Gardeners water it."), "passive-voice");
    expect(c).toMatchObject({
      passed: false,
      message: "50% of sentences (2 of 4) are in the passive voice (target at most 10%; first: “The leaves were added.”).",
    });
  });

  it.each([
    ["The leaves were added to the bin.", true],
    ["Compost is often watered.", true],
    ["The dog got bitten.", true],
    ["The heap was not turned.", true],
    ["Mistakes were made.", true],
    ["She was happy.", false],
    ["The deer was gone.", false],
    ["The bed is red.", false],
    ["Gardeners add dry leaves.", false],
  ])("isPassive(%j) is %s", (sentence, passive) => {
    expect(isPassive(sentence)).toBe(passive);
  });

  it.each([
    ["However, worms eat scraps.", true],
    ["Worms, for example, eat scraps.", true],
    ["Worms eat scraps because they are hungry.", true],
    ["Worms eat scraps before the first frost.", false],
    ["Forexample is not a phrase.", false],
  ])("hasTransition(%j) is %s", (sentence, linked) => {
    expect(hasTransition(sentence)).toBe(linked);
  });
});

describe("score", () => {
  const passing = CHECK_IDS.map((id) => ({ id, passed: true }));
  const failing = (id: CheckId) => passing.map((c) => (c.id === id ? { id, passed: false } : c));

  it("is 100 only when nothing fails", () => {
    expect(scoreChecks(passing)).toBe(100);
    // One weight-1 check of 48 weight points rounds to 98; it would round to 100 among many more.
    expect(scoreChecks(failing("passive-voice"))).toBeLessThan(100);
    expect(
      scoreChecks([
        ...Array.from({ length: 100 }, () => ({ id: "title-length" as const, passed: true })),
        { id: "passive-voice", passed: false },
      ]),
    ).toBe(99);
  });

  it("stays below 80 with the wrong language and below 90 with a banned phrase", () => {
    expect(scoreChecks(failing("language"))).toBe(79);
    expect(scoreChecks(failing("avoid"))).toBe(89);
  });
});
