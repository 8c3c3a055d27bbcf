import { describe, expect, it } from "vitest";
import { AvoidList } from "../../src/article/plan/avoid.js";
import type { ArticleDocument } from "../../src/article/body/document.js";
import { plannedOutline } from "../../src/article/outline/outline.js";
import { balanced, finishSentence, splitLongSentence } from "../../src/article/text/sentences.js";
import { sentenceWords } from "../../src/article/plan/limits.js";
import { hasPhrase } from "../../src/article/text/text.js";
import { COMPOSTING, outlineFor, planFor, writeWith } from "../helpers/body.js";
import { continuations, distinctSentences, proseModel, type ProseItem, type Script } from "../../scripts/fixtures/fake-writer.js";

// How code steers without showing, on a scripted fake model: owed keywords inside
// sentences, banned phrases refused while sampling, quotations closed, an introduction
// always, an outline that lists what the article shows. The document and plan are real.

const PRIMARY = "compost bins";
/** The request these tests write: a secondary keyword besides the primary. */
const TWO_KEYWORDS = { ...COMPOSTING, seo: { keywords: `${PRIMARY}, kitchen scraps` } };

function* chain(...sources: Iterable<ProseItem>[]): Generator<ProseItem> {
  for (const source of sources) yield* source;
}

/** Prose sentences of the document, in order, with whether each opens its section. */
const sentencesOf = (doc: ArticleDocument) => doc.blocks.flatMap((b) => (b.kind === "prose" ? b.sentences : []));

describe("keywords where they fit", () => {
  it("places an owed keyword inside a sentence, after a few of the model's own words and in the request's case", async () => {
    const p = planFor({}, TWO_KEYWORDS);
    const { writer, document } = await writeWith(p, proseModel(distinctSentences(), continuations()));
    const forced = writer.events.filter(
      (e) =>
        (e.type === "append" && hasPhrase(e.text, PRIMARY, "en")) || (e.type === "append" && hasPhrase(e.text, "kitchen scraps", "en")),
    );
    // The opening of the introduction, then keywords steered mid-sentence: each after at least two words of the model's own.
    expect(forced.length).toBeGreaterThan(2);
    // Steered keywords are appended mid-sentence (a space before them); the introduction's opening is not.
    const steered = forced.filter((e) => e.type === "append" && e.text.startsWith(" "));
    expect(steered.length).toBeGreaterThan(1);
    for (const event of steered) {
      if (event.type !== "append") continue;
      const line = event.before.slice(event.before.lastIndexOf("\n") + 1);
      const sentenceSoFar = line.split(/[.!?]\s/).at(-1)!;
      expect(sentenceSoFar.trim().split(/\s+/).length, `before “${event.text}”: “${sentenceSoFar}”`).toBeGreaterThanOrEqual(2);
      expect(event.text).toBe(event.text.toLowerCase());
    }
    const [first, ...rest] = sentencesOf(document);
    expect(first!.startsWith("Compost bins ")).toBe(true);
    const bearing = rest.filter((s) => hasPhrase(s, PRIMARY, "en") || hasPhrase(s, "kitchen scraps", "en"));
    expect(bearing.length).toBeGreaterThan(1);
    for (const s of bearing) expect(s.toLowerCase().startsWith(PRIMARY) || s.toLowerCase().startsWith("kitchen scraps"), s).toBe(false);
    // Mid-sentence, the keyword is written as the request gives it.
    for (const s of bearing) expect(s.slice(1)).not.toMatch(/Compost bins|Kitchen scraps/);
    expect(p.primary).toBe(PRIMARY);
  });

  it("refuses a model's own keyword openings past 40 % of the keyword sentences", async () => {
    const p = planFor({ length: 800 }, TWO_KEYWORDS);
    // Every third sentence the model writes opens with the secondary keyword.
    function* opening(): Generator<ProseItem> {
      const plain = distinctSentences(40);
      for (let n = 0; ; n++) yield n % 3 === 1 ? `Kitchen scraps matter in garden number ${n} today.` : plain.next().value!;
    }
    const { document } = await writeWith(p, proseModel(opening(), continuations()));
    const rest = sentencesOf(document).slice(1);
    const bearing = rest.filter((s) => hasPhrase(s, PRIMARY, "en") || hasPhrase(s, "kitchen scraps", "en"));
    const openings = bearing.filter((s) => /^(compost bins|kitchen scraps)\b/i.test(s));
    expect(bearing.length).toBeGreaterThan(2);
    expect(openings.length).toBeLessThanOrEqual(0.4 * bearing.length);
  });
});

