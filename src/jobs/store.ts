import type { JobRecord } from "./job.js";
import type { JobStatus } from "../contract/job.js";

/** One page of a key's jobs. */
export interface JobPage {
  jobs: JobRecord[];
  /** Where the next page starts; null on the last. */
  nextCursor: string | null;
}

/** Which jobs a page lists. */
export interface JobQuery {
  status?: JobStatus;
  /** From a previous page's `nextCursor`. */
  cursor?: string;
  limit: number;
}

/** What runs one job; it answers {@link RetryLater} to put the job back for a while. */
export type JobRunner = (id: string, signal: AbortSignal) => Promise<RetryLater | undefined>;

/**
 * A job could not run now (its key runs its limit, every slot is busy, the server stops): the
 * store queues it again after `delayMs`. A verdict the runner returns, not an error: nothing failed.
 */
export interface RetryLater {
  readonly delayMs: number;
}

/**
 * Where jobs live and how they reach a worker. Two implementations: files under the data
 * folder for one process (the embedded default), and Redis with BullMQ for any number of
 * replicas. A job's status changes only by compare-and-set, so a cancel on one replica and
 * the end of the run on another cannot both win.
 */
export interface JobStore {
  /** Store a new job and queue it. */
  add(job: JobRecord): Promise<void>;
  get(id: string): Promise<JobRecord | undefined>;
  /**
   * Change a job, only if its status is one of `from` (any status when omitted) and, when `run`
   * is given, its `runs` is still `run`: the count is a fencing token, so a replica whose job was
   * taken over by another (which counted one more run) changes nothing. A field set to undefined
   * is removed; `expiresAt` also schedules the purge. The changed job, or undefined when it does
   * not exist or its status or run was another.
   */
  update(id: string, change: Partial<JobRecord>, from?: readonly JobStatus[], run?: number): Promise<JobRecord | undefined>;
  /** A key's jobs (by its id), newest first. */
  list(owner: string, query: JobQuery): Promise<JobPage>;
  /** Jobs waiting to run, of one key (its id) or across all keys. */
  waiting(owner?: string): Promise<number>;
  /** Give the jobs of 0.1.0 key names to the ids that inherit those names; other names' jobs stay unreadable. */
  adoptOwners(owners: ReadonlyMap<string, string>): Promise<void>;
  /**
   * Start running queued jobs (and those a stopped server left running), at most `concurrency`
   * at once, taking turns across keys so that one key's flood delays another's job by one at most.
   */
  process(run: JobRunner, concurrency: number): void;
  /** Abort the job wherever it runs. */
  abort(id: string): Promise<void>;
  /** Call the delivery handler for a job after `delayMs`; survives restarts. */
  deliverLater(id: string, delayMs: number): Promise<void>;
  /** Handle deliveries as they fall due. */
  processDeliveries(deliver: (id: string) => Promise<void>): void;
  /** Stop taking work; running jobs are aborted by the caller's signal first. */
  close(): Promise<void>;
}

/** Cursor of a page that ends at `job`: its creation time and id, which order jobs newest first. */
export function cursorAfter(job: JobRecord): string {
  return Buffer.from(`${Date.parse(job.createdAt)}:${job.id}`).toString("base64url");
}

/** The position a cursor names; undefined for a cursor that is not one of ours. */
export function readCursor(cursor: string): { time: number; id: string } | undefined {
  const match = /^(\d+):(job_[0-9a-f]{32})$/.exec(Buffer.from(cursor, "base64url").toString());
  return match ? { time: Number(match[1]), id: match[2]! } : undefined;
}

/** Newest first: later creation, then the larger id. */
export function newerFirst(a: { time: number; id: string }, b: { time: number; id: string }): number {
  return b.time - a.time || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}
