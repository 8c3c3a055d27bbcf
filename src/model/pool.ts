import type { LlamaContext, LlamaContextSequence } from "node-llama-cpp";

/** The queue is full: the caller should answer 503 with Retry-After. */
export class QueueFullError extends Error {
  constructor() {
    super("the generation queue is full");
  }
}

/** The pool was closed while the request waited (the server is shutting down). */
export class PoolClosedError extends Error {
  constructor() {
    super("the model is shutting down");
  }
}

interface Waiter {
  resolve: (sequence: LlamaContextSequence) => void;
  reject: (error: Error) => void;
}

/** How busy the pool is, for health checks. */
export interface PoolStatus {
  running: number;
  waiting: number;
  capacity: number;
}

/**
 * The context's sequences, lent out one per generation, with a bounded FIFO queue
 * for requests that arrive while all are busy.
 */
export class SequencePool {
  private readonly free: LlamaContextSequence[] = [];
  private readonly waiters: Waiter[] = [];
  private readonly size: number;
  private closed = false;

  constructor(
    context: LlamaContext,
    private readonly queueSize: number,
  ) {
    while (context.sequencesLeft > 0) this.free.push(context.getSequence());
    this.size = this.free.length;
  }

  /** A free sequence, waiting in line for one if needed; `signal` gives up the place in line. */
  acquire(signal?: AbortSignal): Promise<LlamaContextSequence> {
    if (this.closed) return Promise.reject(new PoolClosedError());
    signal?.throwIfAborted();
    const sequence = this.free.pop();
    if (sequence) return Promise.resolve(sequence);
    if (this.waiters.length >= this.queueSize) return Promise.reject(new QueueFullError());
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (s) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(s);
        },
        reject: (e) => {
          signal?.removeEventListener("abort", onAbort);
          reject(e);
        },
      };
      const onAbort = () => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.reject(signal!.reason as Error);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Give a sequence back; the longest waiter gets it at once. */
  release(sequence: LlamaContextSequence): void {
    const next = this.waiters.shift();
    if (next) next.resolve(sequence);
    else this.free.push(sequence);
  }

  /** Refuse new requests and turn away those still waiting. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new PoolClosedError());
  }

  /** Running and waiting generations. */
  status(): PoolStatus {
    return { running: this.size - this.free.length, waiting: this.waiters.length, capacity: this.size + this.queueSize };
  }
}
