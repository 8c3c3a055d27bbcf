import path from "node:path";
import {
  resolveChatWrapper,
  type ChatWrapper,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaModel,
  type Token,
} from "node-llama-cpp";
import type { Prompt, Prompting, Writer } from "./backend.js";
import { ModelLoadError } from "./errors.js";
import { ggufProblem } from "./gguf.js";
import { flashAttentionFor, openLlama, type Compute, type GpuChoice, type GpuLayers } from "./gpu.js";
import { LlamaWriter } from "./llama-writer.js";
import { SlotPool } from "./pool.js";
import type { BackendReport } from "../contract/health.js";
import type { ReportingBackend } from "./report.js";

/** How to load a model. */
export interface RuntimeOptions {
  /** Path to a `.gguf` file. */
  modelPath: string;
  /** Decode threads (the default of node-llama-cpp is far too many on small machines). */
  threads: number;
  /** Generations that run at once, one context sequence each. */
  sequences: number;
  /** Requests that may wait for a free sequence. */
  queueSize: number;
  /**
   * Tokens per sequence; capped by what the model was trained on.
   * @default 4096
   */
  contextSize?: number;
  /**
   * Tokens of the latest prose a writer keeps in view besides what it pins (instructions, outline); 0: all the context holds.
   * @default 0
   */
  window?: number;
  /**
   * Where the model runs: the best GPU that works (else the CPU), a named one, or the CPU.
   * @default "auto"
   */
  gpu?: GpuChoice;
  /**
   * Layers to offload to the GPU.
   * @default "auto" (as many as fit)
   */
  gpuLayers?: GpuLayers;
}

export { ModelLoadError };

/** Tokens of context a model gets unless told otherwise (Ollama models too: its own default is smaller). */
export const DEFAULT_CONTEXT = 4096;

/**
 * The in-process backend: one llama.cpp runtime, one model, one context whose
 * sequences are lent out one per article. Loaded once per process; `dispose` frees
 * the native memory.
 */
export class ModelRuntime implements ReportingBackend {
  /** The model's name: GGUF `general.name`, else (also when it only repeats the architecture) the file name. */
  readonly name: string;
  /** Tokens one sequence can hold. */
  readonly contextSize: number;
  readonly prompting: Prompting;
  /** The compute backend in use and the layers offloaded to it. */
  readonly compute: Compute;
  /** Sequences and the queue of requests waiting for one. */
  readonly slots: SlotPool<LlamaContextSequence>;
  /** Chat wrapper for models with a chat template; undefined means plain completion. */
  private readonly chatWrapper: ChatWrapper | undefined;
  private readonly window: number;
  private readonly threads: number;

  private constructor(
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    options: RuntimeOptions,
    fallback: string | undefined,
  ) {
    // Converters write the architecture ("llama") when they know no name: that names no model.
    const general = model.fileInfo.metadata.general as { name?: string; architecture?: string } | undefined;
    const named = general?.name && general.name !== general.architecture ? general.name : undefined;
    this.name = named ?? path.basename(options.modelPath, ".gguf");
    this.contextSize = context.contextSize;
    this.window = options.window ?? 0;
    this.threads = options.threads;
    this.compute = { gpu: llama.gpu || "cpu", gpuLayers: model.gpuLayers, layers: model.fileInsights.totalLayers, fallback };
    const sequences: LlamaContextSequence[] = [];
    while (context.sequencesLeft > 0) sequences.push(context.getSequence());
    this.slots = new SlotPool(sequences, options.queueSize);
    const hasTemplate = Boolean((model.fileInfo.metadata.tokenizer as { chat_template?: string } | undefined)?.chat_template);
    this.chatWrapper = hasTemplate ? resolveChatWrapper(model) : undefined;
    this.prompting = this.chatWrapper ? "chat-template" : "completion";
  }

  /** Load a GGUF file; every failure becomes a {@link ModelLoadError} with a readable message. */
  static async load(options: RuntimeOptions): Promise<ModelRuntime> {
    await assertGguf(options.modelPath);
    const { llama, fallback } = await openLlama(options.gpu ?? "auto");
    try {
      const model = await llama.loadModel({ modelPath: options.modelPath, gpuLayers: options.gpuLayers ?? "auto" });
      const contextSize = Math.min(options.contextSize ?? DEFAULT_CONTEXT, model.trainContextSize);
      const context = await model.createContext({
        contextSize,
        sequences: options.sequences,
        threads: { ideal: options.threads, min: options.threads },
        flashAttention: flashAttentionFor(llama),
      });
      return new ModelRuntime(llama, model, context, options, fallback);
    } catch (error) {
      await llama.dispose();
      throw new ModelLoadError(`cannot load model ${options.modelPath}: ${(error as Error).message}`);
    }
  }

  /** The compute backend in use and the layers offloaded to it. */
  async report(): Promise<BackendReport> {
    return { kind: "in-process", ...this.compute };
  }

  async writer(signal?: AbortSignal): Promise<Writer> {
    const sequence = await this.slots.acquire(signal);
    return new LlamaWriter({
      llama: this.llama,
      model: this.model,
      sequence,
      window: this.window,
      tokenizePrompt: (prompt) => this.tokenize(prompt),
      release: () => this.slots.release(sequence),
    });
  }

  /** The tokens of a prompt, in the model's chat format when it has one, with the answer's turn open. */
  private tokenize(prompt: Prompt): Token[] {
    if (!this.chatWrapper) return this.model.tokenize(prompt.completion, false);
    const { contextText } = this.chatWrapper.generateContextState({
      chatHistory: [
        { type: "system", text: prompt.system },
        { type: "user", text: prompt.user },
        { type: "model", response: [] },
      ],
    });
    return contextText.tokenize(this.model.tokenizer);
  }

  /**
   * One embedding vector per text, from an embedding context made for the call and freed after
   * (the writing context stays as it is): what `inkpress plan` places a keyword no group shares a term with by.
   */
  async embeddings(texts: readonly string[]): Promise<number[][]> {
    await using context = await this.model.createEmbeddingContext({
      contextSize: Math.min(512, this.model.trainContextSize),
      threads: this.threads,
    });
    const vectors: number[][] = [];
    for (const text of texts) vectors.push([...(await context.getEmbeddingFor(text)).vector]);
    return vectors;
  }

  /** Free the context, the model and the native runtime. */
  async dispose(): Promise<void> {
    this.slots.close();
    // Freed as the scope ends, the last first (the context, the model, then the runtime), each even when one before it fails.
    await using _llama = this.llama;
    await using _model = this.model;
    await using _context = this.context;
  }

  /** Free it all as an `await using` scope ends: the CLI's commands hold their runtime so. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }
}

/** Fail early and plainly on a missing file or one that is not a GGUF model llama.cpp reads. */
export async function assertGguf(modelPath: string): Promise<void> {
  const problem = await ggufProblem(modelPath, { name: modelPath });
  if (problem) throw new ModelLoadError(problem);
}
