import path from "node:path";
import type { BadRow } from "../batch/row.js";
import type { BatchSummary } from "../batch/run.js";
import { loadingModel } from "./generate-progress.js";
import { bar, duration, repeatState, statusLine, type StatusLine } from "./status-line.js";

/** How often a terminal redraws the state. */
const LIVE_MS = 1000;

/** What a batch works through, in words: rows written, or files refreshed. */
export interface BatchWords {
  noun: string;
  verb: string;
  past: string;
}

/** The words of `inkpress batch` writing rows. */
const ROWS: BatchWords = { noun: "row", verb: "write", past: "written" };

/** One item of the batch: a row by its line, or a file by its name. */
type Item = { line: number; name?: string };

/** Where an item is, for a line of output. */
const where = (item: Item) => item.name ?? `line ${item.line}`;

/**
 * What `inkpress batch` is doing, on stderr: a line per row written or failed, and the state
 * of the whole input (a bar on a terminal, rows done of all, rows a minute, time left),
 * redrawn in place on a terminal and repeated every few seconds elsewhere.
 */
export class BatchProgress {
  private readonly line: StatusLine;
  private stopRepeating: (() => void) | undefined;
  private started = 0;
  /** Rows this run is to write: rows already written or refused before the run are not among them. */
  private pending = 0;
  /** Rows this run wrote. */
  private wroteNow = 0;
  /** Rows this run tried and failed to write. */
  private failedNow = 0;

  /** `words`: what the batch works through (rows written, unless told otherwise). */
  constructor(
    stream: NodeJS.WriteStream = process.stderr,
    private readonly words: BatchWords = ROWS,
  ) {
    this.line = statusLine(stream);
  }

  /** What the input holds and what is left of it; each bad row with its line (or file). */
  plan({
    total,
    pending,
    skipped,
    failed,
    duplicates,
  }: {
    total: number;
    pending: readonly unknown[];
    skipped: number;
    failed: readonly BadRow[];
    duplicates: readonly BadRow[];
  }): void {
    const { noun, verb, past } = this.words;
    this.pending = pending.length;
    const bad = failed.length ? `, ${failed.length} that cannot be ${past}` : "";
    const same = duplicates.length ? `, ${duplicates.length} repeating another line` : "";
    this.line.print(`${total} ${noun}${total === 1 ? "" : "s"}: ${pending.length} to ${verb}, ${skipped} already ${past}${same}${bad}`);
    const notes = [...duplicates.map((row) => ({ ...row, error: `skipped: ${row.error}` })), ...failed].sort((a, b) => a.line - b.line);
    for (const row of notes) this.line.print(`${where(row)}: ${row.error}`);
  }

  /** Before the model is loaded. */
  loading(modelPath: string): void {
    this.line.print(loadingModel(modelPath));
  }

  /** The first article is started: the rate and time left count from here. */
  start(): void {
    this.started = performance.now();
    this.stopRepeating = repeatState(this.line, () => this.state(), LIVE_MS);
  }

  /** An item is done: its file written. */
  written(item: Item, file: string): void {
    this.line.print(`${where(item)}: wrote ${path.basename(file)}`);
    this.wroteNow++;
    this.line.draw(this.state());
  }

  /** A line about the run as a whole, such as a server that is slow to answer. */
  note(message: string): void {
    this.line.print(message);
  }

  /** An item could not be done, and why. */
  failed(row: BadRow): void {
    this.line.print(`${where(row)}: ${row.error}`);
    this.failedNow++;
    this.line.draw(this.state());
  }

  /** The last line: rows written, skipped and failed (by line), or how to go on after an interruption. */
  summary({ written, skipped, failed, duplicates, interrupted }: BatchSummary): void {
    // The final state stays on a terminal, above the summary.
    if (this.started) this.line.draw(this.state(), true);
    this.stop();
    const { verb, past } = this.words;
    const named = failed.every((row) => row.name !== undefined);
    const list = named
      ? failed.map((row) => row.name).join(", ")
      : `line${failed.length === 1 ? "" : "s"} ${failed.map((row) => row.line).join(", ")}`;
    const lines = failed.length ? ` (${list})` : "";
    const same = duplicates.length ? `, ${duplicates.length} skipped (same request as another line)` : "";
    const counts = `${written} ${past}, ${skipped} skipped (already ${past})${same}, ${failed.length} failed${lines}`;
    const took = this.started ? ` in ${duration(performance.now() - this.started)}` : "";
    this.line.print(interrupted ? `interrupted: ${counts}; run the same command again to ${verb} the rest` : `done: ${counts}${took}`);
  }

  /** No more output (also on failure, so the line does not outlive the command). */
  stop(): void {
    this.stopRepeating?.();
    this.line.end();
  }

  /**
   * "[######------] 12/50 rows, 3.1 rows/min, about 12m left" (the bar on a terminal only): the
   * rows written of those this run writes, and those that failed, never counted as written.
   */
  private state(): string {
    const tried = this.wroteNow + this.failedNow;
    const failed = this.failedNow ? `, ${this.failedNow} failed` : "";
    const { noun, verb } = this.words;
    const progress = `${this.line.live ? `${bar(tried, this.pending)} ` : `${verb.replace(/e$/u, "")}ing: `}${this.wroteNow}/${this.pending} ${noun}s${failed}`;
    const perMinute = tried / ((performance.now() - this.started) / 60_000);
    if (!(perMinute > 0) || !Number.isFinite(perMinute)) return progress;
    const left = this.pending - tried;
    const eta = left > 0 ? `, about ${duration((left / perMinute) * 60_000)} left` : "";
    return `${progress}, ${perMinute.toFixed(perMinute < 10 ? 1 : 0)} ${noun}s/min${eta}`;
  }
}
