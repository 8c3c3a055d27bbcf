import type { Prompting, Writer } from "../backend.js";
import { PoolClosedError, SlotPool } from "../pool.js";
import type { BackendReport } from "../../contract/health.js";
import type { ReportingBackend } from "../report.js";
import type { UpstreamHealth } from "./health.js";
import type { RemoteServer } from "./server.js";
import { RemoteWriter } from "./writer.js";

/** One of the articles that may be in flight upstream at once. */
interface Slot {
  index: number;
}

/** Articles written by an inference server: at most `sequences` in flight upstream, the rest queued. */
export class RemoteBackend implements ReportingBackend {
  readonly name: string;
  readonly prompting: Prompting;
  readonly contextSize: number;
  readonly slots: SlotPool<Slot>;
  private readonly shutdown = new AbortController();

  constructor(
    private readonly server: RemoteServer,
    sequences: number,
    queueSize: number,
    /** The server's origin, for reports. */
    private readonly url: string,
    private readonly health: UpstreamHealth,
  ) {
    this.name = server.name;
    this.prompting = server.prompting;
    this.contextSize = server.contextSize;
    this.slots = new SlotPool(
      Array.from({ length: sequences }, (_, index) => ({ index })),
      queueSize,
    );
  }

  /** The server's kind, its origin, how it answers its health check, and whether prompts go as token ids. */
  async report(): Promise<BackendReport> {
    return { kind: this.server.kind, url: this.url, state: await this.health.state(), prompts: this.server.prompts };
  }

  async writer(signal?: AbortSignal): Promise<Writer> {
    const slot = await this.slots.acquire(signal);
    // Past the server's own slots an article runs wherever the server puts it (and may evict another's cache).
    const pinned = this.server.pinsSlots && slot.index < (this.server.slots ?? 0);
    // The request's signal ends every step, those started without a signal of their own too: a stalled server never outlives its request.
    const ended = signal ? AbortSignal.any([this.shutdown.signal, signal]) : this.shutdown.signal;
    return new RemoteWriter(this.server, pinned ? slot.index : -1, () => this.slots.release(slot), ended);
  }

  /** Turn away waiters and abort every step in flight (the server frees their slots). */
  async dispose(): Promise<void> {
    this.slots.close();
    this.shutdown.abort(new PoolClosedError());
  }
}
