import type { Backend } from "./backend.js";

/**
 * The backend as the server sees it: the server listens at once while the model loads
 * (or the inference server is probed) in the background, and requests wait for it
 * within their own deadline.
 */
export class ModelHost<B extends Backend = Backend> {
  /** The backend once ready. */
  backend: B | undefined;
  /** Settles when loading ends; rejects when it failed. */
  readonly ready: Promise<B>;

  constructor(load: () => Promise<B>) {
    this.ready = load().then((backend) => (this.backend = backend));
    // A failed load is reported by whoever awaits `ready`; never as an unhandled rejection.
    this.ready.catch(() => {});
  }

  /** The backend, waiting for it unless `signal` aborts first. */
  async get(signal: AbortSignal): Promise<B> {
    if (this.backend) return this.backend;
    signal.throwIfAborted();
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.ready.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
    });
  }
}
