import { createHash } from "node:crypto";
import { mkdir, readFile, readdir, rm } from "node:fs/promises";
import path from "node:path";
import { log } from "../log.js";
import { writeFileAtomic } from "../atomic.js";
import type { IdempotencyRecord } from "./storage.js";

type Stored = IdempotencyRecord & { expiresAt: number };

/** How often records past their expiry are deleted, besides at start-up. */
const PURGE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Idempotency records of a single process, one file each under `<dataDir>/idempotency/`
 * (named by the SHA-256 of the id, so any id makes a safe file name), written atomically so
 * they survive a restart. Operations on one id run one after the other: the claim's read and
 * write must not interleave with another claim of the same id.
 */
export class IdempotencyFiles {
  private readonly queues = new Map<string, Promise<unknown>>();
  private readonly timer: NodeJS.Timeout;

  private constructor(private readonly dir: string) {
    this.timer = setInterval(
      () => this.purge().catch((error: Error) => log.error(`idempotency records not purged: ${error.message}`)),
      PURGE_INTERVAL_MS,
    ).unref();
  }

  /** Open the folder (created when missing) and delete the records that expired while the server was down. */
  static async open(dataDir: string): Promise<IdempotencyFiles> {
    const files = new IdempotencyFiles(path.join(dataDir, "idempotency"));
    await mkdir(files.dir, { recursive: true });
    await files.purge();
    return files;
  }

  claim(id: string, fingerprint: string, ttlMs: number): Promise<IdempotencyRecord | undefined> {
    return this.serially(this.fileOf(id), async (file) => {
      const existing = await read(file);
      if (existing) return existing;
      await write(file, { fingerprint, state: "pending" }, ttlMs);
      return undefined;
    });
  }

  complete(id: string, fingerprint: string, value: string, ttlMs: number): Promise<void> {
    return this.serially(this.fileOf(id), (file) => write(file, { fingerprint, state: "done", value }, ttlMs));
  }

  release(id: string): Promise<void> {
    return this.serially(this.fileOf(id), (file) => rm(file, { force: true }));
  }

  close(): void {
    clearInterval(this.timer);
  }

  private fileOf(id: string): string {
    return path.join(this.dir, `${createHash("sha256").update(id).digest("hex")}.json`);
  }

  /** Run `task` on a file once the tasks queued before it on the same file have settled. */
  private serially<T>(file: string, task: (file: string) => Promise<T>): Promise<T> {
    const previous = this.queues.get(file) ?? Promise.resolve();
    const run = previous.then(() => task(file));
    const settled = run.catch(() => {});
    this.queues.set(file, settled);
    void settled.then(() => this.queues.get(file) === settled && this.queues.delete(file));
    return run;
  }

  private async purge(): Promise<void> {
    const names = await readdir(this.dir).catch(() => []);
    // Through the queue, so that deleting an expired record cannot remove a claim made meanwhile.
    for (const name of names.filter((n) => n.endsWith(".json"))) await this.serially(path.join(this.dir, name), read);
  }
}

/** The record in a file; undefined when there is none or it expired (the file is then deleted). */
async function read(file: string): Promise<IdempotencyRecord | undefined> {
  let stored: Stored;
  try {
    stored = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    // A file that is not a record (edited by hand) would block its id forever: drop it.
    await rm(file, { force: true });
    return undefined;
  }
  if (!(stored.expiresAt > Date.now())) {
    await rm(file, { force: true });
    return undefined;
  }
  const { expiresAt: _, ...record } = stored;
  return record;
}

function write(file: string, record: IdempotencyRecord, ttlMs: number): Promise<void> {
  return writeFileAtomic(file, `${JSON.stringify({ ...record, expiresAt: Date.now() + ttlMs })}\n`);
}
