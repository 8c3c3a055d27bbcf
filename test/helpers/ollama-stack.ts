import { afterAll, beforeAll } from "vitest";
import { type OllamaStandIn, type StandInOptions, startOllamaStandIn } from "../../scripts/ollama-stand-in.js";
import { BUILD_TIMEOUT_MS, type RunningLlamaServer, startLlamaServer } from "./llama-server.js";
import { STORIES_MODEL, startServer, type TestServer } from "./server.js";

/** A llama-server on stories260K, an Ollama stand-in in front of it, and `inkpress serve --backend` on the stand-in. */
export interface OllamaStack {
  llama: RunningLlamaServer;
  ollama: OllamaStandIn;
  inkpress: TestServer;
}

/**
 * Starts the three for the enclosing suite (and stops them after it), the stand-in with `options`;
 * returns the running stack, read inside the suite's tests.
 */
export function ollamaStack(options: Omit<StandInOptions, "llama"> = {}): () => OllamaStack {
  const stack: Partial<OllamaStack> = {};
  beforeAll(async () => {
    // Each kept as it starts, so a start that fails still stops the ones before it.
    stack.llama = await startLlamaServer({ model: STORIES_MODEL });
    stack.ollama = await startOllamaStandIn({ llama: stack.llama, ...options });
    stack.inkpress = await startServer(undefined, {}, { args: ["--backend", stack.ollama.url] });
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await stack.inkpress?.stop();
    await stack.ollama?.stop();
    await stack.llama?.stop();
  });
  return () => stack as OllamaStack;
}
