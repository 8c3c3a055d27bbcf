import { describe, expect, it } from "vitest";
import { freeTextGrammar } from "../../src/article/gbnf/free-text.js";
import { lengthInterrupt } from "../../src/article/body/sentence-length.js";
import { generateSentences } from "../../src/article/body/step.js";
import { TokenLedger } from "../../src/article/ledger.js";
import { AvoidList } from "../../src/article/plan/avoid.js";
import { sentenceSpan, type HouseVoice } from "../../src/article/plan/voice.js";
import { countWords } from "../../src/article/text/text.js";
import { FakeWriter, scripted } from "../../scripts/fixtures/fake-writer.js";
import { accepts, grammarLlama } from "../helpers/grammar.js";

// A house voice's sentence length, kept by the body step while the model samples: a sentence
// that reaches the voice's most words ends there, one ended short of its least goes on.

const SPAN = { least: 6, most: 8 };

async function step(script: string[], sentence?: typeof SPAN) {
  const fake = new FakeWriter(scripted(script));
  const writer = TokenLedger.of(fake);
  writer.append("# Title\n\n");
  const taken: string[] = [];
  await generateSentences({
    writer,
    language: "en",
    spaced: true,
    avoid: new AvoidList({ style: { avoid: [], cliches: false }, language: "en" }),
    mark: writer.text.length,
    maxTokens: 400,
    seed: () => 1,
    ...(sentence ? { sentence: () => sentence } : {}),
    take: (s) => {
      taken.push(s);
      return "more";
    },
  });
  const grammars = fake.events.flatMap((e) => (e.type === "generate" ? [e.options.grammar ?? ""] : []));
  return { taken, grammars, writer, fake };
}

// The model's own text: a 10-word sentence, then one of 3 words; each later call goes on as its grammar asks.
const SCRIPT = [" One two three four five six seven eight nine ten. Short one two. Then", ". Short one two.", " and more words. Done now."];

describe("a step with a voice's sentence span", () => {
  it("without a span, keeps the model's own lengths", async () => {
    const { taken } = await step(SCRIPT);
    expect(taken.slice(0, 2).map((s) => countWords(s, "en"))).toEqual([10, 3]);
  });

  it("ends a sentence at the most words (the model's terminator, under a grammar), and cuts a short one's end so it goes on", async () => {
    const { taken, grammars, writer, fake } = await step(SCRIPT, SPAN);
    expect(taken.slice(0, 2)).toEqual(["One two three four five six seven eight.", "Short one two and more words."]);
    for (const s of taken.slice(0, 2)) expect(countWords(s, "en")).toBeGreaterThanOrEqual(SPAN.least);
    for (const s of taken.slice(0, 2)) expect(countWords(s, "en")).toBeLessThanOrEqual(SPAN.most);
    // Nothing was appended for the model: what it wrote was cut back, and each next call asked for the end or more words.
    expect(fake.appended()).toEqual(["# Title\n\n"]);
    expect(fake.removed().slice(0, 2)).toEqual([" nine", "."]);
    expect(grammars[1]).toContain(String.raw`root ::= [.!?] ([ \n] tail)?`);
    expect(grammars[2]).toMatch(/root ::= \[,;:\]\? \(" " .*\)\{3\} tail/);
    expect(writer.discarded["sentence-length"]).toBeGreaterThan(0);
  });
});

describe("where a span ends a sentence", () => {
  it("before the words it would hang on, but never before a quotation's first word (an empty quotation read 'said, \".\"')", () => {
    const at = (sentence: string) => lengthInterrupt(`${sentence} park`, 0, sentence.length, " park", { least: 3, most: 6 }, "en");
    expect(at("Tom saw it and went to the")).toEqual({ kind: "close", at: "Tom saw it and went".length });
    const quoted = 'Tom saw it and said, "the';
    expect(at(quoted)).toEqual({ kind: "close", at: quoted.length });
  });
});

describe("the grammars a span asks for", () => {
  const llama = grammarLlama();
  it("an end now: a terminator first; more words: no end until they are written", async () => {
    const close = await llama().createGrammar({ grammar: freeTextGrammar({ pending: " One two", spaced: true, close: true }) });
    expect(accepts(close, ". Then more")).toBe(true);
    expect(accepts(close, " three.")).toBe(false);
    expect(accepts(close, ".")).toBe(true);
    // A closer glued on that closes nothing would break the sentence (a random-weight model wrote "jolu?)" a hundred times an article).
    expect(accepts(close, "?) Then")).toBe(false);
    expect(accepts(close, '." Then')).toBe(false);
    const bracket = await llama().createGrammar({ grammar: freeTextGrammar({ pending: " One (two", spaced: true, close: true }) });
    expect(accepts(bracket, ".) Then")).toBe(true);
    expect(accepts(bracket, ". Then")).toBe(false);
    const quoted = await llama().createGrammar({ grammar: freeTextGrammar({ pending: ' She said, "Look at', spaced: true, close: true }) });
    expect(accepts(quoted, '!" Then more')).toBe(true);
    expect(accepts(quoted, ". Then more")).toBe(false);
    const more = await llama().createGrammar({ grammar: freeTextGrammar({ pending: " Short one", spaced: true, lengthen: 2 }) });
    expect(accepts(more, ", and more. Then")).toBe(true);
    expect(accepts(more, " and. Then")).toBe(false);
    expect(accepts(more, ". Then")).toBe(false);
    expect(accepts(more, " and\nmore")).toBe(false);
  });
});

describe("a voice's sentence span", () => {
  const voice = { language: "en", sentenceWords: { mean: 10, p10: 5.4, p90: 14.6, min: 8, max: 12 } } as HouseVoice;
  it("runs from the voice's 10th to its 90th percentile, for an article in the voice's language", () => {
    expect(sentenceSpan(voice, "en")).toEqual({ least: 5, most: 15 });
    expect(sentenceSpan(voice, "de")).toBeUndefined();
    expect(sentenceSpan(undefined, "en")).toBeUndefined();
  });
});
