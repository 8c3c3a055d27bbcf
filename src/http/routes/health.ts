import { defineHandler } from "h3";
import type { ModelHost } from "../../model/host.js";

/**
 * `GET /healthz`, no key needed: 200 with the model, how it is prompted (through its
 * own chat template, or as plain completion) and how busy it is; 503 while the model loads.
 */
export function healthRoute(host: ModelHost) {
  return defineHandler((event) => {
    const runtime = host.runtime;
    if (!runtime) {
      event.res.status = 503;
      return { status: "loading" };
    }
    return {
      status: "ok",
      model: runtime.name,
      prompting: runtime.chatWrapper ? "chat-template" : "completion",
      queue: runtime.pool.status(),
    };
  });
}
