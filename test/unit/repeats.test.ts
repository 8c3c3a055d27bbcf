import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { readme } from "../../scripts/fixtures/readmes.js";
import { analyseExisting } from "../../src/article/answer.js";
import { LOOPS } from "../../src/article/plan/limits.js";
import { RepeatMemory } from "../../src/article/text/repeats.js";
import { AnalyseRequestSchema } from "../../src/contract/analyse.js";

// Repetition a reader would call a loop: the same sentence said again whole or with a word or two
// changed, and never the labels, list items and entries reference text says alike.

/** The earlier sentence `sentence` says again, after `said`, and whether whole. */
function echo(said: string[], sentence: string) {
  const memory = new RepeatMemory("en", LOOPS);
  for (const before of said) memory.remember(before);
  const found = memory.echo(sentence);
  return found && { of: found.of, whole: found.whole };
}

/** The repetition checks of a Markdown article given as it is (POST /api/v1/analyse's engine), and its score. */
function repetitionChecks(markdown: string, topic: string) {
  const request = v.parse(AnalyseRequestSchema, { markdown, topic, language: "en" });
  const { seo } = analyseExisting(request).analysis;
  const of = (id: string) => seo.checks.find((check) => check.id === id)!;
  return { duplicates: of("duplicate-sentences"), loops: of("no-loops"), score: seo.score };
}

const HEAP = "Turning the heap in your garden every few weeks lets air back in and keeps it warm.";

describe("a near repeat", () => {
  it("is the same sentence with a word or two replaced, added or dropped", () => {
    expect(echo([HEAP], HEAP.replace("garden", "plot"))).toEqual({ of: HEAP, whole: false });
    expect(echo([HEAP], HEAP.replace("garden", "vegetable plot"))).toEqual({ of: HEAP, whole: false });
    expect(echo([HEAP], HEAP.replace("few ", ""))).toEqual({ of: HEAP, whole: false });
    expect(echo([HEAP], HEAP.replace("garden", "plot").replace("warm", "moist"))).toEqual({ of: HEAP, whole: false });
    // Without case or punctuation it is the same sentence whole.
    expect(echo([HEAP], HEAP.toUpperCase().replace(".", "!"))).toEqual({ of: HEAP, whole: true });
  });

  it("is not three words changed, nor two in a sentence of fewer than 10 words, nor one in fewer than 6", () => {
    expect(echo([HEAP], HEAP.replace("garden", "plot").replace("warm", "moist").replace("air", "oxygen"))).toBeUndefined();
    // 9 words, two changed.
    expect(echo(["Greens add nitrogen to the heap in early spring."], "Browns add carbon to the heap in early spring.")).toBeUndefined();
    // 9 words, one changed: the same sentence.
    expect(echo(["Greens add nitrogen to the heap in early spring."], "Greens add nitrogen to the heap in late spring.")).toBeDefined();
    // 5 words, one changed: too short to read as the same sentence.
    expect(echo(["The heap is warm today."], "The heap is wet today.")).toBeUndefined();
  });

  it("leaves alone the short sentences of ordinary prose that share their words", () => {
    const said = [
      "Greens add nitrogen to the heap.",
      "A lid keeps the rain off the heap.",
      "Most kitchen scraps can go on the heap, but meat and dairy attract rats.",
    ];
    for (const sentence of [
      "Browns add carbon to the heap.",
      "A tarp keeps the heat in the heap.",
      "Most garden waste can go on the heap, but diseased leaves spread blight.",
    ])
      expect(echo(said, sentence), sentence).toBeUndefined();
  });
});

