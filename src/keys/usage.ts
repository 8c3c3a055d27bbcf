import { readFile } from "node:fs/promises";
import { writeFileAtomic } from "../atomic.js";

/** What the server records of a key's use (keyed by the key's id). */
export interface KeyUsage {
  /** ISO 8601. */
  lastUsed?: string;
  /** The UTC day `words` counts, YYYY-MM-DD. */
  day?: string;
  words?: number;
}

const SAVE_DELAY_MS = 1000;

/** Today as a UTC date. */
export function utcDay(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Last use and words per day of every key, kept in memory and saved to a file of its
 * own (the server's; the key file stays the CLI's), at most once a second.
 */
export class UsageStore {
  private usage: Record<string, KeyUsage> = {};
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();

  constructor(readonly file: string) {}

  /** Load what was saved; a missing or unreadable file starts empty (usage is not a secret worth refusing to start for). */
  async load(): Promise<this> {
    this.usage = await readUsage(this.file);
    return this;
  }

  get(name: string): KeyUsage {
    return this.usage[name] ?? {};
  }

  /** Words used today. */
  wordsToday(name: string): number {
    const entry = this.get(name);
    return entry.day === utcDay() ? (entry.words ?? 0) : 0;
  }

  /**
   * Record a request, and add `words` to the count of `day` (default today; negative words give
   * back part of a reservation). Only today's count is kept: words of a past day change nothing.
   */
  record(name: string, words = 0, day = utcDay()): void {
    const today = utcDay();
    const current = this.wordsToday(name);
    this.usage[name] = { lastUsed: new Date().toISOString(), day: today, words: day === today ? Math.max(0, current + words) : current };
    this.save();
  }

  /** Save within a second, once for every change made meanwhile. */
  private save(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.saving = this.saving.then(() => writeFileAtomic(this.file, `${JSON.stringify(this.usage, null, 2)}\n`)).catch(() => {});
    }, SAVE_DELAY_MS);
  }

  /** Give the usage recorded under one owner to another (a 0.1.0 name to the id that inherits it); nothing when there is none. */
  rename(from: string, to: string): void {
    const usage = this.usage[from];
    if (!usage || this.usage[to]) return;
    this.usage[to] = usage;
    delete this.usage[from];
    this.save();
  }

  /** Save now (on shutdown). */
  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.saving = this.saving.then(() => writeFileAtomic(this.file, `${JSON.stringify(this.usage, null, 2)}\n`));
    }
    await this.saving;
  }
}

/** The usage file next to a key file. */
export function usageFileFor(keysFile: string): string {
  return keysFile.replace(/(\.json)?$/, ".usage.json");
}

/** Read a usage file; empty when missing or unreadable. */
export async function readUsage(file: string): Promise<Record<string, KeyUsage>> {
  try {
    const data = JSON.parse(await readFile(file, "utf8"));
    return data && typeof data === "object" && !Array.isArray(data) ? data : {};
  } catch {
    return {};
  }
}
