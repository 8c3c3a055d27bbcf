import { statSync } from "node:fs";
import path from "node:path";
import prettyBytes from "pretty-bytes";
import { duration, repeatState, statusLine, type StatusLine } from "./status-line.js";

/** How often a terminal redraws the state. */
const LIVE_MS = 1000;

type Phase = "loading" | "planning" | "writing";

/**
 * What `inkpress generate` is doing, on stderr: a line when each phase starts (loading the
 * model, planning the outline, writing), then the state of the phase (time so far; words,
 * rate and time left while writing), redrawn in place on a terminal and repeated every
 * few seconds elsewhere, so a log shows progress long before `done`.
 */
export class GenerateProgress {
  private readonly line: StatusLine;
  private readonly started = performance.now();
  private readonly stopRepeating: () => void;
  private phase: Phase = "loading";
  private phaseStarted = this.started;
  private words = 0;

  /** `target`: the words asked for. */
  constructor(
    private readonly target: number,
    stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.line = statusLine(stream);
    this.stopRepeating = repeatState(this.line, () => this.state(), LIVE_MS);
  }

  /** Before the model is loaded: its file and size, as a download would name them. */
  loading(modelPath: string): void {
    this.enter("loading", loadingModel(modelPath));
  }

  /** Before the article is started: the model plans title and headings first. */
  planning(): void {
    this.enter("planning", "planning outline");
  }

  /** The title and headings are written; the prose follows. */
  outline({ title, outline }: { title: string; outline: unknown[] }): void {
    // Model text reaches a terminal here: control characters could drive it.
    this.enter(
      "writing",
      `writing "${title.replace(/\p{Cc}/gu, "")}": ${outline.length} heading${outline.length === 1 ? "" : "s"}, about ${this.target} words`,
    );
  }

  /** The running total of words written. */
  wordsWritten(words: number): void {
    this.words = words;
    this.line.draw(this.state());
  }

  /** The article is finished. */
  done(words: number, score: number): void {
    this.stopRepeating();
    const seconds = ((performance.now() - this.started) / 1000).toFixed(1);
    this.line.print(`done: ${words} words in ${seconds} s, SEO score ${score}`);
  }

  /** The article is in this file (`-o`), as the user named it. */
  wrote(file: string): void {
    this.line.print(`wrote ${file}`);
  }

  /** No more output (also on failure, so the line does not outlive the command). */
  stop(): void {
    this.stopRepeating();
    this.line.end();
  }

  private enter(phase: Phase, announcement: string): void {
    this.phase = phase;
    this.phaseStarted = performance.now();
    this.line.print(announcement);
  }

  /** "writing: 320/800 words, 14 words/s, about 34s left"; "loading model: 12s". */
  private state(): string {
    const elapsed = performance.now() - this.phaseStarted;
    if (this.phase === "loading") return `loading model: ${duration(elapsed)}`;
    if (this.phase === "planning") return `planning outline: ${duration(elapsed)}`;
    const progress = `writing: ${this.words}/${this.target} words`;
    const rate = this.words / (elapsed / 1000);
    if (!(rate > 0) || !Number.isFinite(rate)) return progress;
    const left = this.target - this.words;
    const eta = left > 0 ? `about ${duration((left / rate) * 1000)} left` : "finishing";
    return `${progress}, ${rate.toFixed(rate < 10 ? 1 : 0)} words/s, ${eta}`;
  }
}

/** "loading model qwen2.5-1.5b-instruct-q4_k_m.gguf … 1.1 GB": also the first line of `inkpress batch`. */
export function loadingModel(modelPath: string): string {
  return `loading model ${path.basename(modelPath)} … ${size(modelPath)}`;
}

/** "1.1 GB": the model file's size, or nothing when it cannot be read (loading then says why). */
function size(file: string): string {
  try {
    return prettyBytes(statSync(file).size, { maximumFractionDigits: 1 });
  } catch {
    return "size unknown";
  }
}
