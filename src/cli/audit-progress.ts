import { bar, duration, repeatState, statusLine, type StatusLine } from "./status-line.js";

/** How often a terminal redraws the state. */
const LIVE_MS = 250;

/**
 * What `inkpress audit` is doing, on stderr, as `batch` shows it: the pages found, a line
 * per page that cannot be read, and the state (a bar on a terminal, pages done of all,
 * pages a second, time left), redrawn in place on a terminal and repeated elsewhere.
 */
export class AuditProgress {
  private readonly line: StatusLine;
  private stopRepeating: (() => void) | undefined;
  private started = 0;
  private total = 0;
  private done = 0;

  constructor(stream: NodeJS.WriteStream = process.stderr) {
    this.line = statusLine(stream);
  }

  /** The pages found: the rate and time left count from here. */
  start(total: number): void {
    this.total = total;
    this.started = performance.now();
    this.line.print(`${total} page${total === 1 ? "" : "s"} to analyse`);
    this.stopRepeating = repeatState(this.line, () => this.state(), LIVE_MS);
  }

  page(_file: string): void {
    this.done++;
    this.line.draw(this.state());
  }

  unreadable(error: string): void {
    this.done++;
    this.line.print(error);
  }

  /** The final state, and no more output. */
  stop(): void {
    this.stopRepeating?.();
    if (this.started) this.line.print(`analysed ${this.done}/${this.total} pages in ${duration(performance.now() - this.started)}`);
    this.started = 0;
    this.line.end();
  }

  /** "[######------] 120/1000 pages, 41 pages/s, about 21s left" (the bar on a terminal only). */
  private state(): string {
    const progress = `${this.line.live ? `${bar(this.done, this.total || 1)} ` : "analysing: "}${this.done}/${this.total} pages`;
    const perSecond = this.done / ((performance.now() - this.started) / 1000);
    if (!(perSecond > 0) || !Number.isFinite(perSecond)) return progress;
    const left = this.total - this.done;
    return `${progress}, ${perSecond.toFixed(perSecond < 10 ? 1 : 0)} pages/s${left > 0 ? `, about ${duration((left / perSecond) * 1000)} left` : ""}`;
  }
}
