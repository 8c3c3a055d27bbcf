/** What an editor sees: the report judges titles, headings, counts, figures and slugs as an editor would. */
import { describe, expect, it } from "vitest";
import { analyse, type AnalyseInput, type CheckId } from "../../src/article/report/analyse.js";
import { focusKeyword } from "../../src/article/plan/focus.js";
import { promisedCount } from "../../src/article/text/counts.js";
import { articleSlug } from "../../src/article/text/slug.js";
import { displayWidth, wordSpans } from "../../src/article/text/text.js";
import { narrowTitle, wholeWords } from "../../src/article/outline/title-fits.js";
import { countForms } from "../../src/article/text/forms.js";
import { danglingEnd, functionWords } from "../../src/article/text/function-words.js";
import { stopWords } from "../../src/article/text/terms.js";
import { analyseInput } from "../helpers/blocks.js";
import { planFor } from "../helpers/body.js";

const check = (i: AnalyseInput, id: CheckId) => analyse(i).checks.find((c) => c.id === id)!;

const SKILLET =
  "A cast iron skillet lasts for generations when you look after it. Seasoning is a thin layer of baked oil that keeps food from sticking. " +
  "Wash the pan, dry it on a low flame and rub a spoonful of oil over every surface. Wipe off the excess until the pan looks almost dry.";

describe("keyword matching as editors match", () => {
  it("lets function words stand between the keyword's words, and word forms count", () => {
    expect(countForms("How to Season a Cast Iron Skillet", "season cast iron skillet", "en")).toBe(1);
    expect(countForms("Seasoning the cast iron skillets of a camp", "season cast iron skillet", "en")).toBe(1);
    expect(countForms("Season cast iron skillet", "season a cast iron skillet", "en")).toBe(1);
    // Content words between, punctuation between, or more than two function words: no use.
    expect(countForms("Season every cast iron skillet", "season cast iron skillet", "en")).toBe(0);
    expect(countForms("Season, cast iron skillet", "season cast iron skillet", "en")).toBe(0);
    expect(countForms("seo, tools", "seo tools", "en")).toBe(0);
    expect(countForms("Den Kompost in der Tonne", "Kompost Tonne", "de")).toBe(0);
    expect(countForms("Kompost in der Tonne", "Kompost in Tonne", "de")).toBe(1);
  });

  it("passes keyword-in-title for “season cast iron skillet” in “How to Season a Cast Iron Skillet”, naming the exact count", () => {
    const article = analyseInput(SKILLET, { title: "How to Season a Cast Iron Skillet", keywords: ["season cast iron skillet"] });
    expect(check(article, "keyword-in-title")).toMatchObject({
      passed: true,
      message:
        "The primary keyword “season cast iron skillet” appears 1 time in the title (word forms counted, function words between the keyword's words ignored; 0 exact).",
    });
    const elsewhere = analyseInput(SKILLET, { title: "Caring for Old Pans at Home", keywords: ["season cast iron skillet"] });
    expect(check(elsewhere, "keyword-in-title").passed).toBe(false);
  });

  it("takes function words from the shipped stop-word lists, never a word that ends a phrase", () => {
    for (const language of ["en", "de", "fr", "es", "it", "pt", "nl", "ja"]) {
      const words = functionWords(language);
      expect(words.size, language).toBeGreaterThan(5);
      for (const word of words) expect(stopWords(language).has(word), `${language}: ${word}`).toBe(true);
    }
    for (const word of ["it", "them", "this", "in", "up", "is", "can"]) expect(functionWords("en").has(word), word).toBe(false);
  });
});

/** A tidy-shed listicle of `n` numbered items, each a heading and a few sentences written here. */
function shedList(n: number): string {
  const tips = [
    ["Sweep the floor first", "Dust and grit hide what you own. A stiff broom clears the boards in ten minutes."],
    ["Hang tools on the wall", "A rail of hooks keeps spades and rakes off the floor. You see at once what is missing."],
    ["Label every box", "Masking tape and a marker are enough. Nobody opens six boxes to find the twine again."],
    ["Keep seeds in a tin", "Mice love paper packets. A biscuit tin with a tight lid keeps them out all winter."],
  ];
  return Array.from({ length: n }, (_, i) => `## ${i + 1}. ${tips[i % 4]![0]}\n\n${tips[i % 4]![1]}`).join("\n\n");
}

