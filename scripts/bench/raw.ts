/**
 * Raw node-llama-cpp decoding, the floor an engine's wall is held against: today's runtime on
 * the model (one thread, one sequence, as `inkpress serve --threads 1 --sequences 1` runs), the
 * article's prompt as today's engine words it, then as many tokens as an article generated,
 * sampled as the writer samples, on one sequence. No grammar, no forced text, no cuts.
 */
import type { LlamaContextSequence, Token } from "node-llama-cpp";
import { plan } from "../../src/article/plan/plan.js";
import { articlePrompt } from "../../src/article/plan/prompts.js";
import { GenerateRequestSchema } from "../../src/contract/request.js";
import type { Prompt } from "../../src/model/backend.js";
import { ModelRuntime } from "../../src/model/runtime.js";
import { SAMPLING } from "../../src/model/sampling.js";

/** The process's CPU time, ms (every thread). */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** One raw decoding run: its wall and CPU time, and the prompt tokens it evaluated. */
export interface RawRun {
  wallMs: number;
  cpuMs: number;
  prompt: number;
}

/** Raw decoding on one model, loaded once. */
export class RawDecoder {
  private constructor(private readonly runtime: ModelRuntime) {}

  /** Today's runtime on `modelPath`, one thread and one sequence. */
  static async load(modelPath: string): Promise<RawDecoder> {
    return new RawDecoder(await ModelRuntime.load({ modelPath, threads: 1, sequences: 1, queueSize: 0 }));
  }

  /** The prompt of `request` (an article request's JSON), then `tokens` tokens. */
  async run(request: object, tokens: number): Promise<RawRun> {
    const writer = (await this.runtime.writer()) as unknown as {
      options: { sequence: LlamaContextSequence; tokenizePrompt: (p: Prompt) => Token[] };
      dispose(): Promise<void>;
    };
    try {
      const { sequence, tokenizePrompt } = writer.options;
      const parsed = GenerateRequestSchema["~standard"].validate(request);
      if (parsed instanceof Promise || parsed.issues) throw new Error("the bench request is not valid");
      const format = this.runtime.prompting === "chat-template" ? "json" : "lines";
      const prompt = tokenizePrompt(articlePrompt(plan(parsed.value), format));
      const seed = Number((request as { seed?: number }).seed ?? 1);
      const [t0, c0] = [performance.now(), cpuMs()];
      await sequence.clearHistory();
      const generated: Token[] = [];
      const options = { temperature: SAMPLING.temperature, topK: SAMPLING.topK, topP: SAMPLING.topP, minP: SAMPLING.minP, seed };
      const punish = { punishTokens: () => generated.slice(-SAMPLING.repeatLastN), penalty: SAMPLING.repeatPenalty };
      for await (const token of sequence.evaluate(prompt, { ...options, yieldEogToken: true, repeatPenalty: punish })) {
        generated.push(token);
        if (generated.length >= tokens) break;
      }
      return { wallMs: performance.now() - t0, cpuMs: cpuMs() - c0, prompt: prompt.length };
    } finally {
      await writer.dispose();
    }
  }

  /** Frees the model. */
  dispose(): Promise<void> {
    return this.runtime.dispose();
  }
}
