import type { Backend, Prompting, Writer } from "../backend.js";
import { PoolClosedError, SlotPool, type PoolStatus } from "../pool.js";
import type { RemoteServer } from "./server.js";
import { RemoteWriter } from "./writer.js";

/** One of the articles that may be in flight upstream at once. */
interface Slot {
  index: number;
}

/** Articles written by an inference server: at most `sequences` in flight upstream, the rest queued. */
export class RemoteBackend implements Backend {
  readonly name: string;
  readonly prompting: Prompting;
  readonly contextSize: number;
  private readonly pool: SlotPool<Slot>;
  private readonly shutdown = new AbortController();

  constructor(
    private readonly server: RemoteServer,
    sequences: number,
    queueSize: number,
  ) {
    this.name = server.name;
    this.prompting = server.prompting;
    this.contextSize = server.contextSize;
    this.pool = new SlotPool(
      Array.from({ length: sequences }, (_, index) => ({ index })),
      queueSize,
    );
  }

  hasRoom(): boolean {
    return this.pool.hasRoom();
  }

  retryAfterSeconds(): number {
    return this.pool.retryAfterSeconds();
  }

  status(): PoolStatus {
    return this.pool.status();
  }

  async writer(signal?: AbortSignal): Promise<Writer> {
    const slot = await this.pool.acquire(signal);
    // Past the server's own slots an article runs wherever the server puts it (and may evict another's cache).
    const pinned = this.server.pinsSlots && slot.index < (this.server.slots ?? 0);
    return new RemoteWriter(this.server, pinned ? slot.index : -1, () => this.pool.release(slot), this.shutdown.signal);
  }

  /** Turn away waiters and abort every step in flight (the server frees their slots). */
  async dispose(): Promise<void> {
    this.pool.close();
    this.shutdown.abort(new PoolClosedError());
  }
}
