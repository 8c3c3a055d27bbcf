import { describe, expect, it } from "vitest";
import { generateSentences, type StepOptions, type Verdict } from "../../src/article/body/step.js";
import { TokenLedger } from "../../src/article/ledger.js";
import { AvoidList } from "../../src/article/plan/avoid.js";
import { sentenceWords } from "../../src/article/plan/limits.js";
import { countWords } from "../../src/article/text/text.js";
import { FakeWriter, scripted, type Script } from "../../scripts/fixtures/fake-writer.js";

// One step of the body pass on the scripted writer: what it hands to `take`, what it keeps in
// the answer and what it cuts, and why.

/** Run one step over `script` after `before` (forced text), taking every sentence with `verdicts` in turn ("more" once they run out). */
async function step(script: Script, options: { language?: string; before?: string; verdicts?: Verdict[]; avoid?: string[] } & Partial<StepOptions> = {}) {
  const { language = "en", before = "# Title\n\n", verdicts = [], avoid = [], ...rest } = options;
  const fake = new FakeWriter(script);
  const writer = TokenLedger.of(fake);
  writer.append(before);
  const taken: Array<{ sentence: string; breakBefore: boolean }> = [];
  const result = await generateSentences({
    writer,
    language,
    spaced: !["ja", "zh", "th"].includes(language),
    avoid: new AvoidList({ style: { avoid, cliches: false }, language }),
    mark: writer.text.length,
    maxTokens: 400,
    seed: () => 1,
    take: (sentence, breakBefore) => {
      taken.push({ sentence, breakBefore });
      return verdicts[taken.length - 1] ?? "more";
    },
    ...rest,
  });
  return { result, taken, writer, fake, sentences: taken.map((t) => t.sentence) };
}

/** A sentence of `n` words, without commas (cut mid-way when split). */
const sentenceOf = (n: number, word: (i: number) => string) => `${Array.from({ length: n }, (_, i) => word(i)).join(" ")}.`.replace(/^./, (c) => c.toUpperCase());

describe("a step's sentences and the language's longest sentence", () => {
  const cases = [
    { language: "en", words: 23, split: true },
    { language: "es", words: 23, split: false },
    { language: "ru", words: 18, split: true },
  ];
  for (const { language, words, split } of cases) {
    it(`${split ? "splits" : "keeps whole"} a ${words}-word ${language} sentence (the limit there is ${sentenceWords(language)} words)`, async () => {
      const long = sentenceOf(words, (i) => `word${String.fromCharCode(97 + (i % 26))}`);
      const { sentences } = await step(scripted([` ${long} Then the model wrote another one here.`]), { language });
      const parts = split ? 2 : 1;
      expect(sentences.slice(0, parts).map((s) => countWords(s, language)).reduce((a, b) => a + b, 0)).toBe(words);
      for (const s of sentences.slice(0, parts)) expect(countWords(s, language)).toBeLessThanOrEqual(sentenceWords(language));
      expect(sentences[parts]).toBe("Then the model wrote another one here.");
    });
  }
});
