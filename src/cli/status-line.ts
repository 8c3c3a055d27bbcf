import prettyMilliseconds from "pretty-ms";

/**
 * A status line on stderr that a terminal redraws in place. Elsewhere (logs, pipes, CI)
 * nothing is redrawn: callers print whole lines instead, so a log never fills with
 * carriage returns.
 */
export interface StatusLine {
  /** Whether the line is redrawn in place. */
  readonly live: boolean;
  /** Redraw the live line; at most every 100 ms unless `force` (a final state). Nothing when not live. */
  draw(text: string, force?: boolean): void;
  /** A line of its own, in place of the live line (which the next `draw` brings back). */
  print(text: string): void;
  /** Keep the live line as it is and move below it. */
  end(): void;
}

/** The {@link StatusLine} of `stream`: live only on a terminal, and never under CI. */
export function statusLine(stream: NodeJS.WriteStream = process.stderr): StatusLine {
  const live = Boolean(stream.isTTY) && !process.env.CI;
  let shown = "";
  let lastDraw = 0;
  return {
    live,
    draw(text, force = false) {
      const now = Date.now();
      if (!live || text === shown || (!force && now - lastDraw < 100)) return;
      lastDraw = now;
      shown = text;
      stream.write(`\r\x1b[K${text}`);
    },
    print(text) {
      stream.write(`${shown ? "\r\x1b[K" : ""}${text}\n`);
      shown = "";
    },
    end() {
      if (shown) stream.write("\n");
      shown = "";
    },
  };
}

/** How often a state line is repeated where nothing is redrawn (logs, pipes, CI). */
const PLAIN_REPEAT_MS = 5000;

/**
 * Repeat `state()` on `line` until the returned function is called: redrawn in place every
 * `liveMs` on a terminal, printed as a line of its own every 5 s elsewhere.
 */
export function repeatState(line: StatusLine, state: () => string, liveMs: number): () => void {
  const timer = setInterval(() => (line.live ? line.draw(state(), true) : line.print(state())), line.live ? liveMs : PLAIN_REPEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** "48s", "1m 12s": a duration in whole seconds, for times left and taken. */
export function duration(ms: number): string {
  return prettyMilliseconds(Math.max(1000, Math.round(ms / 1000) * 1000));
}

/** "[#########---------------]": how much of `total` is done, `width` characters inside the brackets. */
export function bar(done: number, total: number, width = 24): string {
  const filled = Math.min(width, Math.round((done / total) * width));
  return `[${"#".repeat(filled)}${"-".repeat(width - filled)}]`;
}
