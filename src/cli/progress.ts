import path from "node:path";
import { megabytes, type PullProgress, type PullStart } from "../model/download.js";
import { bar, duration, statusLine } from "./status-line.js";

/** A download progress display on stderr: a live bar on a terminal, a line per 10 % otherwise (logs, pipes). */
export interface ProgressDisplay {
  /** The download begins: its file name and size. */
  start(start: PullStart): void;
  /** Bytes arrived: redraw the bar, or print the next 10 % step. */
  update(progress: PullProgress): void;
  /** Ends the live line, so what follows starts on a fresh one. */
  end(): void;
}

/** The {@link ProgressDisplay} of `stream`. */
export function progressDisplay(stream: NodeJS.WriteStream = process.stderr): ProgressDisplay {
  const line = statusLine(stream);
  let name = "model";
  let lastStep = -1;
  // Speed over a sliding window of (time, bytes) samples.
  const samples: Array<[number, number]> = [];

  const speed = (): number => {
    const first = samples[0];
    const last = samples.at(-1);
    if (!first || !last || last[0] - first[0] < 500) return 0;
    return ((last[1] - first[1]) * 1000) / (last[0] - first[0]);
  };

  return {
    start({ files, totalBytes, resumedBytes }) {
      name = path.basename(files[0] ?? name) + (files.length > 1 ? ` (+${files.length - 1} more part${files.length > 2 ? "s" : ""})` : "");
      const size = totalBytes > 0 ? megabytes(totalBytes) : "size unknown";
      const resumed = resumedBytes > 0 ? `; resuming at ${percent(resumedBytes, totalBytes)}, ${megabytes(resumedBytes)} already here` : "";
      line.print(`downloading ${name} (${size}${resumed})`);
      lastStep = totalBytes > 0 ? Math.floor((resumedBytes / totalBytes) * 10) : -1;
    },
    update({ downloadedBytes, totalBytes }) {
      const now = Date.now();
      samples.push([now, downloadedBytes]);
      while (samples.length > 2 && now - samples[0]![0] > 5_000) samples.shift();
      if (line.live) {
        const done = totalBytes > 0 && downloadedBytes >= totalBytes;
        line.draw(`${downloadBar(downloadedBytes, totalBytes)} ${rate(speed(), downloadedBytes, totalBytes)}`.trimEnd(), done);
        return;
      }
      // Plain output: one line per 10 % (per 100 MB when the size is unknown).
      const step = totalBytes > 0 ? Math.floor((downloadedBytes / totalBytes) * 10) : Math.floor(downloadedBytes / 100_000_000);
      if (step <= lastStep) return;
      lastStep = step;
      const amount =
        totalBytes > 0
          ? `${percent(downloadedBytes, totalBytes)} (${megabytes(downloadedBytes)} of ${megabytes(totalBytes)})`
          : megabytes(downloadedBytes);
      line.print(`downloading ${name}: ${amount}`);
    },
    end: () => line.end(),
  };
}

function percent(done: number, total: number): string {
  return total > 0 ? `${Math.min(100, Math.floor((done / total) * 100))}%` : "?%";
}

function downloadBar(done: number, total: number): string {
  if (!(total > 0)) return `${megabytes(done)}`;
  return `${bar(done, total)} ${percent(done, total).padStart(4)} ${megabytes(done)} / ${megabytes(total)}`;
}

function rate(bytesPerSecond: number, done: number, total: number): string {
  if (!(bytesPerSecond > 0)) return "";
  const left = total > 0 ? (total - done) / bytesPerSecond : NaN;
  const eta = Number.isFinite(left) && left > 0 ? `, ${duration(left * 1000)} left` : "";
  return `${(bytesPerSecond / 1_000_000).toFixed(1)} MB/s${eta}`;
}
