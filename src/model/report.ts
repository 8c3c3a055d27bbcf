import type { Backend } from "./backend.js";
import type { Compute } from "./gpu.js";
import type { UpstreamState } from "./remote/health.js";

/** What `/healthz` says about where articles are written. */
export type BackendReport =
  | ({ kind: "in-process" } & Compute)
  | {
      kind: "llama-server" | "vllm";
      /** The server's origin (never credentials). */
      url: string;
      /** How it answered its last health check (cached a few seconds). */
      state: UpstreamState;
    };

/** A backend that says what it is: the in-process runtime, or an inference server. */
export interface ReportingBackend extends Backend {
  report(): Promise<BackendReport>;
}
