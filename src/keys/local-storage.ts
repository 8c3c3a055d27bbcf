import { randomUUID } from "node:crypto";
import { IdempotencyFiles } from "./idempotency-files.js";
import { LocalPublicationRecords } from "./post-records.js";
import type { IdempotencyRecord, KeyActivity, KeyStorage, WordReservation } from "./storage.js";
import { UsageStore, utcDay } from "./usage.js";

/** Where a process without Redis keeps what must outlive it. */
export interface LocalKeyStorageOptions {
  /** The data folder; idempotency records live under `idempotency/` in it, the posts' owners under `posts/`. */
  dataDir: string;
  /** The usage file (beside the key file, where `inkpress keys list` reads last use). */
  usageFile: string;
}

/**
 * The state of one process alone: request windows and concurrency leases in memory (they
 * last seconds to minutes, so a restart losing them is harmless), last use and daily words
 * in the usage file, idempotency records and the posts' owners as files under the data folder.
 */
export class LocalKeyStorage implements KeyStorage {
  private readonly windows = new Map<string, { start: number; windowMs: number; count: number }>();
  private readonly leases = new Map<string, Map<string, number>>();

  private constructor(
    private readonly usage: UsageStore,
    private readonly idempotency: IdempotencyFiles,
    private readonly publications: LocalPublicationRecords,
  ) {}

  static async open({ dataDir, usageFile }: LocalKeyStorageOptions): Promise<LocalKeyStorage> {
    const [usage, idempotency] = await Promise.all([new UsageStore(usageFile).load(), IdempotencyFiles.open(dataDir)]);
    return new LocalKeyStorage(usage, idempotency, new LocalPublicationRecords(dataDir));
  }

  async countRequest(keyId: string, windowStart: number, windowMs: number): Promise<number> {
    let window = this.windows.get(keyId);
    if (!window || window.start !== windowStart || window.windowMs !== windowMs) {
      window = { start: windowStart, windowMs, count: 0 };
      this.windows.set(keyId, window);
    }
    return ++window.count;
  }

  async acquireLease(keyId: string, limit: number, ttlMs: number): Promise<string | undefined> {
    const now = Date.now();
    const held = this.leases.get(keyId) ?? new Map<string, number>();
    for (const [lease, expiresAt] of held) if (expiresAt <= now) held.delete(lease);
    if (held.size >= limit) return undefined;
    const lease = randomUUID();
    held.set(lease, now + ttlMs);
    this.leases.set(keyId, held);
    return lease;
  }

  async releaseLease(keyId: string, lease: string): Promise<void> {
    this.leases.get(keyId)?.delete(lease);
  }

  async recordUse(keyId: string, words: number, day?: string): Promise<void> {
    this.usage.record(keyId, words, day);
  }

  async reserveWords(keyId: string, words: number, limit: number): Promise<WordReservation> {
    // One process, no await between the read and the write: nothing can come in between.
    const used = this.usage.wordsToday(keyId);
    if (used + words > limit) return { left: Math.max(0, limit - used) };
    const day = utcDay();
    this.usage.record(keyId, words, day);
    return { day };
  }

  async activity(keyId: string): Promise<KeyActivity> {
    const { lastUsed } = this.usage.get(keyId);
    return { ...(lastUsed && { lastUsed }), wordsToday: this.usage.wordsToday(keyId) };
  }

  claimIdempotency(id: string, fingerprint: string, ttlMs: number): Promise<IdempotencyRecord | undefined> {
    return this.idempotency.claim(id, fingerprint, ttlMs);
  }

  completeIdempotency(id: string, fingerprint: string, value: string, ttlMs: number): Promise<void> {
    return this.idempotency.complete(id, fingerprint, value, ttlMs);
  }

  releaseIdempotency(id: string): Promise<void> {
    return this.idempotency.release(id);
  }

  async adoptFormerOwners(owners: ReadonlyMap<string, string>): Promise<void> {
    for (const [name, id] of owners) this.usage.rename(name, id);
  }

  postOwner(site: string, postId: string): Promise<string | undefined> {
    return this.publications.postOwner(site, postId);
  }

  recordPost(site: string, postId: string, owner: string): Promise<string> {
    return this.publications.recordPost(site, postId, owner);
  }

  lockPublication(name: string, ttlMs: number): Promise<string | undefined> {
    return this.publications.lockPublication(name, ttlMs);
  }

  unlockPublication(name: string, token: string): Promise<void> {
    return this.publications.unlockPublication(name, token);
  }

  async close(): Promise<void> {
    this.idempotency.close();
    await Promise.all([this.usage.flush(), this.publications.close()]);
  }
}
