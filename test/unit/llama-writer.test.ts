import { existsSync } from "node:fs";
import path from "node:path";
import { getLlama, LlamaLogLevel, type Llama, type LlamaContext, type LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grammarBias, LlamaWriter } from "../../src/model/llama-writer.js";

const STORIES_MODEL = path.resolve(import.meta.dirname, "../../../shared/models/stories260K.gguf");
const HAS_STORIES_MODEL = existsSync(STORIES_MODEL);
if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the writer's window needs ${STORIES_MODEL}, which is not there.`);

// The in-process writer on the real runtime: what the model keeps in view as the answer grows.
describe.skipIf(!HAS_STORIES_MODEL)("LlamaWriter on stories260K: its window and a grammar step's bias", () => {
  let llama: Llama;
  let model: LlamaModel;
  let context: LlamaContext;
  beforeAll(async () => {
    llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error, logger: () => {} });
    model = await llama.loadModel({ modelPath: STORIES_MODEL });
    context = await model.createContext({ contextSize: 2048, sequences: 1, threads: { ideal: 1, min: 1 } });
  });
  afterAll(async () => {
    await llama?.dispose();
  });

  /** An answer of at least `tokens` generated tokens after a pinned heading; returns the writer and its sequence. */
  async function write(window: number, tokens: number) {
    const sequence = context.getSequence();
    const writer = new LlamaWriter({
      llama,
      model,
      sequence,
      window,
      tokenizePrompt: (p) => model.tokenize(p.completion, false),
      release: () => sequence.dispose(),
    });
    await writer.begin({ system: "", user: "", completion: "Once upon a time, there was a little dog named Spot." });
    writer.append("\n\nTitle: Spot and the ball\n\n");
    writer.pin();
    const pinnedText = writer.text;
    for (let seed = 1; writer.usage.completionTokens < tokens; seed++) {
      for await (const _ of writer.generate({ maxTokens: tokens - writer.usage.completionTokens, seed })) {
        // Read the step whole.
      }
      if (writer.stopReason === "end") writer.append("\n\n");
    }
    const promptTokens =
      model.tokenize("Once upon a time, there was a little dog named Spot.", false).length + model.tokenize(pinnedText, false).length;
    return { writer, sequence, promptTokens };
  }

  it("keeps the instructions, what is pinned and at most the window of the latest answer in view; older text stays in the answer", async () => {
    const { writer, sequence, promptTokens } = await write(64, 400);
    expect(writer.usage.completionTokens).toBeGreaterThanOrEqual(400);
    // The pinned heading is still what the model reads first after the instructions.
    expect(model.detokenize(sequence.contextTokens)).toContain("Title: Spot and the ball");
    expect(sequence.contextTokens.length).toBeLessThanOrEqual(promptTokens + 64 + 4);
    // The answer keeps every word; only the model's view is bounded.
    expect(writer.text.length).toBeGreaterThan(800);
    // Shifts move the cache, never evaluate the kept tokens again: the prompt tokens stay those of the forced text.
    expect(writer.usage.promptTokens).toBeLessThan(promptTokens + 40);
    sequence.dispose();
  });

  it("without a window, the view holds the whole answer", async () => {
    const { writer, sequence, promptTokens } = await write(0, 400);
    expect(sequence.contextTokens.length).toBeGreaterThanOrEqual(promptTokens + 390);
    expect(writer.usage.completionTokens).toBeGreaterThanOrEqual(400);
    sequence.dispose();
  });

  /** A writer on a fresh sequence of the shared context, its prompt plain completion text. */
  function plainWriter() {
    const sequence = context.getSequence();
    const writer = new LlamaWriter({
      llama,
      model,
      sequence,
      tokenizePrompt: (p) => model.tokenize(p.completion, false),
      release: () => sequence.dispose(),
    });
    return { sequence, writer };
  }

  // A grammar step's bias: tokens its `impossible` pattern names are never sampled.
  async function sample(impossible: RegExp | undefined) {
    const { writer } = plainWriter();
    await writer.begin({ system: "", user: "", completion: "Once upon a time, there was a little girl named Lily. She" });
    for await (const _ of writer.generate({
      maxTokens: 60,
      seed: 3,
      grammar: "root ::= [a-zA-Z ,.]+",
      ...(impossible ? { impossible } : {}),
    })) {
      // Read the step whole.
    }
    await writer.dispose();
    return writer.text;
  }

  it("reads forced pieces as the tokens of the whole text: no space a SentencePiece tokenizer puts before a text", async () => {
    const { sequence, writer } = plainWriter();
    const opening = "Once upon a time, there was a little dog named Spot.";
    await writer.begin({ system: "", user: "", completion: opening });
    writer.append(" He ran to the park");
    writer.append("\n\nThe end");
    for await (const _ of writer.generate({ maxTokens: 1, seed: 1 })) {
      // One token: the step evaluates the prompt and the pieces.
    }
    // The model tokenizes the whole text with one space prefix; a piece tokenized as a text would get another.
    expect(sequence.contextTokens).toEqual(model.tokenize(`${opening} He ran to the park\n\nThe end`, false));
    expect(writer.usage.promptTokens).toBe(sequence.contextTokens.length);
    await writer.dispose();
  });

  it("never samples a token whose text the step's pattern names, and builds one bias per model and pattern", async () => {
    // stories260K writes "e" in nearly every word; the grammar alone admits it.
    expect(await sample(undefined)).toMatch(/e/u);
    const text = await sample(/e/u);
    expect(text.length).toBeGreaterThan(20);
    expect(text).not.toMatch(/e/u);
    expect(grammarBias(model, /e/u)).toBe(grammarBias(model, /e/u));
    expect(grammarBias(model, /e/u)).not.toBe(grammarBias(model));
  });
});
