import { describe, expect, it } from "vitest";
import { ArticleDocument } from "../../src/article/body/document.js";
import { SentenceGate, type Placement } from "../../src/article/body/sentence-gate.js";
import { AvoidList } from "../../src/article/plan/avoid.js";
import { planFor } from "../helpers/body.js";

// The gate on its own: which sentence it refuses, and why, given what the article kept.

const MID: Placement = { articleStart: false, sectionStart: false };

function gate(options: { length?: number; avoid?: string[] } = {}) {
  const p = planFor({ length: options.length ?? 600, seo: { keywords: "compost bins, kitchen scraps" } });
  const document = new ArticleDocument(p.request.language, [p.primary, ...p.secondary]);
  const avoid = new AvoidList({ style: { avoid: options.avoid ?? [], cliches: false }, language: "en" });
  const g = new SentenceGate({ plan: p, document, avoid });
  /** Keep a sentence as the passage does: in the document, then in the gate. */
  const keep = (sentence: string, placement = MID) => {
    document.addSentence(sentence, false);
    g.keep(sentence, placement);
  };
  return { gate: g, keep, document };
}

describe("the sentence gate", () => {
  it("lets a plain sentence through", () => {
    expect(gate().gate.refuse("The heap warms up slowly in early spring.", MID)).toBeUndefined();
  });

  it("refuses a sentence the article holds already, without case or punctuation", () => {
    const { gate: g, keep } = gate();
    keep("Once upon a time there was a heap.");
    expect(g.refuse("once upon a time, there was a heap!", MID)).toBe("duplicate");
  });

  it("refuses a sentence the article holds already with a word or two changed, and lets a sentence merely alike through", () => {
    const { gate: g, keep } = gate();
    keep("Turning the heap in your garden every few weeks lets air back in.");
    expect(g.refuse("Turning the heap in your plot every few weeks lets air back in.", MID)).toBe("near-duplicate");
    expect(g.refuse("Turning the heap in your vegetable plot every few weeks lets air back in.", MID)).toBe("near-duplicate");
    // Three words changed, or a sentence that only shares some words: not the same sentence.
    expect(g.refuse("Turning the pile in your plot every few days lets air back in.", MID)).not.toBe("near-duplicate");
    expect(g.refuse("Turning the heap in spring wakes the worms after winter.", MID)).toBeUndefined();
  });

  it("reads a quotation the pass takes whole as the sentences a reader sees in it", () => {
    const { gate: g, keep } = gate();
    keep("Suddenly, there was a big green kite.");
    // The pass keeps a split quotation as one sentence; its first part repeats the kept one with a word changed.
    expect(g.refuse('"Look, there was a big green kite! We can fly it today," said Sam.', MID)).toBe("near-duplicate");
    keep('"Come here, Max! We can fly it today," said Sam.');
    expect(g.refuse("We can fly it today, said Sam.", MID)).toBe("duplicate");
  });

  it("refuses a keyword twice in one sentence, and a keyword in a case the request did not give it", () => {
    const { gate: g } = gate();
    expect(g.refuse("Compost bins hold more than other compost bins do.", MID)).toBe("keyword-twice");
    expect(g.refuse("Many gardeners buy Compost Bins in spring.", MID)).toBe("keyword-case");
    // At the opening, the first letter may be a capital.
    expect(g.refuse("Compost bins hold the heap in spring.", MID)).not.toBe("keyword-case");
  });

  it("refuses the third sentence in a row opening with the same word, and names that word for the next sentence", () => {
    const { gate: g, keep } = gate();
    keep("Often the heap is warm.");
    expect(g.repeatedOpening()).toBeUndefined();
    keep("Often the heap is wet.");
    expect(g.repeatedOpening()).toBe("often");
    expect(g.refuse("Often the heap is dry.", MID)).toBe("third-alike");
    expect(g.refuse("Sometimes the heap is dry.", MID)).toBeUndefined();
  });

  it("refuses a sentence that leaves a quotation open, a banned phrase, and a question inside a FAQ answer", () => {
    const { gate: g } = gate({ avoid: ["truly wonderful"] });
    expect(g.refuse('He said "turn it and left the garden.', MID)).toBe("unbalanced");
    expect(g.refuse("The heap was truly wonderful today.", MID)).toBe("banned");
    expect(g.refuse("Why does the heap smell?", { ...MID, answer: true })).toBe("question");
    expect(g.refuse("Why does the heap smell?", MID)).toBeUndefined();
  });

  it("refuses a primary keyword past its density cap, and past it only", () => {
    const { gate: g, keep } = gate({ length: 100 });
    // 100 words: the cap is 2 uses.
    keep("Compost bins suit a small garden well.");
    expect(g.refuse("Many people like their compost bins a lot.", MID)).toBeUndefined();
    keep("Many people like their compost bins a lot.");
    expect(g.refuse("Some neighbours share compost bins too.", MID)).toBe("density");
  });

  it("refuses a keyword opening past 40 % of the keyword sentences", () => {
    const { gate: g, keep } = gate();
    keep("Neighbours share their compost bins every week.");
    expect(g.refuse("Kitchen scraps go into the heap first.", MID)).toBe("keyword-opening");
    keep("Gardeners add kitchen scraps to the heap.");
    expect(g.refuse("Kitchen scraps rot quickly in summer heat.", MID)).toBeUndefined();
  });
});
