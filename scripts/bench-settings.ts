/**
 * The bench's settings (BENCH_QUICK and the other environment switches, the budget, the
 * requests it sends) and the small helpers every part of it shares: statistics, number
 * formats, the log line and Markdown tables.
 */
import os from "node:os";
import path from "node:path";
import * as v from "valibot";
import { GenerateRequestSchema, type GenerateRequest } from "../src/article/wire/request.js";
import { SAMPLING } from "../src/model/sampling.js";
import { defaultThreads } from "../src/setting-parsers.js";
import { BENCH_DIR, benchArticle } from "./bench-models.js";
import type { Section } from "./bench-types.js";


/** When the run started; the budget and the log count from it. */
export const RUN_STARTED = performance.now();
/** BENCH_QUICK=1: short counts, for debugging the harness. */
export const QUICK = process.env.BENCH_QUICK === "1";
/** BENCH_CPU_PROF=1: the (2) article once more under the V8 profiler. */
export const CPU_PROF = process.env.BENCH_CPU_PROF === "1";
/** The repository. */
export const ROOT = path.resolve(import.meta.dirname, "..");
/** The real stories260K model, when the machine has it. */
export const STORIES = path.resolve(ROOT, "../shared/models/stories260K.gguf");
/** The service's default thread count on this machine. */
export const THREADS = defaultThreads();
/** The key of the servers the bench starts. */
export const API_KEY = "bench-key-0123456789";
/** Every section of a run, in the order they run. */
const ALL_SECTIONS: Section[] = ["engine", "previous", "models"];
/** BENCH_SECTIONS=engine,previous,models: the sections to run (all when unset). */
export const SECTIONS: Section[] = (() => {
  const wanted = process.env.BENCH_SECTIONS?.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  if (!wanted) return ALL_SECTIONS;
  const unknown = wanted.filter((w) => !ALL_SECTIONS.includes(w as Section));
  if (unknown.length) throw new Error(`BENCH_SECTIONS: unknown section ${unknown.join(", ")} (known: ${ALL_SECTIONS.join(", ")})`);
  return ALL_SECTIONS.filter((s) => wanted.includes(s));
})();
/** Only a full run of every section writes BENCHMARKS.md unless BENCH_OUT says otherwise; a quick or partial one writes beside the bench models. */
const PARTIAL = QUICK || SECTIONS.length < ALL_SECTIONS.length;
/** The report file. */
export const OUT = process.env.BENCH_OUT ?? (PARTIAL ? path.join(BENCH_DIR, QUICK ? "BENCHMARKS.quick.md" : "BENCHMARKS.partial.md") : path.join(ROOT, "BENCHMARKS.md"));
/** Where a run's results are saved (BENCH_REPORT_FROM renders the report again from them). */
export const SAVED = path.join(BENCH_DIR, PARTIAL ? (QUICK ? "bench-results.quick.json" : "bench-results.partial.json") : "bench-results.json");
/** The context size src/model/runtime.ts gives a sequence (capped by the model's). */
export const RUNTIME_CONTEXT = 4096;

/** The counts and sizes of a run (short ones in quick mode). */
export const S = QUICK
  ? { articleLength: 150, longLength: 600, repeats: 2, firstEventRuns: 3, firstEventBudgetMs: 5_000, writerTokens: 32, rssArticles: 6, trendArticles: 10, bandwidthMiB: 128, bandwidthReps: 2 }
  : { articleLength: 300, longLength: 5000, repeats: 2, firstEventRuns: 10, firstEventBudgetMs: 15_000, writerTokens: 64, rssArticles: 50, trendArticles: 120, bandwidthMiB: 512, bandwidthReps: 5 };

/** The RSS loop's time cap: 50 short articles fit in it on stories260K; on the larger models it stops early (the report says so). */
export const RSS_CAP_MS = QUICK ? 20_000 : 60_000;

/**
 * What the comparison with the previous engine takes on 2 idle cores (two models, 3 seeds
 * each, both servers started and warmed: about 100 s), added to the budget when it runs so
 * the models' optional rows keep their time.
 */
const PREVIOUS_MS = 120_000;
/** The models' rows should stay under about 12 minutes on 2 cores, the comparison with the previous engine besides. */
const RUN_BUDGET_MS = QUICK ? 600_000 : 690_000 + (SECTIONS.includes("previous") ? PREVIOUS_MS : 0);
/** Time left of the run's budget. */
export const remainingMs = () => RUN_BUDGET_MS - (performance.now() - RUN_STARTED);

/**
 * What the core rows of a model cost on this 2-core machine when idle (measured while
 * writing this bench), scaled by the load average over the cores when other work shares
 * them: held back for the models still to run before an earlier model's optional rows start.
 */
const CORE_RESERVE_MS: Array<[RegExp, number]> = [
  [/stories/i, 60_000],
  [/smollm/i, 45_000],
  [/qwen/i, 100_000],
];
const loadFactor = () => Math.max(1, os.loadavg()[0]! / os.availableParallelism());
/** The time the core rows of a model still to run are held back. */
export const coreReserve = (label: string) => (CORE_RESERVE_MS.find(([re]) => re.test(label))?.[1] ?? 60_000) * loadFactor();

/** The service's sampler (src/model/sampling.ts) for the raw run, without the repeat penalty, which needs the generated tokens. */
const { temperature, topK, topP, minP } = SAMPLING;
/** The raw run's sampler. */
export const RAW_SAMPLING = { temperature, topK, topP, minP } as const;
/** The seed of the (2) article. */
export const SEED = 42;

/** The (2) article: a few hundred completion tokens. */
export const article = (seed: number, length = S.articleLength) => benchArticle(seed, length);

/** A short article for warm-up, concurrency and the RSS loop: the shortest length, title and description given. */
export const shortArticle = (seed: number) => ({
  topic: "Home composting for beginners",
  length: 100,
  structure: "sections",
  seed,
  seo: {
    keywords: "compost bin",
    title: "Compost bin basics for beginners",
    description: "A compost bin turns kitchen scraps and garden waste into rich soil. Learn what to add, what to avoid and how to keep the pile healthy.",
  },
});

/** The warm-up: the short article without headings, so its outline has no field for the model to write. */
export const warmArticle = (seed: number) => ({ ...shortArticle(seed), structure: "paragraphs" });

/** The request as the server normalises it (defaults filled in). */
export function normalised(body: unknown): GenerateRequest {
  const { stream: _stream, ...request } = v.parse(GenerateRequestSchema, body);
  return request;
}

// --- small helpers ------------------------------------------------------------------------


/** Milliseconds, high resolution. */
export const now = () => performance.now();
/** Wait. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The sum of the numbers. */
export const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
/** The q-quantile, interpolated; NaN for none. */
export function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}
/** The median. */
export const median = (xs: number[]) => quantile(xs, 0.5);
/** A number with `digits` decimals, "–" for none. */
export const f = (x: number | undefined, digits = 1) => (x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(digits));
/** Milliseconds in words ("850 ms", "12.3 s"). */
export const ms = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? "–" : Math.abs(x) >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${x.toFixed(0)} ms`);
/** A share as a percentage. */
export const pct = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? "–" : `${(x * 100).toFixed(1)} %`);
/** Bytes in MB. */
export const mb = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1e6).toFixed(1)} MB` : "–");
/** A progress line on stderr, with the seconds since the start. */
export const log = (line: string) => console.error(`[bench ${((now() - RUN_STARTED) / 1000).toFixed(0).padStart(4)} s] ${line}`);


/** A Markdown table. */
export function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}
