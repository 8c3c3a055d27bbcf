import type { Prompt, Prompting } from "../backend.js";
import type { UpstreamError } from "./errors.js";

/**
 * How prompts travel: as the server's token ids (its cache then always matches), as text the
 * server tokenizes again, or as chat messages the server applies its own chat template to (Ollama's
 * `/api/chat`, for a template inkpress does not know).
 */
export type PromptForm = "token-ids" | "text" | "messages";

/** The turns of a step as chat messages, for a server that applies its own chat template: request text with its tags broken. */
export interface Turns {
  system: string;
  user: string;
  /** The answer so far, which the server is asked to continue. */
  answer: string;
}

/** One generation step sent upstream: the whole prompt, the server's cache keeps what it has already read. */
export interface CompletionStep {
  /** The instructions in the model's format, then the visible answer: token ids, or text where the server takes no ids. */
  prompt: number[] | string;
  /** The same step as messages, where the server takes them (`prompts: "messages"`). */
  turns?: Turns;
  maxTokens: number;
  seed: number;
  /** GBNF, root rule `root`. */
  grammar?: string;
  /** Token ids never to sample: the server's control tokens, on a grammar-constrained step. */
  banned?: readonly number[];
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
  /**
   * The text the server's cache holds after the step, where it is not the prompt and the pieces
   * yielded (Ollama's format answer: its quotes, which the answer leaves out).
   * @default the prompt, then the pieces
   */
  held?: string;
}

/** Generated text and the token ids it came from; `ids` is undefined where the server did not say them. */
export interface Generated {
  text: string;
  ids: number[] | undefined;
}

/**
 * A completion endpoint: yields what one step generates and fills in `report`. Ends quietly when
 * the step's signal aborts; throws {@link UpstreamError} when the server fails.
 */
export type Complete = (step: CompletionStep, report: StepReport) => AsyncGenerator<Generated, void, undefined>;

/**
 * The instructions before the answer, as token ids (with BOS where the model wants one; control
 * tokens only where the chat template put them, never from request text) and as text for a
 * server that takes text (tags in request text broken, so it cannot read control tokens there).
 */
export interface PromptPrefix {
  tokens: number[];
  text: string;
  /** The system and user turns on their own, where the server applies the chat template itself. */
  turns?: Omit<Turns, "answer">;
}

/** What the writers need from one inference server, found when connecting. */
export interface RemoteServer {
  /** Which server this is, for `/healthz`. */
  readonly kind: "llama-server" | "vllm" | "ollama";
  /** The model's name. */
  readonly name: string;
  readonly prompting: Prompting;
  /** Tokens one slot holds. */
  readonly contextSize: number;
  /** Slots the server runs at once, when it says. */
  readonly slots: number | undefined;
  /** Whether steps run on a chosen slot, so each article keeps its own cache. */
  readonly pinsSlots: boolean;
  /** How `complete` takes its prompt. */
  readonly prompts: PromptForm;
  /**
   * The server's prompt count holds the tokens its cache reused (Ollama's `prompt_eval_count`): the
   * writer counts as evaluated only the share of the prompt past what its last step sent.
   * @default false
   */
  readonly countsCached?: boolean;
  /**
   * Where a cheap GET tells whether the server is up.
   * @default "/health" (llama-server, vLLM)
   */
  readonly healthPath?: string;
  /**
   * The model's control tokens but end of generation, where the server names them (llama-server):
   * a grammar built from request text could otherwise let the sampler take one for its characters.
   */
  readonly controlIds?: readonly number[];
  /**
   * The ids a grammar step bans: the control tokens, and where the server can say every token's
   * text, those whose text matches the step's `impossible` pattern (`GenerateOptions.impossible`).
   * @default the control tokens alone
   */
  bans?(impossible?: RegExp, signal?: AbortSignal): Promise<readonly number[]>;
  /**
   * The text before the answer: the chat template applied to the system and user turns, or the completion prompt; request text in it is
   * never read as control tokens.
   */
  promptPrefix(prompt: Prompt, signal?: AbortSignal): Promise<PromptPrefix>;
  /** The token ids of forced text inside the answer (no BOS, no special tokens parsed, no leading space added). */
  tokenize(text: string, signal?: AbortSignal): Promise<number[]>;
  complete: Complete;
}
