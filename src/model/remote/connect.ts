import { ModelLoadError } from "../errors.js";
import { RemoteBackend } from "./backend.js";
import { UpstreamError } from "./errors.js";
import { UpstreamHealth } from "./health.js";
import { llamaServer } from "./llama-server.js";
import { refuseLmStudio } from "./lmstudio.js";
import { ollamaServer } from "./ollama.js";
import { openaiServer } from "./openai.js";
import { SAMPLING } from "../sampling.js";
import type { RemoteServer } from "./server.js";
import { Upstream, type UpstreamOptions } from "./upstream.js";
import { vllmServer } from "./vllm.js";

/** How to use an inference server. */
export interface ConnectOptions extends UpstreamOptions {
  /**
   * Articles in flight upstream at once.
   * @default the server's slot count (llama-server's `total_slots`), else 1
   */
  sequences?: number;
  /**
   * Requests that may wait for one of the `sequences`; beyond that the backend has no room.
   * @default 16
   */
  queueSize?: number;
  /**
   * Which completion endpoint to drive: llama-server's native `/completion` (pinned slots, a
   * fresh cache per article) or the OpenAI-compatible `/v1/completions`.
   * @default "native" where the server is llama-server, else "openai"
   */
  api?: "native" | "openai";
  /**
   * The model to write with, on a server that holds several (Ollama).
   * @default the only one it holds
   */
  model?: string;
}

/**
 * A backend on the inference server at `url`: llama-server, Ollama (its own API), or an
 * OpenAI-compatible server (vLLM). Probes what the engine needs (context size, token counts, the chat template, GBNF
 * grammars, usage) and fails with a one-line {@link ModelLoadError} when something is missing
 * or the server cannot be reached, so a server that would write worse articles is never used.
 */
export async function connectBackend(url: string, options: ConnectOptions = {}): Promise<RemoteBackend> {
  let base: URL;
  try {
    // Both "http://host:8000" and "http://host:8000/v1" name the server.
    base = new URL(url.replace(/\/v1\/?$/, "/"));
  } catch {
    throw new ModelLoadError(`the backend URL ${url} is not a URL`);
  }
  try {
    const server = await discover(new Upstream(base, options), options);
    const health = new UpstreamHealth(base, { key: options.key, ...(server.healthPath ? { path: server.healthPath } : {}) });
    return new RemoteBackend(server, options.sequences ?? server.slots ?? 1, options.queueSize ?? 16, base.origin, health);
  } catch (error) {
    if (error instanceof ModelLoadError) throw error;
    if (error instanceof UpstreamError) throw new ModelLoadError(`cannot use the backend: ${error.message}`);
    throw error;
  }
}

async function discover(upstream: Upstream, { api, model }: ConnectOptions): Promise<RemoteServer> {
  const llama = await llamaServer(upstream);
  if (llama && api !== "openai") return llama;
  const ollama = llama ? undefined : await ollamaServer(upstream, { ...(model === undefined ? {} : { model }) });
  if (ollama) return ollama;
  if (!llama) await refuseLmStudio(upstream);
  if (api === "native")
    throw new ModelLoadError(`${upstream.base.origin} is not llama-server (no /props), so it has no native /completion`);
  // `verbose` adds llama-server's native event to each OpenAI one: the generated token ids are read from it.
  if (llama)
    return openaiServer(upstream, llama, { repeat_penalty: SAMPLING.repeatPenalty, repeat_last_n: SAMPLING.repeatLastN, verbose: true });
  const { facts, extras } = await vllmServer(upstream);
  return openaiServer(upstream, facts, extras);
}