describe("counts the title promises", () => {
  it("reads a count before a list noun or after “top”, in digits or words, and no other number", () => {
    expect(promisedCount("Ten tips for a tidy shed", "en")).toBe(10);
    expect(promisedCount("7 easy ways to start composting", "en")).toBe(7);
    expect(promisedCount("Top 5 compost bins of the year", "en")).toBe(5);
    expect(promisedCount("Zehn Tipps für den Garten", "de")).toBe(10);
    expect(promisedCount("How to lose 5 kg before summer", "en")).toBeUndefined();
    expect(promisedCount("The garden in 2024", "en")).toBeUndefined();
  });

  it("fails a listicle titled “Ten tips for a tidy shed” with 3 items, naming 10 and 3", () => {
    const title = "Ten tips for a tidy shed";
    expect(check(analyseInput(shedList(3), { title, preset: "listicle" }), "promised-count")).toMatchObject({
      passed: false,
      message: "“Ten tips for a tidy shed” promises 10; the article has 3 numbered items.",
    });
    expect(check(analyseInput(shedList(10), { title, preset: "listicle" }), "promised-count").passed).toBe(true);
    expect(check(analyseInput(shedList(3), { title: "A tidy shed" }), "promised-count").passed).toBeNull();
  });

  it("plans as many items or steps as the topic or given title promises", () => {
    const items = (p: ReturnType<typeof planFor>) => p.sections.filter((s) => s.number !== null).length;
    expect(items(planFor({ topic: "Ten tips for a tidy shed", structure: "listicle", length: 300 }))).toBe(10);
    expect(items(planFor({ topic: "Tidy sheds", structure: "how-to", length: 800, seo: { title: "7 steps to a tidy shed" } }))).toBe(7);
    expect(items(planFor({ topic: "A tidy shed", structure: "listicle", length: 300 }))).toBe(3);
  });
});

/** A person's own recipe, with oven temperatures, times and weights. */
const RECIPE = [
  "My grandmother made this loaf every Sunday, and it still tastes of her kitchen. It needs patience more than skill.",
  "## Make the dough",
  "Mix 500 g of strong flour with 350 ml of warm water and a pinch of salt. Knead it for 10 minutes, then let it rise for 1–2 hours.",
  "## Bake it hot",
  "Heat the oven to 230 °C (450°F), or gas mark 8 on an old cooker. Bake the loaf for 20 to 25 minutes, until the crust is dark.",
  "Turn the oven down to 200°C after the first 15 min if the top browns too fast. Let it cool on a rack for at least an hour.",
].join("\n\n");

describe("figures: measurements are not claims", () => {
  it("passes a person's recipe with oven temperatures, times and weights", () => {
    expect(check(analyseInput(RECIPE, { title: "My grandmother's Sunday loaf" }), "unsupported-figures")).toMatchObject({
      passed: true,
      message: "The article states no figures.",
    });
  });

  it("fails shares, money and counts stated as facts without a source", () => {
    const claims = `${RECIPE}\n\n73 % of gardeners bake their own bread, and a loaf like this costs $4 in a shop. 1,200 people tried it last year.`;
    expect(check(analyseInput(claims, { title: "My grandmother's Sunday loaf" }), "unsupported-figures")).toMatchObject({
      passed: false,
      message: "Found 3 figures that the request does not give (there are no sources): “73 %”, “$4”, “1,200”.",
    });
  });
});

describe("slugs and derived keywords a person would pick", () => {
  it("derives the topic's longest noun phrase, keeping the product", () => {
    expect(focusKeyword("Review of the Kindle Paperwhite", "en")).toBe("Kindle Paperwhite");
    expect(planFor({ topic: "Review of the Kindle Paperwhite", seo: {} }).primary.toLowerCase()).toContain("kindle paperwhite");
    expect(focusKeyword("What is the best way to learn Spanish quickly as an adult?", "en")).toBe("way to learn Spanish");
  });

  it("makes a slug of the keyword and the title's content words, no stop word, no fragment, at most 6 words", () => {
    expect(articleSlug("Daddy looked at a compost bin on the ground", "compost bin", "en")).toBe("compost-bin-daddy-looked-ground");
    expect(articleSlug("The beginner's guide to compost bins and worms for small city gardens", "compost bin", "en")).toBe(
      "compost-bin-beginners-guide-worms-small",
    );
    expect(articleSlug("Review of the Kindle Paperwhite", undefined, "en")).toBe("review-kindle-paperwhite");
    expect(articleSlug("Kompost für den Garten", "Komposttonne", "de")).toBe("komposttonne-kompost-garten");
  });
});

