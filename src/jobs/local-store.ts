import { mkdir, readFile, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import lockfile from "proper-lockfile";
import { InkpressError } from "../errors.js";
import { writeFileAtomic } from "../atomic.js";
import { log } from "../log.js";
import type { JobRecord } from "./job.js";
import type { JobStatus } from "../contract/job.js";
import { FairQueue } from "./fair-queue.js";
import { cursorAfter, newerFirst, readCursor, type JobPage, type JobQuery, type JobRunner, type JobStore } from "./store.js";

/**
 * The data folder belongs to one process, or its jobs would run twice. A lock left by a
 * process that died goes stale after this long and is taken over; a start waits that long.
 */
const LOCK_STALE_MS = 10_000;

/** What a {@link LocalJobStore} is opened with. */
export interface LocalJobStoreOptions {
  /**
   * Called once when the folder's lock is lost (the process stood still past the lock's life,
   * or another took it over): the store has stopped, aborted its running jobs, and writes no more.
   * @default nothing more
   */
  onLockLost?: (error: Error) => void;
}

/** How often finished jobs past their retention are deleted when nobody reads (reads purge first, so none is ever shown late). */
const PURGE_EVERY_MS = 60_000;

/**
 * Jobs of one process, each a JSON file under `<dataDir>/jobs/` written atomically on every
 * change, with the index in memory. Queued jobs start round-robin across keys. On start, jobs a
 * stopped process left queued or running are queued again in the order they came, and due
 * webhook deliveries are rescheduled.
 */
export class LocalJobStore implements JobStore {
  private readonly jobs = new Map<string, JobRecord>();
  private readonly queue = new FairQueue();
  private readonly running = new Map<string, AbortController>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Writes of one job in order: a later change never lands before an earlier one. */
  private readonly writes = new Map<string, Promise<void>>();
  private run: JobRunner | undefined;
  private concurrency = 0;
  private deliver: ((id: string) => Promise<void>) | undefined;
  private pendingDeliveries: { id: string; at: number }[] = [];
  private closed = false;
  private unlock: () => Promise<void> = async () => {};
  /** When the event loop last ran here: a longer gap than the lock's life means another process may own the folder now. */
  private aliveAt = Date.now();
  /** While the lock is in doubt (the loop stood still), whether it is still ours, once proper-lockfile has looked. */
  private doubt: Promise<boolean> | undefined;
  private lost = false;
  private onLockLost: (error: Error) => void = () => {};

  private constructor(private readonly dir: string) {}

  /** Load the jobs under `dataDir`; an unreadable job file is logged and left alone. */
  static async open(dataDir: string, { onLockLost }: LocalJobStoreOptions = {}): Promise<LocalJobStore> {
    const store = new LocalJobStore(path.join(dataDir, "jobs"));
    if (onLockLost) store.onLockLost = onLockLost;
    await mkdir(store.dir, { recursive: true });
    store.unlock = await lockfile
      .lock(store.dir, {
        stale: LOCK_STALE_MS,
        retries: { retries: LOCK_STALE_MS / 1000 + 2, minTimeout: 1000, maxTimeout: 1000 },
        onCompromised: (error) => store.lose(error),
      })
      .catch(() => {
        throw new InkpressError(
          `another inkpress process uses the data folder ${dataDir}, and its jobs would run twice: give each server its own --data-dir, or share jobs ` +
            `through --redis`,
        );
      });
    for (const name of (await readdir(store.dir)).filter((n) => /^job_[0-9a-f]{32}\.json$/.test(n))) {
      try {
        const job = JSON.parse(await readFile(path.join(store.dir, name), "utf8")) as JobRecord;
        store.jobs.set(job.id, job);
      } catch (error) {
        log.error(`job file ${name} cannot be read, skipped: ${(error as Error).message}`);
      }
    }
    const unfinished = [...store.jobs.values()].filter((j) => j.status === "queued" || j.status === "running");
    unfinished.sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    for (const job of unfinished) store.queue.push(job.owner, job.id);
    for (const job of store.jobs.values()) {
      if (job.webhook?.nextAttemptAt) store.pendingDeliveries.push({ id: job.id, at: Date.parse(job.webhook.nextAttemptAt) });
    }
    store.purge();
    store.every(PURGE_EVERY_MS, () => store.purge());
    store.every(1000, () => store.watchLoop());
    return store;
  }

  async add(job: JobRecord): Promise<void> {
    this.jobs.set(job.id, job);
    await this.save(job);
    this.queue.push(job.owner, job.id);
    this.pump();
  }

  async get(id: string): Promise<JobRecord | undefined> {
    this.purge();
    return this.jobs.get(id);
  }

  async update(id: string, change: Partial<JobRecord>, from?: readonly JobStatus[], run?: number): Promise<JobRecord | undefined> {
    const job = this.jobs.get(id);
    if (!job || (from && !from.includes(job.status)) || (run !== undefined && job.runs !== run)) return undefined;
    const next = { ...job, ...change };
    for (const [field, value] of Object.entries(change)) if (value === undefined) delete next[field as keyof JobRecord];
    this.jobs.set(id, next);
    if (change.status === "cancelled") this.queue.remove(id);
    await this.save(next);
    return next;
  }

  async list(owner: string, { status, cursor, limit }: JobQuery): Promise<JobPage> {
    this.purge();
    const after = cursor ? readCursor(cursor) : undefined;
    const position = (j: JobRecord) => ({ time: Date.parse(j.createdAt), id: j.id });
    const mine = [...this.jobs.values()]
      .filter((j) => j.owner === owner && (!status || j.status === status) && (!after || newerFirst(after, position(j)) < 0))
      .sort((a, b) => newerFirst(position(a), position(b)));
    const jobs = mine.slice(0, limit);
    return { jobs, nextCursor: mine.length > limit ? cursorAfter(jobs.at(-1)!) : null };
  }

  async waiting(owner?: string): Promise<number> {
    return this.queue.size(owner);
  }

  async adoptOwners(owners: ReadonlyMap<string, string>): Promise<void> {
    for (const job of this.jobs.values()) {
      const id = owners.get(job.owner);
      if (id) await this.update(job.id, { owner: id });
    }
    for (const [name, id] of owners) this.queue.rename(name, id);
  }

  process(run: JobRunner, concurrency: number): void {
    this.run = run;
    this.concurrency = concurrency;
    this.pump();
  }

  async abort(id: string): Promise<void> {
    this.running.get(id)?.abort(new Error("the job was cancelled"));
  }

  async deliverLater(id: string, delayMs: number): Promise<void> {
    this.after(delayMs, () => this.deliver?.(id));
  }

  processDeliveries(deliver: (id: string) => Promise<void>): void {
    this.deliver = deliver;
    for (const { id, at } of this.pendingDeliveries) this.after(Math.max(0, at - Date.now()), () => deliver(id));
    this.pendingDeliveries = [];
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    for (const controller of this.running.values()) controller.abort(new Error("the server is shutting down"));
    await Promise.all(this.writes.values());
    await this.unlock().catch(() => {});
  }

  /** Whether the folder is still this process's; while its lock is in doubt, once that is settled. */
  private owned(): Promise<boolean> {
    this.watchLoop();
    return this.doubt ?? Promise.resolve(!this.lost);
  }

  /**
   * A loop that stood still past the lock's life (a paused process) may have lost the folder to
   * another process. proper-lockfile finds out at its next update, due at once; until then
   * nothing is written and no job starts, so a result never lands in a folder that is not ours.
   */
  private watchLoop(): void {
    const stood = Date.now() - this.aliveAt;
    this.aliveAt = Date.now();
    if (stood <= LOCK_STALE_MS || this.lost || this.doubt) return;
    this.doubt = sleep(LOCK_STALE_MS / 2 + 1000, undefined, { ref: false }).then(() => {
      this.doubt = undefined;
      this.pump();
      return !this.lost;
    });
  }

  /** The lock is lost: another process may run these jobs now. Stop, abort what runs, write nothing more. */
  private lose(error: Error): void {
    if (this.lost) return;
    this.lost = true;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    for (const controller of this.running.values()) controller.abort(new Error("the data folder was taken over"));
    this.onLockLost(error);
  }

  /** Start queued jobs while there is room. */
  private pump(): void {
    while (this.run && !this.closed && !this.doubt && this.running.size < this.concurrency && this.queue.size()) {
      const id = this.queue.take()!;
      const controller = new AbortController();
      this.running.set(id, controller);
      this.run(id, controller.signal)
        .then(
          (later) => {
            if (later) this.after(later.delayMs, () => this.retry(id));
          },
          (error: unknown) => log.error(error),
        )
        .finally(() => {
          this.running.delete(id);
          this.pump();
        });
    }
  }

  /** Queue a job that could not run yet again, unless it ended meanwhile. */
  private retry(id: string): void {
    const job = this.jobs.get(id);
    if (job && (job.status === "queued" || job.status === "running")) this.queue.putBack(job.owner, id);
    this.pump();
  }

  /** Delete finished jobs whose retention is over. */
  private purge(): void {
    const now = Date.now();
    for (const job of this.jobs.values()) {
      if (job.expiresAt && Date.parse(job.expiresAt) <= now) {
        this.jobs.delete(job.id);
        this.chain(job.id, () => rm(this.file(job.id), { force: true }));
      }
    }
  }

  private save(job: JobRecord): Promise<void> {
    return this.chain(job.id, () => writeFileAtomic(this.file(job.id), JSON.stringify(job)));
  }

  private chain(id: string, write: () => Promise<void>): Promise<void> {
    const next = (this.writes.get(id) ?? Promise.resolve()).then(async () =>
      (await this.owned()) ? write() : Promise.reject(new Error("the data folder's lock was lost")),
    );
    const settled = next.catch((error: Error) => log.error(`job ${id} not saved: ${error.message}`));
    this.writes.set(id, settled);
    void settled.then(() => this.writes.get(id) === settled && this.writes.delete(id));
    return next;
  }

  private file(id: string): string {
    return path.join(this.dir, `${id}.json`);
  }

  private after(ms: number, then: () => unknown): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) void then();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  private every(ms: number, then: () => void): void {
    const timer = setInterval(then, ms);
    timer.unref();
    this.timers.add(timer as unknown as NodeJS.Timeout);
  }
}
