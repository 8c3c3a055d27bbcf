import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getLlama, LlamaChatSession, LlamaCompletion, LlamaLogLevel, type Llama, type LlamaModel } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeTestModel } from "../../scripts/make-test-model.js";

describe("tiny test model", () => {
  let dir: string;
  let llama: Llama;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "inkpress-test-model-"));
    llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error });
  });

  afterAll(async () => {
    await llama?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  async function load(variant: "plain" | "chat"): Promise<LlamaModel> {
    const modelPath = await writeTestModel({ path: join(dir, `${variant}.gguf`), variant });
    return llama.loadModel({ modelPath });
  }

  it("plain variant loads and completes text", async () => {
    const model = await load("plain");
    try {
      expect(model.fileInfo.metadata.general.name).toBe("inkpress-test-tiny");
      expect(model.fileInfo.metadata.tokenizer.chat_template).toBeUndefined();
      const context = await model.createContext({ contextSize: 2048, threads: 1 });
      const completion = new LlamaCompletion({ contextSequence: context.getSequence() });
      const text = await completion.generateCompletion("The best way to", { maxTokens: 20 });
      expect(text.trim()).not.toBe("");
    } finally {
      await model.dispose();
    }
  });

  it("chat variant loads, carries a chat template and answers a prompt", async () => {
    const model = await load("chat");
    try {
      expect(model.fileInfo.metadata.general.name).toBe("inkpress-test-tiny-chat");
      expect(model.fileInfo.metadata.tokenizer.chat_template).toContain("<|im_start|>");
      const context = await model.createContext({ contextSize: 2048, threads: 1 });
      const session = new LlamaChatSession({ contextSequence: context.getSequence() });
      const text = await session.prompt("Write about gardens.", { maxTokens: 20 });
      expect(text.trim()).not.toBe("");
    } finally {
      await model.dispose();
    }
  });
});
