import { ModelRuntime, type RuntimeOptions } from "./runtime.js";

/**
 * The model as the server sees it: the server listens at once while the model loads
 * in the background, and requests wait for it within their own deadline.
 */
export class ModelHost {
  /** The runtime once loaded. */
  runtime: ModelRuntime | undefined;
  /** Settles when loading ends; rejects when it failed. */
  readonly ready: Promise<ModelRuntime>;

  constructor(options: RuntimeOptions) {
    this.ready = ModelRuntime.load(options).then((runtime) => (this.runtime = runtime));
    // A failed load is reported by whoever awaits `ready`; never as an unhandled rejection.
    this.ready.catch(() => {});
  }

  /** The runtime, waiting for it to load unless `signal` aborts first. */
  async get(signal: AbortSignal): Promise<ModelRuntime> {
    if (this.runtime) return this.runtime;
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.ready.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }
}
