import { describe, expect, it } from "vitest";
import { generateSentences, type StepOptions, type Verdict } from "../../src/article/body/step.js";
import { TokenLedger } from "../../src/article/ledger.js";
import { AvoidList } from "../../src/article/plan/avoid.js";
import { sentenceWords } from "../../src/article/plan/limits.js";
import { slotBreak } from "../../src/article/text/slot-words.js";
import { countWords } from "../../src/article/text/text.js";
import { FakeWriter, scripted, type Script } from "../../scripts/fixtures/fake-writer.js";

// One step of the body pass on the scripted writer: what it hands to `take`, what it keeps in
// the answer and what it cuts, and why.

/** Run one step over `script` after `before` (forced text), taking every sentence with `verdicts` in turn ("more" once they run out). */
async function step(
  script: Script,
  options: { language?: string; before?: string; verdicts?: Verdict[]; avoid?: string[] } & Partial<Omit<StepOptions, "avoid">> = {},
) {
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
const sentenceOf = (n: number, word: (i: number) => string) =>
  `${Array.from({ length: n }, (_, i) => word(i)).join(" ")}.`.replace(/^./, (c) => c.toUpperCase());

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
      expect(
        sentences
          .slice(0, parts)
          .map((s) => countWords(s, language))
          .reduce((a, b) => a + b, 0),
      ).toBe(words);
      for (const s of sentences.slice(0, parts)) expect(countWords(s, language)).toBeLessThanOrEqual(sentenceWords(language));
      expect(sentences[parts]).toBe("Then the model wrote another one here.");
    });
  }
});

describe("a step", () => {
  it("hands each whole sentence to take, and ends on the verdict that ends it, cutting what follows", async () => {
    const { result, sentences, writer } = await step(
      scripted([" One two three four. Five six seven eight. Nine ten eleven twelve. Thirteen"]),
      { verdicts: ["more", "paragraph"] },
    );
    expect(sentences).toEqual(["One two three four.", "Five six seven eight."]);
    expect(result).toMatchObject({ outcome: "paragraph", accepted: 2, words: 8 });
    // The answer ends on the last sentence kept: what the model wrote after it went, counted as the step's end.
    expect(writer.text).toBe("# Title\n\n One two three four. Five six seven eight.");
    expect(writer.discarded["step-end"]).toBeGreaterThan(0);
  });

  it("ends on a refusal, the refused sentence cut and counted under the refusal", async () => {
    const { result, writer } = await step(scripted([" One two three four. Five six seven eight. Nine"]), {
      verdicts: ["more", "duplicate"],
    });
    expect(result).toMatchObject({ outcome: "rejected", accepted: 1, refusal: "duplicate" });
    expect(writer.text).toBe("# Title\n\n One two three four.");
    expect(writer.discarded.duplicate).toBeGreaterThan(0);
  });

  it("ends before a sentence that would pass the budget, which is cut as over budget", async () => {
    const { result, writer } = await step(scripted([" One two three four. Five six seven eight. Nine"]), { verdicts: ["more", "stop"] });
    expect(result).toMatchObject({ outcome: "full", accepted: 1 });
    expect(writer.text).toBe("# Title\n\n One two three four.");
    expect(writer.discarded["over-budget"]).toBeGreaterThan(0);
  });

  it("rejects a heading the model starts on its own", async () => {
    const { result, writer } = await step(scripted([" One two three four.\n\n## A heading of its own\n\nMore"]));
    expect(result).toMatchObject({ outcome: "rejected", accepted: 1 });
    expect(writer.text).toBe("# Title\n\n One two three four.");
    expect(writer.discarded.heading).toBeGreaterThan(0);
  });

  it("takes the model's last sentence when it stops, and says it ended", async () => {
    const { result, sentences } = await step(scripted([" One two three four. Five six seven eight"]));
    expect(sentences).toEqual(["One two three four.", "Five six seven eight."]);
    expect(result.outcome).toBe("ended");
  });

  it("refuses a banned phrase the moment it is completed: cut back to its last word, the next call's grammar refuses that word", async () => {
    // The phrase is complete with its last letter, whatever follows: nothing after it is written first.
    const { fake, writer, sentences } = await step(scripted([" The heap was truly wonderful and", " lovely today and warm. Then"]), {
      avoid: ["truly wonderful"],
    });
    expect(fake.removed()[0]).toBe(" wonderful");
    const second = fake.events.filter((e) => e.type === "generate")[1];
    expect(second?.type === "generate" && second.options.grammar).toMatch(/^root ::= " "\? \(/);
    expect(sentences[0]).toBe("The heap was truly lovely today and warm.");
    expect(writer.discarded.banned).toBeGreaterThan(0);
  });

  it("steers an owed keyword in after a few of the model's own words, never as the sentence's opening", async () => {
    const { sentences, fake } = await step(scripted([" Most gardeners like to use the old shed", " that stand by the fence. Then"]), {
      steer: () => "compost bins",
    });
    // Right after "like", a slot word, once the model wrote two words of its own; its next call goes on from the keyword.
    expect(fake.appended()).toContain(" compost bins");
    expect(sentences[0]).toBe("Most gardeners like compost bins that stand by the fence.");
  });
});

describe("slot rules: a keyword goes where a noun phrase can stand", () => {
  it("never steers a keyword after an infinitive 'to' or a conjunction; the next determiner takes it", async () => {
    const { sentences, fake } = await step(scripted([" Timmy was so happy to play and then saw the old shed", " in the sun. Then"]), {
      steer: () => "garden waste",
    });
    expect(fake.appended()).toContain(" garden waste");
    expect(sentences[0]).toBe("Timmy was so happy to play and then saw the garden waste in the sun.");
  });

  it("leaves the keyword owed through a sentence without a slot word, rather than forcing it between two verbs", async () => {
    const { sentences, fake } = await step(scripted([" Timmy came home and Lily sang loudly all day long. Then"]), {
      steer: () => "compost bin",
    });
    expect(fake.appended()).not.toContain(" compost bin");
    expect(sentences[0]).toBe("Timmy came home and Lily sang loudly all day long.");
  });

  it("steers a question keyword as a whole question at a sentence's start, never mid-sentence", async () => {
    let asked = 0;
    const { sentences } = await step(scripted([" Then the cook smiled", " Coffee keeps well in a tin. It"]), {
      before: "# Title\n\nThe pot was warm.",
      steer: () => (asked++ === 0 ? "does coffee go bad" : undefined),
    });
    expect(sentences.slice(0, 2)).toEqual(["Does coffee go bad?", "Coffee keeps well in a tin."]);
  });

  it.each([
    ["Timmy was so happy to garden waste.", "garden waste", "after “to”"],
    ["His friends came home and compost bin and drank it.", "compost bin", "after “and”"],
    ["Then she saw a does coffee go bad.", "does coffee go bad", "mid-sentence"],
    ["Does coffee go bad?", "does coffee go bad", undefined],
    ["Timmy went to the compost bin.", "compost bin", undefined],
    ["Compost bins keep rain out.", "compost bins", undefined],
    ["Sie gingen zu Zimmerpflanzen.", "Zimmerpflanzen", "after “zu”"],
  ])("slotBreak(%j, %j) is %j", (sentence, keyword, expected) => {
    const language = /Sie /.test(sentence) ? "de" : "en";
    expect(slotBreak(sentence, keyword, language)).toBe(expected);
  });
});
