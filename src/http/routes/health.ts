import { defineHandler } from "h3";
import type { ModelHost } from "../../model/host.js";
import type { Health } from "../../contract/health.js";
import type { ReportingBackend } from "../../model/report.js";

/**
 * `GET /healthz`, no key needed: 200 with the model, how it is prompted (through its
 * own chat template, or as plain completion), where it runs (the compute backend and the
 * layers offloaded, or the inference server and how it answers) and how busy it is;
 * 503 while the model loads or the inference server is first reached.
 */
export function healthRoute(modelHost: ModelHost<ReportingBackend>) {
  return defineHandler(async (event): Promise<Health> => {
    const backend = modelHost.backend;
    if (!backend) {
      event.res.status = 503;
      return { status: "loading" };
    }
    return {
      status: "ok",
      model: backend.name,
      prompting: backend.prompting,
      backend: await backend.report(),
      queue: backend.slots.status(),
    };
  });
}
