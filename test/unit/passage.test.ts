import { describe, expect, it } from "vitest";
import { ArticleDocument } from "../../src/article/body/document.js";
import { passageContext, writePassage, type Passage } from "../../src/article/body/passage.js";
import { seedSequence } from "../../src/article/plan/seeds.js";
import { Grounding } from "../../src/article/grounding/grounding.js";
import { TokenLedger } from "../../src/article/ledger.js";
import { mostWords, PARAGRAPH_WORDS } from "../../src/article/plan/limits.js";
import { hasPhrase } from "../../src/article/text/text.js";
import { clichesOnly, outlineFor, planFor } from "../helpers/body.js";
import { FakeWriter, continuations, distinctSentences, proseModel } from "../../scripts/fixtures/fake-writer.js";

// One passage of the body pass on the scripted writer: its budget, its paragraphs or items,
// its opening, and the keywords it owes.

function context(options: { length?: number } = {}) {
  const plan = planFor({ length: options.length ?? 600, structure: "sections" });
  const outline = outlineFor(plan);
  const fake = new FakeWriter(proseModel(distinctSentences(), continuations()));
  const writer = TokenLedger.of(fake);
  writer.append(`# ${outline.title}\n\n`);
  const document = new ArticleDocument(plan.request.language, [plan.primary, ...plan.secondary]);
  const avoid = clichesOnly(plan);
  const ctx = passageContext({
    plan,
    writer,
    document,
    avoid,
    grounding: new Grounding({ plan, outline }),
    visible: true,
    seed: seedSequence(plan.request.seed),
    wordsLeft: () => mostWords(plan.request.length) - document.wordCount,
  });
  return { ctx, document, writer };
}

const prose = (document: ArticleDocument) => document.blocks.flatMap((b) => (b.kind === "prose" ? [b] : []));

describe("a passage", () => {
  it("writes about its budget in whole sentences, and opens the article with the primary keyword", async () => {
    const { ctx, document } = context();
    const passage: Passage = { budget: 60, primaryUses: 1, secondary: [], opening: true, section: 0 };
    const words = await writePassage(ctx, passage);
    expect(words).toBe(document.wordCount);
    expect(words).toBeGreaterThanOrEqual(58);
    expect(words).toBeLessThanOrEqual(60 + 12);
    const first = prose(document)[0]!.sentences[0]!;
    expect(first.startsWith("Compost bins ")).toBe(true);
    expect(hasPhrase(first, "compost bins", "en")).toBe(true);
  });

  it("never keeps a sentence past the article's length promise, however far the owed keywords or the overshoot would take it", async () => {
    const { ctx, document } = context({ length: 100 });
    // A last passage with a budget far past the length (203 words without the ceiling): the ceiling still holds.
    const words = await writePassage(ctx, { budget: 200, primaryUses: 2, secondary: ["garden waste"], section: 0, final: true });
    expect(words).toBe(document.wordCount);
    expect(words).toBeGreaterThan(80);
    expect(words).toBeLessThanOrEqual(mostWords(100));
  });

  it("closes paragraphs well within the paragraph limit", async () => {
    const { ctx, document } = context({ length: 1500 });
    await writePassage(ctx, { budget: 250, primaryUses: 0, secondary: [], section: 1 });
    const paragraphs = prose(document);
    expect(paragraphs.length).toBeGreaterThan(1);
    for (const p of paragraphs) expect(p.words).toBeLessThanOrEqual(PARAGRAPH_WORDS);
  });

  it("writes list items, one sentence each, as many as asked", async () => {
    const { ctx, document } = context();
    ctx.writer.append("- ");
    await writePassage(ctx, { budget: 40, primaryUses: 0, secondary: [], items: 3, section: 1 });
    expect(prose(document)).toHaveLength(3);
    expect(
      document
        .markdown()
        .split("\n")
        .filter((line) => line.startsWith("- ")),
    ).toHaveLength(3);
  });

  it("places the keywords it owes inside sentences, not as their openings", async () => {
    const { ctx, document } = context();
    await writePassage(ctx, { budget: 80, primaryUses: 1, secondary: ["garden waste"], section: 1 });
    const sentences = prose(document).flatMap((b) => b.sentences);
    for (const keyword of ["compost bins", "garden waste"]) {
      const holding = sentences.filter((s) => hasPhrase(s, keyword, "en"));
      expect(holding.length, keyword).toBeGreaterThan(0);
      for (const s of holding) expect(s.toLowerCase().startsWith(keyword)).toBe(false);
    }
  });
});
