import { InkpressError } from "../errors.js";

/** The queue is full: a 503 with Retry-After. */
export class QueueFullError extends InkpressError {
  constructor(readonly retryAfterSeconds: number) {
    super("All generation slots and the queue are busy; retry later.", {
      status: 503,
      headers: { "retry-after": String(retryAfterSeconds) },
    });
  }
}

/** The pool was closed while the request waited (the server is shutting down). */
export class PoolClosedError extends InkpressError {
  constructor() {
    super("The server is shutting down.", { status: 503, headers: { "retry-after": "5" } });
  }
}

interface Waiter<T> {
  resolve: (slot: T) => void;
  reject: (error: Error) => void;
}

/** What callers outside the model layer may ask of a pool: whether there is room, and how busy it is. */
export type SlotQueue = Pick<SlotPool<unknown>, "hasRoom" | "retryAfterSeconds" | "status">;

/** How busy the pool is, for health checks. */
export interface PoolStatus {
  running: number;
  waiting: number;
  capacity: number;
}

/**
 * Slots (context sequences, or an inference server's parallel slots), lent out one per
 * generation, with a bounded FIFO queue for requests that arrive while all are busy.
 */
export class SlotPool<T> {
  private readonly free: T[];
  private readonly waiters: Waiter<T>[] = [];
  private readonly size: number;
  private readonly leasedAt = new Map<T, number>();
  /** Moving average of how long a generation holds a sequence, for Retry-After. */
  private averageLeaseMs = 10_000;
  private closed = false;

  constructor(
    slots: T[],
    private readonly queueSize: number,
  ) {
    this.free = [...slots];
    this.size = slots.length;
  }

  /** A free slot, waiting in line for one if needed; `signal` gives up the place in line. */
  acquire(signal?: AbortSignal): Promise<T> {
    if (this.closed) return Promise.reject(new PoolClosedError());
    signal?.throwIfAborted();
    // A slot may be any value, 0 included: only an empty pool gives undefined.
    if (this.free.length > 0) return Promise.resolve(this.lease(this.free.pop()!));
    if (!this.hasRoom()) return Promise.reject(new QueueFullError(this.retryAfterSeconds()));
    return new Promise((resolve, reject) => {
      const waiter: Waiter<T> = {
        resolve: (s) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(this.lease(s));
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

  /** Whether a new request would get a sequence or a place in the queue. */
  hasRoom(): boolean {
    return this.free.length > 0 || this.waiters.length < this.queueSize;
  }

  /** Seconds after which a turned-away request may find room: the queue ahead, at the average pace. */
  retryAfterSeconds(): number {
    return Math.max(1, Math.ceil(((this.waiters.length + 1) * this.averageLeaseMs) / this.size / 1000));
  }

  /** Give a slot back; the longest waiter gets it at once. */
  release(sequence: T): void {
    const since = this.leasedAt.get(sequence);
    this.leasedAt.delete(sequence);
    if (since !== undefined) this.averageLeaseMs = 0.8 * this.averageLeaseMs + 0.2 * (performance.now() - since);
    const next = this.waiters.shift();
    if (next) next.resolve(sequence);
    else this.free.push(sequence);
  }

  /** Refuse new requests and turn away those still waiting. */
  close(): void {
    this.closed = true;
    for (const waiter of this.waiters.splice(0)) waiter.reject(new PoolClosedError());
  }

  private lease(sequence: T): T {
    this.leasedAt.set(sequence, performance.now());
    return sequence;
  }

  /** Running and waiting generations. */
  status(): PoolStatus {
    return { running: this.size - this.free.length, waiting: this.waiters.length, capacity: this.size + this.queueSize };
  }
}
