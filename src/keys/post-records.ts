import { createHash, randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../atomic.js";
import type { PublicationRecords } from "./storage.js";

/**
 * The publication records of a process without Redis: each post's owner a file under
 * `<dataDir>/posts/` (named by the SHA-256 of site and id), written atomically so it outlives
 * restarts and is seen by the command line on the same data folder; publication locks in memory,
 * as one process's requests are all that contend for them.
 */
export class LocalPublicationRecords implements PublicationRecords {
  readonly #locks = new Map<string, { token: string; expiresAt: number }>();
  /** Recordings of one file run one after another, so the first owner always wins. */
  readonly #writes = new Map<string, Promise<string>>();

  constructor(private readonly dataDir: string) {}

  async postOwner(site: string, postId: string): Promise<string | undefined> {
    await this.#writes.get(this.#fileOf(site, postId));
    return readOwner(this.#fileOf(site, postId));
  }

  recordPost(site: string, postId: string, owner: string): Promise<string> {
    const file = this.#fileOf(site, postId);
    const previous = this.#writes.get(file) ?? Promise.resolve("");
    const run = previous
      .catch(() => "")
      .then(async () => {
        const existing = await readOwner(file);
        if (existing) return existing;
        await writeFileAtomic(file, `${JSON.stringify({ site, post: postId, owner, recorded: new Date().toISOString() })}\n`);
        return owner;
      });
    this.#writes.set(file, run);
    void run.finally(() => this.#writes.get(file) === run && this.#writes.delete(file)).catch(() => {});
    return run;
  }

  async lockPublication(name: string, ttlMs: number): Promise<string | undefined> {
    const held = this.#locks.get(name);
    if (held && held.expiresAt > Date.now()) return undefined;
    const token = randomUUID();
    this.#locks.set(name, { token, expiresAt: Date.now() + ttlMs });
    return token;
  }

  async unlockPublication(name: string, token: string): Promise<void> {
    if (this.#locks.get(name)?.token === token) this.#locks.delete(name);
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.#writes.values());
  }

  #fileOf(site: string, postId: string): string {
    return path.join(this.dataDir, "posts", `${createHash("sha256").update(`${site}\0${postId}`).digest("hex")}.json`);
  }
}

/** The owner a record file names; undefined when there is none (a file that is not a record names none). */
async function readOwner(file: string): Promise<string | undefined> {
  try {
    const owner = (JSON.parse(await readFile(file, "utf8")) as { owner?: unknown }).owner;
    return typeof owner === "string" && owner ? owner : undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT" || error instanceof SyntaxError) return undefined;
    throw error;
  }
}
