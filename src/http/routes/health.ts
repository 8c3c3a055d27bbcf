import { defineHandler } from "h3";
import type { ModelHost } from "../../model/host.js";

/**
 * `GET /healthz`, no key needed: 200 with the model, how it is prompted (through its
 * own chat template, or as plain completion) and how busy it is; 503 while the model loads.
 */
export function healthRoute(host: ModelHost) {
  return defineHandler((event) => {
    const backend = host.backend;
    if (!backend) {
      event.res.status = 503;
      return { status: "loading" };
    }
    return {
      status: "ok",
      model: backend.name,
      prompting: backend.prompting,
      queue: backend.status(),
    };
  });
}
