/**
 * The server's life: generations in flight are counted, so that on SIGTERM the server
 * can stop taking work, let running generations finish within a grace period, and then
 * abort whatever is left.
 */
export class Lifecycle {
  private readonly shutdown = new AbortController();
  private running = 0;
  private idle: (() => void) | undefined;
  /** True once shutdown began: new requests are turned away. */
  draining = false;

  /** Aborts every generation when the grace period is over. */
  get signal(): AbortSignal {
    return this.shutdown.signal;
  }

  /** Register one generation: it is counted until it settles, so a shutdown waits for it. */
  async register<T>(work: () => Promise<T>): Promise<T> {
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      if (this.running === 0) this.idle?.();
    }
  }

  /** Stop taking work, wait up to `graceMs` for running generations, then abort the rest and wait for them to settle. */
  async drain(graceMs: number): Promise<void> {
    this.draining = true;
    const settled = () => (this.running === 0 ? Promise.resolve() : new Promise<void>((resolve) => (this.idle = resolve)));
    let timer: NodeJS.Timeout | undefined;
    const graceOver = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([settled(), graceOver]);
    clearTimeout(timer);
    this.shutdown.abort(new Error("the server is shutting down"));
    await settled();
  }
}
