import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { acceptRequest } from "../../src/article/accept.js";
import { writeArticle } from "../../src/article/article.js";
import { TokenLedger } from "../../src/article/ledger.js";
import { GenerateRequestSchema } from "../../src/contract/request.js";
import { FakeBackend } from "../../scripts/fixtures/fake-backend.js";
import { distinctSentences, FakeWriter, scripted } from "../../scripts/fixtures/fake-writer.js";

async function drain(pieces: AsyncIterable<string>): Promise<void> {
  for await (const _ of pieces) {
    // Read the step whole.
  }
}

describe("TokenLedger", () => {
  it("counts the generated tokens a cut drops, by why, and no forced text", async () => {
    const ledger = TokenLedger.of(new FakeWriter(scripted(["One two three.", " Four five six."])));
    ledger.append("Forced opening.");
    await drain(ledger.generate({ maxTokens: 10, seed: 1 }));
    expect(ledger.usage.completionTokens).toBe(3);
    // " Four" and " five" go; " six." was never written.
    await drain(ledger.generate({ maxTokens: 2, seed: 1 }));
    ledger.cut(ledger.text.length - " Four five".length, "duplicate");
    expect(ledger.discarded).toEqual({ duplicate: 2 });
    // Cutting into forced text counts only what was generated after it.
    ledger.cut("Forced".length, "unbalanced");
    expect(ledger.discarded).toEqual({ duplicate: 2, unbalanced: 3 });
    expect(ledger.text).toBe("Forced");
  });

  it("counts a piece the cut goes through as lost whole", async () => {
    const ledger = TokenLedger.of(new FakeWriter(scripted(["alpha beta"])));
    await drain(ledger.generate({ maxTokens: 5, seed: 1 }));
    ledger.cut("alpha be".length, "steering");
    expect(ledger.discarded).toEqual({ steering: 1 });
  });

  it("is the writer it wraps when given a ledger", () => {
    const ledger = TokenLedger.of(new FakeWriter(scripted([])));
    expect(TokenLedger.of(ledger)).toBe(ledger);
  });
});

describe("usage.discardedTokens", () => {
  it("says what refused sentences cost: a model that repeats itself pays under `duplicate`", async () => {
    const request = v.parse(GenerateRequestSchema, { topic: "Home composting", length: 300, seed: 3, seo: { keywords: "compost bin" } });
    // Every sentence comes twice: the second is refused as a duplicate and its tokens discarded.
    function* twice(): Generator<string> {
      for (const sentence of distinctSentences()) {
        yield sentence;
        yield sentence;
      }
    }
    const { response } = await writeArticle(acceptRequest(request), { backend: new FakeBackend({ prose: twice }) });
    const { discardedTokens, completionTokens } = response.usage;
    expect(discardedTokens.duplicate).toBeGreaterThan(20);
    const total = Object.values(discardedTokens).reduce((n, t) => n + t, 0);
    expect(total).toBeLessThan(completionTokens);
    expect(response.article.markdown.split(/(?<=\.)\s/).filter((s, i, all) => s.trim() && all.indexOf(s) !== i)).toEqual([]);
  });

  it("names only the documented reasons", async () => {
    const request = v.parse(GenerateRequestSchema, {
      topic: "Home composting",
      length: 600,
      seed: 5,
      seo: { keywords: "compost bin, kitchen scraps" },
    });
    const { response } = await writeArticle(acceptRequest(request), { backend: new FakeBackend() });
    const documented = [
      "duplicate",
      "near-duplicate",
      "repeats",
      "keyword-twice",
      "third-alike",
      "density",
      "unbalanced",
      "banned",
      "keyword-case",
      "keyword-opening",
      "weak-opening",
      "question",
      "outline",
      "steering",
      "over-budget",
      "step-end",
      "unfinished",
      "heading",
      "other",
    ];
    for (const reason of Object.keys(response.usage.discardedTokens)) expect(documented).toContain(reason);
  });
});
