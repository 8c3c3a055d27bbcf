import path from "node:path";
import { megabytes, type PullProgress, type PullStart } from "../model/download.js";

/** A download progress display on stderr: a live bar on a terminal, a line per 10 % otherwise (logs, pipes). */
export interface ProgressDisplay {
  start(start: PullStart): void;
  update(progress: PullProgress): void;
  /** Ends the live line, so what follows starts on a fresh one. */
  end(): void;
}

export function progressDisplay(stream: NodeJS.WriteStream = process.stderr): ProgressDisplay {
  const live = Boolean(stream.isTTY) && !process.env.CI;
  let name = "model";
  let lastDraw = 0;
  let lastStep = -1;
  let drawn = false;
  let lastLine = "";
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
      stream.write(`downloading ${name} (${size}${resumed})\n`);
      lastStep = totalBytes > 0 ? Math.floor((resumedBytes / totalBytes) * 10) : -1;
    },
    update({ downloadedBytes, totalBytes }) {
      const now = Date.now();
      samples.push([now, downloadedBytes]);
      while (samples.length > 2 && now - samples[0]![0] > 5_000) samples.shift();
      const done = totalBytes > 0 && downloadedBytes >= totalBytes;
      if (live) {
        if (!done && now - lastDraw < 100) return;
        lastDraw = now;
        const line = `${bar(downloadedBytes, totalBytes)} ${rate(speed(), downloadedBytes, totalBytes)}`.trimEnd();
        if (done && line === lastLine) return;
        lastLine = line;
        stream.write(`\r\x1b[K${line}`);
        drawn = true;
        return;
      }
      // Plain output: one line per 10 % (per 100 MB when the size is unknown).
      const step = totalBytes > 0 ? Math.floor((downloadedBytes / totalBytes) * 10) : Math.floor(downloadedBytes / 100_000_000);
      if (step <= lastStep) return;
      lastStep = step;
      const amount = totalBytes > 0 ? `${percent(downloadedBytes, totalBytes)} (${megabytes(downloadedBytes)} of ${megabytes(totalBytes)})` : megabytes(downloadedBytes);
      stream.write(`downloading ${name}: ${amount}\n`);
    },
    end() {
      if (drawn) stream.write("\n");
      drawn = false;
    },
  };
}

function percent(done: number, total: number): string {
  return total > 0 ? `${Math.min(100, Math.floor((done / total) * 100))}%` : "?%";
}

function bar(done: number, total: number): string {
  const width = 24;
  if (!(total > 0)) return `${megabytes(done)}`;
  const filled = Math.min(width, Math.round((done / total) * width));
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${percent(done, total).padStart(4)} ${megabytes(done)} / ${megabytes(total)}`;
}

function rate(bytesPerSecond: number, done: number, total: number): string {
  if (!(bytesPerSecond > 0)) return "";
  const left = total > 0 ? (total - done) / bytesPerSecond : NaN;
  const eta = Number.isFinite(left) && left > 0 ? `, ${duration(left)} left` : "";
  return `${(bytesPerSecond / 1_000_000).toFixed(1)} MB/s${eta}`;
}

function duration(totalSeconds: number): string {
  const s = Math.round(totalSeconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}
