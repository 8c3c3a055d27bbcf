/**
 * Queued job ids of one process, taken round-robin across their keys: each key has its own
 * first-in-first-out line, and the keys take turns, so a key that floods the queue delays
 * another key's job by at most one of its own.
 */
export class FairQueue {
  /** Each key's line; the map's order is the order of turns. */
  private readonly lines = new Map<string, string[]>();

  /** Jobs waiting, of one key or of all. */
  size(owner?: string): number {
    if (owner !== undefined) return this.lines.get(owner)?.length ?? 0;
    let total = 0;
    for (const line of this.lines.values()) total += line.length;
    return total;
  }

  /** Queue a job at the end of its key's line. */
  push(owner: string, id: string): void {
    const line = this.lines.get(owner);
    if (line) line.push(id);
    else this.lines.set(owner, [id]);
  }

  /** Queue a job again at the front of its key's line (it was taken, but could not run yet). */
  putBack(owner: string, id: string): void {
    const line = this.lines.get(owner);
    if (line) line.unshift(id);
    else this.lines.set(owner, [id]);
  }

  /** The next job: the first of the key whose turn it is; that key's next turn comes after every other key's. */
  take(): string | undefined {
    for (const [owner, line] of this.lines) {
      const id = line.shift();
      this.lines.delete(owner);
      if (line.length) this.lines.set(owner, line);
      if (id !== undefined) return id;
    }
    return undefined;
  }

  /** Drop a job (cancelled while it waited); false when it was not queued. */
  remove(id: string): boolean {
    for (const [owner, line] of this.lines) {
      const at = line.indexOf(id);
      if (at < 0) continue;
      line.splice(at, 1);
      if (!line.length) this.lines.delete(owner);
      return true;
    }
    return false;
  }

  /** Give every job of one key to another (a 0.1.0 name to the id that inherits it). */
  rename(from: string, to: string): void {
    const line = this.lines.get(from);
    if (!line) return;
    this.lines.delete(from);
    for (const id of line) this.push(to, id);
  }
}
