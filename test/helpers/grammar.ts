import { getLlama, LlamaLogLevel, type Llama, type LlamaGrammar } from "node-llama-cpp";
import { afterAll, beforeAll } from "vitest";

/** llama.cpp's own check of a whole text against a grammar (internal to node-llama-cpp, so guarded). */
export function accepts(grammar: LlamaGrammar, text: string): boolean {
  const test = (grammar as unknown as { _testText?: (text: string) => boolean })._testText;
  if (typeof test !== "function") throw new Error("node-llama-cpp no longer has LlamaGrammar._testText");
  return test.call(grammar, text);
}

/**
 * llama.cpp without a model, for the enclosing `describe`: loaded before its tests, disposed
 * after. Returns a getter, since it exists only once they run.
 */
export function grammarLlama(): () => Llama {
  let llama: Llama | undefined;
  beforeAll(async () => {
    llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error, logger: () => {} });
  });
  afterAll(async () => {
    await llama?.dispose();
  });
  return () => llama!;
}
