import type { BackendReport } from "../contract/health.js";
import type { Backend } from "./backend.js";

/** A backend that says what it is: the in-process runtime, or an inference server. */
export interface ReportingBackend extends Backend {
  report(): Promise<BackendReport>;
}
