import type { SlotQueue } from "./pool.js";

/** Tokens evaluated and generated, as reported in `usage`. */
export interface Usage {
  /** Tokens the backend had to evaluate (prompt, forced text, re-synced tokens): reused cache is not counted. */
  promptTokens: number;
  /** Tokens the model generated. */
  completionTokens: number;
}

/** The instructions of one article, before the model's answer. Chat models get the system and user turns, plain models `completion`. */
export interface Prompt {
  system: string;
  user: string;
  completion: string;
}

/** One generation step of a {@link Writer}. */
export interface GenerateOptions {
  /** Most tokens to generate in this step. */
  maxTokens: number;
  /** Sampling seed; the same seed on the same text gives the same tokens (same model, same threads). */
  seed: number;
  /**
   * GBNF grammar the generated text must follow (llama.cpp syntax, root rule `root`).
   * Generation ends when the grammar is complete or `maxTokens` run out.
   * @default undefined (free text)
   */
  grammar?: string;
  /**
   * Text no string the grammar admits holds anywhere (a character it never admits): the writer may
   * keep tokens whose text matches from being sampled. Only a saving, never a constraint of its own:
   * the grammar refuses such a token anyway, but a sampled token it refuses makes the sampler apply
   * the grammar to the whole vocabulary.
   * @default none
   */
  impossible?: RegExp;
  /**
   * Stops the step between two tokens; the text generated so far stays.
   * @default undefined (the step runs to its end)
   */
  signal?: AbortSignal;
}

/** Why the last {@link Writer.generate} step ended. */
export type StopReason = "end" | "length" | "caller";

/**
 * One article's conversation with the model: the instructions, then one assistant
 * answer that code and model write together. Code appends forced text (a heading,
 * JSON punctuation, the opening of a sentence) and the model continues it; code may
 * cut the answer back to an earlier point (a rejected sentence). Continuations stay in
 * the same answer, so what the model has already read is never evaluated again.
 *
 * The same interface is served in-process (a node-llama-cpp context sequence) and by
 * remote inference servers.
 */
export interface Writer {
  /** Counted over the writer's whole life. */
  readonly usage: Usage;
  /** The answer so far: forced and generated text. */
  readonly text: string;
  /** Why the last `generate` step ended. */
  readonly stopReason: StopReason;
  /** Start the answer after these instructions (in the model's chat format when it has one). */
  begin(prompt: Prompt): Promise<void>;
  /** Text the model sees as its own, evaluated with the next step. */
  append(text: string): void;
  /** Cut the answer back to its first `length` characters (never grows it). */
  truncate(length: number): void;
  /**
   * Keep the answer so far (the outline) whenever the context must shift: an article
   * longer than the context drops its oldest prose, never the instructions or what is pinned.
   */
  pin(): void;
  /** Let the model continue the answer; yields the text pieces as they are generated (each is also added to `text`). */
  generate(options: GenerateOptions): AsyncGenerator<string, void, undefined>;
  /** Give the slot back. */
  dispose(): Promise<void>;
}

/** How a backend formats prompts: the model's chat template, or plain text completion. */
export type Prompting = "chat-template" | "completion";

/** Where articles are written: a model loaded in-process, or an inference server. */
export interface Backend {
  /** The model's name, for responses and logs. */
  readonly name: string;
  readonly prompting: Prompting;
  /** Tokens one article's answer may hold before the context shifts. */
  readonly contextSize: number;
  /** The slots articles are written on, and the queue of requests waiting for one. */
  readonly slots: SlotQueue;
  /** A writer on a free slot, waiting in the queue for one; `signal` gives up the place in line. Dispose the writer to free the slot. */
  writer(signal?: AbortSignal): Promise<Writer>;
  /**
   * One embedding vector per text, from the loaded model (what the plan places a lone keyword by).
   * @default undefined: this backend has none (an inference server, the scripted test writer)
   */
  embeddings?(texts: readonly string[]): Promise<number[][]>;
  /** Refuse new work, turn away waiters, free everything. */
  dispose(): Promise<void>;
}
