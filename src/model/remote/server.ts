import type { Prompt, Prompting } from "../backend.js";
import type { UpstreamError } from "./errors.js";

/** One generation step sent upstream: the whole prompt, the server's cache keeps what it has already read. */
export interface CompletionStep {
  /** The instructions in the model's format, then the visible answer. */
  prompt: string;
  maxTokens: number;
  seed: number;
  /** GBNF, root rule `root`. */
  grammar?: string;
  /** The server slot to run on, so the article's cache is reused there; -1 for any. */
  slot: number;
  /** Evaluate the whole prompt, ignoring the slot's cache: an article never depends on the one before it. */
  fresh: boolean;
  signal?: AbortSignal;
}

/** How a step went, kept up to date by the endpoint as the stream arrives (so an aborted step is counted too). */
export interface StepReport {
  /** Set when the server ends the step; unset after an abort. */
  stopReason?: "end" | "length";
  /** Prompt tokens the server evaluated (its cache not counted). */
  promptTokens: number;
  /** All tokens of the prompt, cached or not, once the server said. */
  promptTotal?: number;
  completionTokens: number;
}

/**
 * A completion endpoint: yields the text pieces of one step and fills in `report`. Ends
 * quietly when the step's signal aborts; throws {@link UpstreamError} when the server fails.
 */
export type Complete = (step: CompletionStep, report: StepReport) => AsyncGenerator<string, void, undefined>;

/** What the writers need from one inference server, found when connecting. */
export interface RemoteServer {
  /** Which server this is, for `/healthz`. */
  readonly kind: "llama-server" | "vllm";
  /** The model's name. */
  readonly name: string;
  readonly prompting: Prompting;
  /** Tokens one slot holds. */
  readonly contextSize: number;
  /** Slots the server runs at once, when it says. */
  readonly slots: number | undefined;
  /** Whether steps run on a chosen slot, so each article keeps its own cache. */
  readonly pinsSlots: boolean;
  /** The text before the answer: the chat template applied to the system and user turns, or the completion prompt. */
  promptPrefix(prompt: Prompt, signal?: AbortSignal): Promise<string>;
  /** Tokens the server makes of this prompt text. */
  countTokens(text: string, signal?: AbortSignal): Promise<number>;
  complete: Complete;
}
