import { defineHandler } from "h3";
import type { ModelRuntime } from "../../model/runtime.js";

/**
 * `GET /healthz`: the model, how it is prompted (through its own chat template, or as
 * plain completion when it has none) and how busy it is; no key needed.
 */
export function healthRoute(runtime: ModelRuntime) {
  return defineHandler(() => ({
    status: "ok",
    model: runtime.name,
    prompting: runtime.chatWrapper ? "chat-template" : "completion",
    queue: runtime.pool.status(),
  }));
}
