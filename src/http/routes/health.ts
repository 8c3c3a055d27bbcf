import { defineHandler } from "h3";
import type { ModelRuntime } from "../../model/runtime.js";

/** `GET /healthz`: the model and how busy it is; no key needed. */
export function healthRoute(runtime: ModelRuntime) {
  return defineHandler(() => ({ status: "ok", model: runtime.name, queue: runtime.pool.status() }));
}
