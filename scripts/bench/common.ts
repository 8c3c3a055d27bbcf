/**
 * What every bench shares: its switches, the request it writes, a few statistics and formats,
 * and the report. A report opens with its verdicts ("met" or "not met", the figure, and one
 * line on what the measurement shows), then its tables; why a figure is what it is belongs in
 * docs/performance.md, written by hand.
 *
 * Switches (environment): BENCH_QUICK=1 (short counts, to check the harness: the report goes to
 * $TMPDIR/inkpress-bench/), BENCH_PREVIOUS=<commit> or `-- --previous <commit>` (the engine to
 * compare with, checked out and installed beside this one; default main; `none` for no
 * comparison), BENCH_MODEL=<file.gguf> (default ../shared/models/stories260K.gguf),
 * BENCH_OUT=<file> (the report).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";

/** The repository. */
export const ROOT = path.resolve(import.meta.dirname, "../..");
/** Where quick reports and the generated model shapes go. */
export const BENCH_DIR = path.join(os.tmpdir(), "inkpress-bench");
/** BENCH_QUICK=1: short counts, for checking the harness, not for figures. */
export const QUICK = process.env.BENCH_QUICK === "1";
/** The model every bench runs. */
export const MODEL = path.resolve(process.env.BENCH_MODEL ?? path.join(ROOT, "../shared/models/stories260K.gguf"));
/** The key of the servers the benches start. */
export const API_KEY = "bench-key-0123456789abcdef";

const started = { at: new Date(), load: os.loadavg() };
const { values: flags } = parseArgs({ options: { previous: { type: "string" } }, strict: false });

/** `git` in the repository, its output trimmed. */
function git(...args: string[]): string {
  return execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();
}

/** The commit to compare today's engine with (`--previous`, BENCH_PREVIOUS, else main), short; undefined for `none`. */
export function previousCommit(): string | undefined {
  const wanted = (typeof flags.previous === "string" ? flags.previous : undefined) ?? process.env.BENCH_PREVIOUS ?? "main";
  return wanted === "none" ? undefined : git("rev-parse", "--short", `${wanted}^{commit}`);
}

/** The request every bench writes (other fields merged in): one shape, so figures compare. */
export function article(seed: number, length: number, extra: object = {}): Record<string, unknown> {
  return {
    topic: "Home composting for beginners",
    length,
    tone: "conversational",
    language: "en",
    structure: "sections",
    seed,
    seo: { keywords: "compost bin, garden waste" },
    ...extra,
  };
}

/** A progress line on stderr. */
export const log = (line: string) =>
  console.error(`[bench ${((Date.now() - started.at.getTime()) / 1000).toFixed(0).padStart(4)} s] ${line}`);
/** The sum of the numbers. */
export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
/** The median; NaN for none. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = (s.length - 1) / 2;
  return s.length ? (s[Math.floor(mid)]! + s[Math.ceil(mid)]!) / 2 : NaN;
}
/** A number with `digits` decimals, "–" for none. */
export const f = (x: number, digits = 2) => (Number.isFinite(x) ? x.toFixed(digits) : "–");
/** Milliseconds in words ("850 ms", "12.3 s"). */
export const ms = (x: number) => (!Number.isFinite(x) ? "–" : x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${x.toFixed(0)} ms`);

/** A Markdown table. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

/** One target: the figure, whether it is met, and the one line of the measurement that says why. */
export interface Verdict {
  target: string;
  goal: string;
  value: string;
  /** Undefined: not measured in this run. */
  met: boolean | undefined;
  why: string;
}

/** A ratio against its ceiling as a verdict. */
export function atMost(
  target: string,
  ratio: number,
  limit: number,
  why: string,
  value = Number.isFinite(ratio) ? `${f(ratio)}×` : "–",
): Verdict {
  return { target, goal: `≤ ${f(limit)}×`, value, met: Number.isFinite(ratio) ? ratio <= limit : undefined, why };
}

/** A count against its ceiling as a verdict. */
export function countAtMost(target: string, count: number, limit: number, why: string): Verdict {
  return { target, goal: `≤ ${limit}`, value: f(count, 0), met: count <= limit, why };
}

/** What a report holds besides its verdicts. */
export interface ReportOptions {
  /** The file's stem: BENCHMARKS, BENCHMARKS-editor… */
  name: string;
  command: string;
  verdicts: Verdict[];
  /** Markdown sections after the verdicts. */
  sections: string[];
  previous: string | undefined;
}

/** The report: where it ran, the verdicts, the tables; the verdicts also go to stdout. */
export function writeReport({ name, command, verdicts, sections, previous }: ReportOptions): void {
  const word = (v: Verdict) => (v.met === undefined ? "not measured" : v.met ? "met" : "not met");
  const dirty = git("status", "--porcelain", "--", "src").split("\n").filter(Boolean).length;
  const cpu = os.cpus()[0]?.model.trim() ?? "unknown CPU";
  const load = (xs: number[]) => xs.map((x) => x.toFixed(2)).join(" ");
  const lines = [
    `# \`${command}\``,
    "",
    `${started.at.toISOString().slice(0, 16)}Z; ${QUICK ? "**BENCH_QUICK: short counts, not figures to quote**; " : ""}commit ${git("rev-parse", "--short", "HEAD")}${dirty ? ` with ${dirty} uncommitted change(s) in src/` : ""}${previous ? ` against ${previous}` : ", no previous engine"}; ` +
      `${os.availableParallelism()} cores (${cpu}), Node ${process.version}; model ${path.basename(MODEL)}; load average ${load(started.load)} at the start, ${load(os.loadavg())} at the end. docs/performance.md says how to read it.`,
    "",
    table(
      ["target", "goal", "measured", "", "what the measurement shows"],
      verdicts.map((v) => [v.target, v.goal, v.value, `**${word(v)}**`, v.why]),
    ),
    "",
    ...sections,
  ];
  const out = process.env.BENCH_OUT ?? (QUICK ? path.join(BENCH_DIR, `${name}.quick.md`) : path.join(ROOT, `${name}.md`));
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, `${lines.join("\n")}\n`);
  for (const v of verdicts) console.log(`${word(v).padEnd(12)} ${v.target}: ${v.value} (goal ${v.goal})${v.why ? `: ${v.why}` : ""}`);
  log(`wrote ${out}`);
}