describe("headings and titles end on a word that can end a phrase, and open variously", () => {
  const story = (headings: string[]) => [SKILLET, ...headings.flatMap((h) => [`## ${h}`, SKILLET])].join("\n\n");

  it("fails a title or heading ending on an article, preposition or conjunction; never one ending on a pronoun or particle", () => {
    const dangling = analyseInput(story(["Timmy realized that the", "Oil the pan"]), { title: "Seasoning a skillet" });
    expect(check(dangling, "heading-endings")).toMatchObject({
      passed: false,
      message: "Found 1 title or heading ending on a function word (first: “Timmy realized that the”, ending on “the”).",
    });
    expect(check(analyseInput(SKILLET, { title: "What to keep a skillet safe with?" }), "heading-endings").passed).toBe(false);
    const fine = analyseInput(story(["How to log in", "Wipe it", "What it is"]), { title: "Season a pan and look after it" });
    expect(check(fine, "heading-endings").passed).toBe(true);
    expect(check(analyseInput(SKILLET, { title: "Prends-le", language: "fr" }), "heading-endings").passed).toBe(true);
    expect(check(analyseInput(SKILLET, { title: "観葉植物の水やりを", language: "ja" }), "heading-endings").passed).toBe(false);
  });

  it("fails three headings that open with one word's forms, numbering skipped and questions aside", () => {
    const alike = analyseInput(story(["1. Oiling the pan", "2. Oil every surface", "3. Oils that work", "4. Wipe it dry"]));
    expect(check(alike, "heading-openings")).toMatchObject({
      passed: false,
      message: "3 of 4 subheadings open alike (“1. Oiling the pan”, “2. Oil every surface”, “3. Oils that work”; target at most 2).",
    });
    const varied = analyseInput(
      story(["Oil the pan", "Oil every surface", "Wipe it dry", "What is seasoning?", "What oil works?", "What next?"]),
    );
    expect(check(varied, "heading-openings").passed).toBe(true);
  });

  it("reads a Japanese heading's first word by Intl.Segmenter: three headings opening with 観葉植物 (or a Latin word) fail", () => {
    const ja = (headings: string[]) => analyseInput(story(headings), { language: "ja" });
    expect(check(ja(["観葉植物の水やり", "観葉植物の土", "観葉植物を選ぶ", "水やりのコツ"]), "heading-openings")).toMatchObject({
      passed: false,
      message: "3 of 4 subheadings open alike (“観葉植物の水やり”, “観葉植物の土”, “観葉植物を選ぶ”; target at most 2).",
    });
    expect(
      check(ja(["Whe倀観葉植物 and jumped up", "Whe＋観葉植物 and colpened", "Whe》観葉植物 and grasble her"]), "heading-openings").passed,
    ).toBe(false);
    // Words that merely share a character open differently: 水 is not 水曜日.
    expect(check(ja(["観葉植物の水やり", "観葉植物の土", "水のこと", "水曜日の手入れ"]), "heading-openings").passed).toBe(true);
  });
});

describe("a capped field of a script without spaces is cut between words", () => {
  it("drops a Latin word the cap cut inside, and cuts CJK between words", () => {
    expect(wholeWords("観葉植物の水やりとmade sounds tog", { words: [3, 11] }, "ja")).toBe("観葉植物の水やりとmade sounds");
    // Not at the cap: nothing is cut.
    expect(wholeWords("観葉植物の水やりとmade sounds tog", { words: [3, 12] }, "ja")).toBe("観葉植物の水やりとmade sounds tog");
    const full = "観葉植物の水やりはとても大切です";
    const cut = wholeWords(full, { words: [3, 8] }, "ja");
    expect(cut.length).toBeLessThan(full.length);
    expect(wordSpans(full, "ja").map((span) => span.index)).toContain(cut.length);
    // The keyword is never cut.
    expect(wholeWords("観葉植物", { words: [1, 2], keyword: "観葉植物" }, "ja")).toBe("観葉植物");
    // A particle the cut leaves last goes with it.
    expect(wholeWords("観葉植物の水やりとmade", { words: [3, 6] }, "ja")).toBe("観葉植物の水やり");
    // At the cap or not, an English function word left last in a Japanese field goes, and the check reads it so.
    expect(wholeWords("観葉植物 and grown on the", { words: [3, 12] }, "ja")).toBe("観葉植物 and grown on");
    expect(danglingEnd("Jopped in the", "ja")).toBe("the");
    // A question cut at its cap keeps its mark.
    expect(wholeWords("観葉植物 and grown on the?", { words: [3, 12], end: "?" }, "ja")).toBe("観葉植物 and grown on?");
    expect(wholeWords("観葉植物の水やりとmade sounds tog？", { words: [3, 11], end: "？" }, "ja")).toBe("観葉植物の水やりとmade sounds？");
  });
});

describe("a title still too wide after its rewrites keeps its whole words within 60 columns", () => {
  it("cuts back to whole words, no dangling last word, the keyword whole", () => {
    const wide = "Colot can cold brew coffee, and that broccuse you made a picture";
    expect(narrowTitle(wide, "cold brew coffee", "en")).toBe("Colot can cold brew coffee, and that broccuse you made");
    // A title that fits is kept; so is one whose keyword ends past the limit.
    expect(narrowTitle("Cold brew coffee at home", "cold brew coffee", "en")).toBe("Cold brew coffee at home");
    const late = `${"Word ".repeat(12)}cold brew coffee`;
    expect(narrowTitle(late, "cold brew coffee", "en")).toBe(late);
    // CJK counts two columns a character and is cut between words.
    const ja = "観葉植物の水やりはとても大切ですが毎日の世話は難しいので水の量と時間を決めておきましょう";
    const cut = narrowTitle(ja, "観葉植物", "ja");
    expect(displayWidth(cut)).toBeLessThanOrEqual(60);
    expect(wordSpans(ja, "ja").map((span) => span.index + span.word.length)).toContain(cut.length);
  });
});