describe("banned phrases", () => {
  it("are refused the moment the model completes one: cut back to the last word, the model writes on", async () => {
    const p = planFor({}, TWO_KEYWORDS);
    const avoid = new AvoidList({ style: { avoid: ["once upon a time", "Lily"], cliches: true }, language: "en" });
    const base = proseModel(
      chain(
        ["Once upon a time there was a tidy heap.", "Lily went to see the garden bed.", "Later, Lily smiled at the careful gardeners."],
        distinctSentences(),
      ),
      continuations(),
    );
    // A call that starts under the refusal of a word takes another word first; then it writes its sentences.
    const refusing = (grammar: string | undefined) => /^root ::= " "\? \(/m.test(grammar ?? "");
    const script: Script = (step) => (refusing(step.options.grammar) ? { pieces: [" day."] } : base(step));
    const { writer, document } = await writeWith(p, script, { avoid });
    const text = sentencesOf(document).join(" ");
    expect(text).not.toMatch(/once upon a time/i);
    expect(text).not.toMatch(/\bLily\b/);
    expect(writer.removed().some((r) => r.startsWith(" time"))).toBe(true);
    expect(text).toContain("Once upon a day");
    const refusals = writer.events.filter((e) => e.type === "generate" && refusing(e.options.grammar));
    expect(refusals.length).toBeGreaterThanOrEqual(2);
  });

  it("match after a word boundary, case-insensitively, with either apostrophe, glued letters included", () => {
    const avoid = new AvoidList({ style: { avoid: ["so happy", "it's key", "happy 🙂", "x^y"], cliches: false }, language: "en" });
    expect(avoid.holds("She was So Happy.")).toBe(true);
    expect(avoid.holds("It\u2019s key to turn it.")).toBe(true);
    // Letters glued onto the last word make no other phrase; onto the first they do.
    expect(avoid.holds("She was so happyish.")).toBe(true);
    expect(avoid.holds("She was also happy.")).toBe(false);
    expect(avoid.holds("Then x^yz came.")).toBe(true);
    const match = avoid.completedIn("She was so happy", 14)!;
    expect(match.phrase).toBe("so happy");
    expect("She was so happy".slice(0, match.cut)).toBe("She was so");
    expect(match.word).toBe("happy");
    // Completed the moment its last character is there, whatever follows.
    expect(avoid.completedIn("She was so happ", 12)).toBeUndefined();
    expect(avoid.completedIn("She was so happyer", 16)?.word).toBe("happy");
    const symbol = avoid.completedIn("He was happy 🙂", 13)!;
    expect([symbol.phrase, symbol.word]).toEqual(["happy 🙂", "🙂"]);
    expect(new AvoidList({ style: { avoid: [], cliches: true }, language: "en" }).holds("Let us delve into it.")).toBe(true);
    expect(new AvoidList({ style: { avoid: [], cliches: false }, language: "en" }).empty).toBe(true);
  });
});

describe("quotations and the introduction", () => {
  it("a sentence that leaves a quotation open is refused and written again", async () => {
    const p = planFor({ length: 300 }, TWO_KEYWORDS);
    const { document, writer } = await writeWith(
      p,
      proseModel(chain([{ raw: ' Often, the gardener said "stop now and went home to rest.\n\n' }], distinctSentences()), continuations()),
    );
    for (const s of sentencesOf(document)) expect(balanced(s), s).toBe(true);
    expect(writer.removed().join(" ")).toContain('"stop now');
  });

  it("a long sentence is never split inside a quotation", () => {
    const sentence =
      'The old gardener told us "turn the heap every week, keep it damp, and never add meat or dairy to it" before he left the allotment that day.';
    for (const part of splitLongSentence(sentence, "en", sentenceWords("en"))) expect(balanced(part), part).toBe(true);
  });

  it("a long sentence is never split inside a phrase the step steered (an anchor, a keyword)", () => {
    // A run-on the random-weight test model wrote, which the split once cut to "how to choose a. Expect" and "a compost. Bin".
    const sentence =
      "Website never too first begin pass real reach begin quick believe their how to choose a compost bin with some social head will begin real young meet way keep program make every lead summer die.";
    const steered = ["how to choose a compost bin", "compost bin"];
    const parts = splitLongSentence(sentence, "en", sentenceWords("en"), steered);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.some((part) => part.includes("how to choose a compost bin"))).toBe(true);
    // Without the phrases the middle cut lands inside the anchor: the test would see it.
    expect(splitLongSentence(sentence, "en", sentenceWords("en")).some((part) => part.includes("how to choose a compost bin"))).toBe(false);
  });

  it("a long sentence split where the model left stray marks opens its second half on a word, as a reader's segmenter sees it", () => {
    const sentence =
      "Potting soil number idea has day time their first important decide these. . data sea summer potting soil reason know come sure night and by much?";
    const parts = splitLongSentence(sentence, "en", sentenceWords("en"));
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part).toMatch(/^\p{Lu}/u);
    // Joined as the document joins them, a reader's segmenter finds the same sentences.
    const segments = [...new Intl.Segmenter("en", { granularity: "sentence" }).segment(parts.join(" "))].map((s) => s.segment.trim());
    expect(segments).toEqual(parts);
  });

  it("an introduction is written even when the model fails its keyword opening again and again", async () => {
    const p = planFor({ length: 300 }, TWO_KEYWORDS);
    let n = 0;
    // The first ten continuations of the prefilled keyword are too short to keep.
    const script = proseModel(distinctSentences(), () => (n++ < 10 ? "rot." : "help small gardens every single season."));
    const { document } = await writeWith(p, script);
    expect(document.blocks[0]?.kind).toBe("prose");
  });

  it("a sentence ends with the terminator of its own script", () => {
    expect(finishSentence("It is a small garden", "ja")).toBe("It is a small garden.");
    expect(finishSentence("庭は小さい", "ja")).toBe("庭は小さい。");
  });
});

describe("the outline", () => {
  it("the document lists exactly the headings it shows; without them the planned sections are marked not shown", async () => {
    const p = planFor({ structure: "detailed", length: 800 }, TWO_KEYWORDS);
    const { document } = await writeWith(p, proseModel(distinctSentences(), continuations()));
    const shown = document.blocks.flatMap((b) => (b.kind === "heading" ? [{ level: b.depth, text: b.text, shown: true }] : []));
    expect(document.headings()).toEqual(shown);
    // No "Introduction" that no article shows.
    expect(shown.map((e) => e.text)).not.toContain("Introduction");

    const off = planFor({ structure: "sections", length: 800, seo: { keywords: PRIMARY, headingTags: false } }, TWO_KEYWORDS);
    const entries = plannedOutline(off, outlineFor(off));
    expect(entries.length).toBeGreaterThan(2);
    expect(entries.every((e) => e.shown === false)).toBe(true);
  });
});