describe("the repetition checks (duplicate-sentences, no-loops)", () => {
  it.each([
    ["unified", "unified: processing content with syntax trees and plugins"],
    ["mdast-util-to-markdown", "mdast-util-to-markdown: serialising markdown syntax trees"],
    ["lru-cache", "lru-cache: a cache that drops the least recently used items"],
  ])("pass %s's README under its own subject: its labels, list items and API entries say things alike", (pkg, topic) => {
    const { duplicates, loops } = repetitionChecks(readme(pkg), topic);
    expect(duplicates.passed, duplicates.message).toBe(true);
    expect(loops.passed, loops.message).toBe(true);
  });

  it("pass an article a person wrote, with its parallel sentences and its short list", () => {
    const { duplicates, loops } = repetitionChecks(REPOTTING, "Repotting a houseplant");
    expect(duplicates.passed, duplicates.message).toBe(true);
    expect(loops.passed, loops.message).toBe(true);
  });

  it("fail a paragraph said three times, naming its first sentence", () => {
    const paragraphs = REPOTTING.split("\n\n");
    const at = paragraphs.findIndex((paragraph) => paragraph.startsWith("Water the plant"));
    const markdown = [...paragraphs.slice(0, at + 1), paragraphs[at]!, paragraphs[at]!, ...paragraphs.slice(at + 1)].join("\n\n");
    const { duplicates, loops, score } = repetitionChecks(markdown, "Repotting a houseplant");
    expect(duplicates.passed).toBe(false);
    expect(duplicates.message).toContain("Found 6 sentences repeating an earlier one (first: “Water the plant a day before you");
    expect(loops.passed).toBe(false);
    expect(loops.message).toContain("most repeated: “Water the plant a day before you repot…” (3 times)");
    expect(score).toBeLessThanOrEqual(49);
  });

  it("fail a sentence said five times with one word changed each time, naming it and the one it repeats", () => {
    const loop = ["garden", "plot", "yard", "patch", "border"].map((place) => HEAP.replace("garden", place)).join(" ");
    const paragraphs = REPOTTING.split("\n\n");
    const markdown = [...paragraphs.slice(0, 6), loop, ...paragraphs.slice(6)].join("\n\n");
    const { duplicates, loops, score } = repetitionChecks(markdown, "Repotting a houseplant");
    expect(duplicates.passed).toBe(false);
    expect(duplicates.message).toBe(
      "Found 4 sentences repeating an earlier one, 4 of them with a word or two changed " +
        "(first: “Turning the heap in your plot every few…”, nearly “Turning the heap in your garden every few…”).",
    );
    expect(loops.passed).toBe(false);
    expect(loops.message).toContain("the same sentence 5 times at most among 9 in a row (fewer than 4)");
    expect(loops.message).toContain(
      "most repeated: “Turning the heap in your garden every few…” (5 times, 4 of them with a word or two changed)",
    );
    expect(score).toBeLessThanOrEqual(49);
  });

  it("compare a list's items and an API entry's sentences within their own list or entry, and read no label", () => {
    const entry = (name: string) =>
      `### \`${name}(options)\`\n\nReturns:\n\nA new tree for the file you give it.\n\n> Note: this freezes the processor if it is not frozen yet.\n\n- \`options\` (\`Options\`, optional) — configuration for the parser`;
    const reference = `# API\n\nThe processor reads files and writes trees for you.\n\n${entry("parse")}\n\n${entry("run")}\n`;
    expect(repetitionChecks(reference, "A processor API").duplicates.passed).toBe(true);
    // Said twice in one list, an item repeats; and so does a paragraph said again outside any entry.
    const list = `${reference}\n- Keep the options object small and plain.\n- Keep the options object small and plain.\n`;
    expect(repetitionChecks(list, "A processor API").duplicates.message).toContain("(first: “Keep the options object small and plain.”)");
    const prose = `${reference}\n## Notes\n\nThe processor reads files and writes trees for you.\n`;
    expect(repetitionChecks(prose, "A processor API").duplicates.passed).toBe(false);
  });
});

/** About 450 words on repotting, as a person writes it: parallel advice, a list, a short FAQ. */
const REPOTTING = `# Repotting a houseplant without killing it

Most houseplants need a bigger pot every year or two. Roots that circle the bottom of the pot, water that runs straight through, and leaves that yellow in spring are the usual signs. Repotting takes twenty minutes, and the plant recovers within a fortnight if you do it gently.

## Choosing the new pot

Pick a pot one size up, about two or three centimetres wider than the old one. A pot that is far too big holds water the roots cannot reach, and the compost stays wet and sour. Drainage holes matter more than the material. Terracotta dries out quickly, which suits cacti and succulents; glazed ceramic and plastic keep moisture longer, which ferns and peace lilies prefer.

## Getting the compost right

Use a compost made for the plant you have. Orchids want chunky bark, cacti want grit, and most leafy plants are happy in a general peat-free mix with a handful of perlite. Old compost from the garden brings in fungus gnats, so leave it outside.

## Doing the job

Water the plant a day before you repot it. Damp roots slide out of the pot and tear less than dry ones. Tip the pot on its side, support the stem between your fingers, and ease the root ball out.

Tease out any roots that wind round the edge, and cut away the ones that are black or mushy. Set the plant at the same depth as before, fill around it with fresh compost, and firm it lightly with your fingertips. Leave a gap below the rim so water has room to soak in.

Afterwards, keep the plant out of direct sun for a week. You will need:

- a pot one size up, with drainage holes
- fresh compost suited to the plant
- a watering can and a pair of clean scissors

## Common questions

### When is the best time of year?

Early spring, just as new growth starts. A plant that is growing heals its roots quickly, while one that is resting in winter sits in cold, wet compost and may rot.

### Should I feed it straight away?

No. Fresh compost holds enough food for about six weeks, and fertiliser on damaged roots can scorch them. Start feeding again once you see new leaves.
`;
