/**
 * `npm run bench`: how fast the service writes articles against what node-llama-cpp can
 * do on the same machine, on random-weight models with the exact shapes of
 * SmolLM2-135M-Instruct and Qwen2.5-0.5B-Instruct in Q8_0 (scripts/bench-models.ts), and
 * on ../shared/models/stories260K.gguf when present. Prints tables and writes BENCHMARKS.md.
 *
 * Backend: CPU, in-process node-llama-cpp (`getLlama({ gpu: false })`), the thread count
 * of src/config.ts. GPU figures are not measured (this machine has no GPU).
 *
 * Per model:
 *  (1) raw decoding in-process: a node-llama-cpp context made like src/model/runtime.ts makes
 *      it (own `getLlama`, same threads and context size), the article's prompt evaluated once,
 *      then exactly N tokens with the service's sampler, N = the completion tokens of (2);
 *  (2) a 300-word article over SSE on the real server (`inkpress serve --sequences 1`):
 *      wall to `done`, time to `meta` (the first event), `outline` and the first `delta`,
 *      `usage.promptTokens`, and where the time goes (a probe in the server);
 *  (3) per-delta time over a 5,000-word article (stories260K, in-process on ModelRuntime):
 *      the engine's own time per delta (wall between deltas less native forward passes and
 *      sampling), first 10 % of deltas against the last 10 %;
 *  (4) prompt tokens evaluated against the unique prompt tokens (prefix tree of every call);
 *  (5) decode speed against the memory-bandwidth ceiling;
 *  and, where the time budget allows: more first-event samples, a second (2)/(1) pair, the
 *  writer layer alone, aggregate tokens/s at 1 and 4 clients, RSS over 50 articles.
 *
 * The servers run with a timing probe preloaded (scripts/bench-probe.ts); it costs about a
 * microsecond per token.
 *
 * Env: BENCH_QUICK=1 (short counts, for debugging the harness; writes
 *      $TMPDIR/inkpress-bench/BENCHMARKS.quick.md instead of BENCHMARKS.md),
 *      BENCH_MODELS=smollm2,qwen,stories (a subset), BENCH_CPU_PROF=1 (the (2) article once
 *      more under the V8 profiler), BENCH_OUT=path (report file), BENCH_REPORT_FROM=path
 *      (render the report again from the results a run saved, without running anything).
 * The whole run keeps under about 12 minutes on 2 cores: the core rows of every model come
 * first in the budget; optional rows are skipped (and the report says so) when what is left
 * would not cover them and the core rows of the models still to run.
 */
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { readFileSync, existsSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import { getLlama, LlamaLogLevel, type LlamaContextSequence, type Token } from "node-llama-cpp";
import * as v from "valibot";
import { writeArticle } from "../src/article/article.js";
import { plan } from "../src/article/plan.js";
import { articlePrompt } from "../src/article/prompts.js";
import { GenerateRequestSchema, type GenerateRequest } from "../src/article/request.js";
import { countWords, splitSentences } from "../src/article/text.js";
import { defaultThreads } from "../src/setting-parsers.js";
import { LlamaWriter } from "../src/model/llama-writer.js";
import { ModelRuntime } from "../src/model/runtime.js";
import { SAMPLING } from "../src/model/sampling.js";
import { fetchSse } from "../test/helpers/sse.js";
import { BENCH_DIR, BENCH_SPECS, benchArticle, ensureBenchModel, type BenchModel } from "./bench-models.js";
import { installProbe, nativeTotals, readProfile, resetProfile, setCapturePrompts, type CallRecord, type Profile } from "./bench-probe.js";

// --- settings -----------------------------------------------------------------------------

const RUN_STARTED = performance.now();
const QUICK = process.env.BENCH_QUICK === "1";
const CPU_PROF = process.env.BENCH_CPU_PROF === "1";
const ROOT = path.resolve(import.meta.dirname, "..");
const STORIES = path.resolve(ROOT, "../shared/models/stories260K.gguf");
const THREADS = defaultThreads();
const API_KEY = "bench-key-0123456789";
const OUT = process.env.BENCH_OUT ?? (QUICK ? path.join(BENCH_DIR, "BENCHMARKS.quick.md") : path.join(ROOT, "BENCHMARKS.md"));
/** The context size src/model/runtime.ts gives a sequence (capped by the model's). */
const RUNTIME_CONTEXT = 4096;

const S = QUICK
  ? { articleLength: 150, longLength: 600, repeats: 2, firstEventRuns: 3, firstEventBudgetMs: 5_000, writerTokens: 32, rssArticles: 6, trendArticles: 10, bandwidthMiB: 128, bandwidthReps: 2 }
  : { articleLength: 300, longLength: 5000, repeats: 2, firstEventRuns: 10, firstEventBudgetMs: 15_000, writerTokens: 64, rssArticles: 50, trendArticles: 120, bandwidthMiB: 512, bandwidthReps: 5 };

/** The RSS loop's time cap: 50 short articles fit in it on stories260K; on the larger models it stops early (the report says so). */
const RSS_CAP_MS = QUICK ? 20_000 : 60_000;

/** The whole run should stay under about 12 minutes on 2 cores. */
const RUN_BUDGET_MS = QUICK ? 600_000 : 690_000;
const remainingMs = () => RUN_BUDGET_MS - (performance.now() - RUN_STARTED);

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
const coreReserve = (label: string) => (CORE_RESERVE_MS.find(([re]) => re.test(label))?.[1] ?? 60_000) * loadFactor();

/** The service's sampler (src/model/sampling.ts) for the raw run, without the repeat penalty, which needs the generated tokens. */
const { temperature, topK, topP, minP } = SAMPLING;
const RAW_SAMPLING = { temperature, topK, topP, minP } as const;
const SEED = 42;

/** The (2) article: a few hundred completion tokens. */
const article = (seed: number, length = S.articleLength) => benchArticle(seed, length);

/** A short article for warm-up, concurrency and the RSS loop: the shortest length, title and description given. */
const shortArticle = (seed: number) => ({
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
const warmArticle = (seed: number) => ({ ...shortArticle(seed), structure: "paragraphs" });

/** The request as the server normalises it (defaults filled in). */
function normalised(body: unknown): GenerateRequest {
  const { stream: _stream, ...request } = v.parse(GenerateRequestSchema, body);
  return request;
}

// --- small helpers ------------------------------------------------------------------------

const now = () => performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo]! + (s[hi]! - s[lo]!) * (pos - lo);
}
const median = (xs: number[]) => quantile(xs, 0.5);
const f = (x: number | undefined, digits = 1) => (x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(digits));
const ms = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? "–" : Math.abs(x) >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${x.toFixed(0)} ms`);
const pct = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? "–" : `${(x * 100).toFixed(1)} %`);
const mb = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1e6).toFixed(1)} MB` : "–");
const log = (line: string) => console.error(`[bench ${((now() - RUN_STARTED) / 1000).toFixed(0).padStart(4)} s] ${line}`);

// --- machine ------------------------------------------------------------------------------

function machine() {
  let cpu = os.cpus()[0]?.model ?? "unknown";
  try {
    const info = readFileSync("/proc/cpuinfo", "utf8");
    const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.*)$`, "m").exec(info)?.[1];
    const flags = (field("flags") ?? "").split(" ");
    const simd = ["avx2", "avx512f", "avx512_vnni", "avx_vnni", "amx_int8"].filter((x) => flags.includes(x));
    cpu = `${field("model name") ?? cpu} (family ${field("cpu family")}, model ${field("model")}; ${simd.join(", ") || "no AVX2"})`;
  } catch {}
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "node_modules/node-llama-cpp/package.json"), "utf8")) as { version: string };
  const git = (...args: string[]) => {
    try {
      return execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    } catch {
      return "";
    }
  };
  const dirty = git("status", "--porcelain", "--", "src").split("\n").filter(Boolean).length;
  return {
    cores: os.availableParallelism(),
    cpu,
    node: process.version,
    nodeLlamaCpp: pkg.version,
    memTotal: os.totalmem(),
    loadavg: os.loadavg(),
    commit: git("rev-parse", "--short", "HEAD") || "unknown",
    dirtySrc: dirty,
  };
}

// --- memory bandwidth -----------------------------------------------------------------------

interface Bandwidth {
  /** Single thread, memcmp of two buffers (Buffer.compare), bytes read per second. */
  memcmp1: number;
  /** Two threads, each comparing its own pair at once. */
  memcmp2: number;
  bufferBytes: number;
}

const BANDWIDTH_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const a = Buffer.allocUnsafeSlow(workerData.bytes).fill(0x5a);
const b = Buffer.allocUnsafeSlow(workerData.bytes).fill(0x5a);
Buffer.compare(a, b);
parentPort.on("message", (m) => {
  if (m !== "run") return process.exit(0);
  const t0 = performance.now();
  Buffer.compare(a, b);
  parentPort.postMessage(performance.now() - t0);
});
parentPort.postMessage("ready");
`;

async function measureBandwidth(): Promise<Bandwidth> {
  const bytes = S.bandwidthMiB * 1024 * 1024;
  // Filled explicitly: a fresh zeroed allocation maps one shared zero page and reads from cache.
  const a = Buffer.allocUnsafeSlow(bytes).fill(0x5a);
  const b = Buffer.allocUnsafeSlow(bytes).fill(0x5a);
  Buffer.compare(a, b);
  let best1 = Infinity;
  for (let i = 0; i < S.bandwidthReps; i++) {
    const t0 = now();
    if (Buffer.compare(a, b) !== 0) throw new Error("buffers differ");
    best1 = Math.min(best1, now() - t0);
  }
  // Two threads at once, each with its own half-size pair (same total footprint).
  const half = bytes / 2;
  const workers = [0, 1].map(() => new Worker(BANDWIDTH_WORKER, { eval: true, workerData: { bytes: half } }));
  await Promise.all(workers.map((w) => new Promise((r) => w.once("message", r))));
  let best2 = Infinity;
  for (let i = 0; i < S.bandwidthReps; i++) {
    const times = await Promise.all(workers.map((w) => new Promise<number>((r) => { w.once("message", r); w.postMessage("run"); })));
    best2 = Math.min(best2, Math.max(...times));
  }
  await Promise.all(workers.map((w) => w.terminate()));
  return { memcmp1: (2 * bytes) / (best1 / 1000), memcmp2: (2 * 2 * half) / (best2 / 1000), bufferBytes: bytes };
}

// --- re-reading the unfinished sentence ------------------------------------------------------

/**
 * What the body pass pays per token to re-read the sentence being written: its `nextUnit`
 * splits the pending line into sentences and, while no sentence has ended, counts its words
 * (the run-on check), every time a piece arrives. Microseconds per token by the pending
 * line's length in words.
 */
let REREAD: Array<{ words: number; us: number }> = [];

function sentenceRereadCost(): Array<{ words: number; us: number }> {
  const words = "Lily and Tim went to the park to see a big red ball and they were very happy because the sun was out and the birds sang in the tall green trees near the pond".split(" ");
  return [5, 15, 30].map((n) => {
    const line = words.slice(0, n).join(" ");
    const run = (times: number) => {
      for (let i = 0; i < times; i++) {
        splitSentences(line, "en");
        countWords(line, "en");
      }
    };
    run(1000);
    const t0 = now();
    run(5000);
    return { words: n, us: ((now() - t0) / 5000) * 1000 };
  });
}

// --- the server ---------------------------------------------------------------------------

interface Rss {
  vmRss: number;
  rssAnon: number;
  rssFile: number;
}

interface HttpResult {
  wallMs: number;
  json: { usage?: { promptTokens: number; completionTokens: number; durationMs: number }; article?: { wordCount: number } };
}

class BenchServer {
  private output = "";
  private nextId = 1;
  private readonly pending = new Map<number, (message: unknown) => void>();
  readonly articles = { completed: 0 };

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    readonly loadMs: number,
  ) {
    child.on("message", (m: { id?: number }) => {
      if (m && typeof m.id === "number") {
        this.pending.get(m.id)?.(m);
        this.pending.delete(m.id);
      }
    });
  }

  static async start(modelPath: string, options: { sequences: number; threads: number }): Promise<BenchServer> {
    const tsx = pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
    const probe = pathToFileURL(path.join(ROOT, "scripts/bench-probe.ts")).href;
    const args = [
      "--import", tsx, "--import", probe, "--expose-gc",
      path.join(ROOT, "src/cli/main.ts"), "serve",
      "--model", modelPath, "--port", "0", "--threads", String(options.threads), "--sequences", String(options.sequences),
    ];
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("INKPRESS_"))) as Record<string, string>;
    const keysDir = path.join(BENCH_DIR, `keys-${process.pid}`);
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...env, INKPRESS_API_KEYS: API_KEY, INKPRESS_KEYS_FILE: path.join(keysDir, "keys.json"), BENCH_PROBE: "1", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    const t0 = now();
    let output = "";
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output = (output + d).slice(-20_000);
        const match = output.match(/listening on (http:\/\/\S+)/);
        if (match && /model .* loaded/.test(output)) resolve(match[1]!);
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${output}`)));
    });
    const server = new BenchServer(child, url, now() - t0);
    const keep = (d: Buffer) => (server.output = (server.output + d).slice(-20_000));
    child.stdout!.removeAllListeners("data").on("data", keep);
    child.stderr!.removeAllListeners("data").on("data", keep);
    server.output = output;
    return server;
  }

  /** RSS after a full garbage collection: live memory, not garbage V8 has yet to collect. */
  async rssAfterGc(): Promise<Rss> {
    await this.ask("bench:gc");
    await sleep(100);
    return this.rss();
  }

  rss(): Rss {
    const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s*(\\d+)`, "m").exec(status)?.[1] ?? NaN) * 1024;
    return { vmRss: kb("VmRSS"), rssAnon: kb("RssAnon"), rssFile: kb("RssFile") };
  }

  private ask<T>(type: string): Promise<T> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${type}`)), 30_000);
      this.pending.set(id, (m) => {
        clearTimeout(timer);
        resolve(m as T);
      });
      this.child.send({ type, id });
    });
  }

  async profile(): Promise<Profile> {
    return (await this.ask<{ profile: Profile }>("bench:profile")).profile;
  }

  async reset(): Promise<void> {
    await this.ask("bench:reset");
  }

  async cpuStart(): Promise<void> {
    await this.ask("bench:cpu-start");
  }

  async cpuStop(): Promise<CpuProfile> {
    return (await this.ask<{ profile: CpuProfile }>("bench:cpu-stop")).profile;
  }

  async health(): Promise<{ queue?: { running: number; waiting: number }; prompting?: string; model?: string }> {
    return (await fetch(`${this.url}/healthz`)).json() as Promise<{ queue?: { running: number; waiting: number } }>;
  }

  /** Wait until nothing runs or waits (an aborted generation stops at its next checkpoint). */
  async waitIdle(timeoutMs = 300_000): Promise<void> {
    const until = now() + timeoutMs;
    while (now() < until) {
      const { queue } = await this.health();
      if (queue && queue.running === 0 && queue.waiting === 0) return;
      await sleep(10);
    }
    throw new Error("server did not become idle");
  }

  async generate(body: unknown): Promise<HttpResult> {
    const t0 = now();
    const response = await fetch(`${this.url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY, accept: "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as HttpResult["json"];
    const wallMs = now() - t0;
    if (response.status !== 200) throw new Error(`generate answered ${response.status}: ${JSON.stringify(json).slice(0, 500)}\n${this.output.slice(-2000)}`);
    this.articles.completed++;
    return { wallMs, json };
  }

  /**
   * One article over SSE, nothing queued: the times of `meta`, `outline`, the first `delta`
   * and `done` from the request's start. With `leaveAfter` the client leaves after the first
   * event, or after the first delta (then waits until the server is idle again).
   */
  async stream(body: unknown, leaveAfter?: "first" | "delta"): Promise<SseRun> {
    await this.waitIdle();
    await this.reset();
    const t0 = now();
    const sse = await fetchSse(`${this.url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY, accept: "text/event-stream" },
      body: JSON.stringify(body),
    });
    const run: SseRun = { headersMs: now() - t0, firstEvent: "", firstEventMs: NaN, metaMs: NaN, outlineMs: NaN, firstDeltaMs: NaN, wallMs: NaN, deltas: 0, words: 0, usage: { promptTokens: 0, completionTokens: 0, durationMs: 0 }, profile: undefined };
    for await (const e of sse.events) {
      const at = e.receivedAt - t0;
      if (!run.firstEvent) {
        run.firstEvent = e.event;
        run.firstEventMs = at;
        if (leaveAfter === "first") break;
      }
      if (e.event === "meta") run.metaMs = at;
      else if (e.event === "outline") run.outlineMs = at;
      else if (e.event === "delta") {
        if (run.deltas++ === 0) run.firstDeltaMs = at;
        if (leaveAfter === "delta") break;
      } else if (e.event === "done") {
        run.wallMs = at;
        const done = JSON.parse(e.data) as { usage: SseRun["usage"]; article: { wordCount: number } };
        run.usage = done.usage;
        run.words = done.article.wordCount;
      } else if (e.event === "error") throw new Error(`stream error: ${e.data}\n${this.output.slice(-2000)}`);
    }
    sse.abort();
    if (leaveAfter) {
      await this.waitIdle();
      return run;
    }
    if (!Number.isFinite(run.wallMs)) throw new Error(`stream ended without done\n${this.output.slice(-2000)}`);
    this.articles.completed++;
    run.profile = await this.profile();
    return run;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(timer);
  }
}

interface SseRun {
  headersMs: number;
  firstEvent: string;
  firstEventMs: number;
  metaMs: number;
  outlineMs: number;
  firstDeltaMs: number;
  /** To `done`. */
  wallMs: number;
  deltas: number;
  words: number;
  usage: { promptTokens: number; completionTokens: number; durationMs: number };
  profile: Profile | undefined;
}

// --- concurrency ----------------------------------------------------------------------------

interface Level {
  /** The server's --sequences. */
  sequences: number;
  clients: number;
  requests: number;
  tokens: number;
  wallMs: number;
  aggregate: number;
  p50: number;
  p95: number;
  /** Tokens per single-step decode batch: 2 when both sequences always decode together. */
  tokensPerStep: number;
  /** Share of the wall time the native forward pass ran. */
  busy: number;
}

/** Decode steps (batches of 1–4 tokens) and larger batches of a profile. */
function batchStats(p: Profile) {
  const buckets = ["1", "2", "3", "4"].map((k) => p.batches[k] ?? { calls: 0, ms: 0, tokens: 0 });
  const large = p.batches["5+"] ?? { calls: 0, ms: 0, tokens: 0 };
  return {
    stepCalls: sum(buckets.map((b) => b.calls)),
    stepTokens: sum(buckets.map((b) => b.tokens)),
    stepMs: sum(buckets.map((b) => b.ms)),
    single: p.batches["1"] ?? { calls: 0, ms: 0, tokens: 0 },
    allMs: sum(buckets.map((b) => b.ms)) + large.ms,
    /** Batches of 2+ tokens: with one sequence, prompt and forced-text evaluation. */
    multi: { calls: sum(buckets.slice(1).map((b) => b.calls)) + large.calls, ms: sum(buckets.slice(1).map((b) => b.ms)) + large.ms, tokens: sum(buckets.slice(1).map((b) => b.tokens)) + large.tokens },
  };
}

async function concurrency(server: BenchServer, sequences: number, clients: number, perClient: number): Promise<Level> {
  await server.waitIdle();
  await server.reset();
  const latencies: number[] = [];
  let tokens = 0;
  const t0 = now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let k = 0; k < perClient; k++) {
        const r = await server.generate(shortArticle(1000 + c * perClient + k));
        latencies.push(r.wallMs);
        tokens += r.json.usage!.completionTokens;
      }
    }),
  );
  const wallMs = now() - t0;
  const b = batchStats(await server.profile());
  return {
    sequences,
    clients,
    requests: clients * perClient,
    tokens,
    wallMs,
    aggregate: tokens / (wallMs / 1000),
    p50: median(latencies),
    p95: quantile(latencies, 0.95),
    tokensPerStep: b.stepTokens / Math.max(1, b.stepCalls),
    busy: b.allMs / wallMs,
  };
}

// --- prompt tokens ----------------------------------------------------------------------------

/**
 * Every evaluated token of an article's calls, classified against a prefix tree of all the
 * tokens evaluated or generated before it: fresh (its position and everything before it
 * never seen: a perfect prefix cache would have to evaluate it too) or again (seen before:
 * evaluated again after a cut). The token a step sampled but left unevaluated, evaluated
 * first by the next step, is generation (LlamaWriter.sync does not count it either).
 */
function promptAccounting(calls: CallRecord[]) {
  type Node = Map<number, Node>;
  const root: Node = new Map();
  let fresh = 0;
  let again = 0;
  let sampled = 0;
  for (const [i, c] of calls.entries()) {
    const prev = calls[i - 1];
    const sampledFirst = prev !== undefined && prev.tokens > 0 && c.input > 0 && c.held === prev.held + prev.input + prev.tokens - 1;
    let node = root;
    for (const [j, token] of [...c.prompt, ...c.generated].entries()) {
      let next = node.get(token);
      const evaluated = j >= c.held && j < c.held + c.input && !(sampledFirst && j === c.held);
      if (!next) {
        next = new Map();
        node.set(token, next);
        if (evaluated) fresh++;
      } else if (evaluated) again++;
      if (sampledFirst && j === c.held) sampled++;
      node = next;
    }
  }
  return { instructions: calls[0]?.input ?? 0, fresh, again, sampled, evaluated: fresh + again };
}

// --- in-process runs --------------------------------------------------------------------------

interface RawRun {
  /** Every run's wall time when repeated; the best is the one reported. */
  walls?: number[];
  tokens: number;
  totalMs: number;
  /** Prompt evaluation and the first sample, summed over segments. */
  prefillMs: number;
  promptTokens: number;
  segments: number;
  /** Later tokens per second. */
  decodeRate: number;
  profile: Profile;
}

/** (1): the article's prompt evaluated once, then exactly `n` tokens, with the service's sampler and no extras. */
async function rawDecode(sequence: LlamaContextSequence, prompt: Token[], n: number): Promise<RawRun> {
  await sequence.clearHistory();
  resetProfile();
  const t0 = now();
  let produced = 0;
  let prefillMs = 0;
  let segments = 0;
  while (produced < n) {
    // Only when N does not fit in the context after the prompt: start again from the prompt.
    if (segments > 0) await sequence.clearHistory();
    const want = Math.min(n - produced, sequence.contextSize - prompt.length - 2);
    const ts = now();
    let got = 0;
    for await (const _ of sequence.evaluate(prompt, { ...RAW_SAMPLING, seed: SEED + segments, yieldEogToken: true })) {
      if (got === 0) prefillMs += now() - ts;
      if (++got >= want) break;
    }
    produced += got;
    segments++;
  }
  const totalMs = now() - t0;
  return { tokens: produced, totalMs, prefillMs, promptTokens: prompt.length * segments, segments, decodeRate: (produced - segments) / ((totalMs - prefillMs) / 1000), profile: readProfile() };
}

interface WriterRun {
  tokens: number;
  totalMs: number;
  decodeRate: number;
  /** The same prompt and token count decoded raw. */
  rawDecodeRate: number;
}

/** The service's writer (src/model/llama-writer.ts: repeat penalty, detokenizing, syncing) on the article's prompt, free text, against raw decoding of as many tokens. */
async function writerLayer(model: import("node-llama-cpp").LlamaModel, llama: import("node-llama-cpp").Llama, sequence: LlamaContextSequence, prompt: Token[], n: number): Promise<WriterRun> {
  const writer = new LlamaWriter({ llama, model, sequence, tokenizePrompt: () => prompt, release: () => {} });
  await writer.begin({ system: "", user: "", completion: "" });
  resetProfile();
  const t0 = now();
  let first = NaN;
  for await (const _ of writer.generate({ maxTokens: n, seed: SEED })) if (Number.isNaN(first)) first = now() - t0;
  const totalMs = now() - t0;
  const tokens = writer.usage.completionTokens;
  const firstMs = readProfile().calls[0]?.firstMs ?? first;
  await writer.dispose();
  const raw = await rawDecode(sequence, prompt, Math.max(2, tokens));
  return { tokens, totalMs, decodeRate: (tokens - 1) / ((totalMs - firstMs) / 1000), rawDecodeRate: raw.decodeRate };
}

/** The main thread's time on a CPU and waiting for one (run queue), ns: /proc/self/task/<pid>/schedstat. */
function mainThreadSched(): { cpu: number; wait: number } {
  try {
    const [cpu, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").split(" ").map(Number);
    return { cpu: cpu!, wait: wait! };
  } catch {
    return { cpu: NaN, wait: NaN };
  }
}

interface DeltaStat {
  wallMs: number;
  /** Time outside node-llama-cpp's token generators: the engine's own work (wall). */
  ownMs: number;
  /** The main thread's CPU time in the interval: the engine's JS and node-llama-cpp's (forward passes and sampling run on worker threads). */
  cpuMs: number;
  /** Time the main thread waited for a core (other processes, the decode thread). */
  waitMs: number;
  /** Native forward passes and sampling in the interval. */
  modelMs: number;
  /** Tokens decoded one at a time in the interval (generated tokens). */
  tokens: number;
  eraseMs: number;
}

interface LongRun {
  length: number;
  wallMs: number;
  words: number;
  usage: { promptTokens: number; completionTokens: number; durationMs: number };
  contextSize: number;
  deltas: DeltaStat[];
}

/**
 * (3): a long article in-process on the service's own backend (ModelRuntime, one sequence),
 * the native counters read at the outline and at every delta.
 */
async function longArticle(model: BenchModel, length: number): Promise<LongRun> {
  const runtime = await ModelRuntime.load({ modelPath: model.path, threads: THREADS, sequences: 1, queueSize: 1 });
  setCapturePrompts(false);
  try {
    // Warm-up: the first passes of a context allocate its buffers.
    await writeArticle(normalised(warmArticle(5)), { backend: runtime });
    resetProfile();
    const marks: Array<{ t: number; model: number; generator: number; steps: number; erase: number; cpu: number; wait: number }> = [];
    const mark = () => {
      const n = nativeTotals();
      const sched = mainThreadSched();
      marks.push({ t: now(), model: n.decodeMs + n.sampleMs, generator: n.generatorMs, steps: n.steps, erase: n.eraseMs, cpu: sched.cpu, wait: sched.wait });
    };
    const t0 = now();
    const written = await writeArticle(normalised(article(SEED, length)), { backend: runtime, onOutline: mark, onDelta: mark });
    const wallMs = now() - t0;
    const deltas = marks.slice(1).map((m, i) => {
      const before = marks[i]!;
      return { wallMs: m.t - before.t, ownMs: m.t - before.t - (m.generator - before.generator), cpuMs: (m.cpu - before.cpu) / 1e6, waitMs: (m.wait - before.wait) / 1e6, modelMs: m.model - before.model, tokens: m.steps - before.steps, eraseMs: m.erase - before.erase };
    });
    return { length, wallMs, words: written.response.article.wordCount, usage: written.response.usage, contextSize: runtime.contextSize, deltas };
  } finally {
    setCapturePrompts(true);
    await runtime.dispose();
  }
}

/** The long article in tenths: engine CPU and wall − native per generated token, tokens per delta. */
function deltaDeciles(run: LongRun) {
  const n = run.deltas.length;
  return Array.from({ length: 10 }, (_, k) => {
    const ds = run.deltas.slice(Math.floor((k * n) / 10), Math.floor(((k + 1) * n) / 10));
    const tokens = Math.max(1, sum(ds.map((d) => d.tokens)));
    return {
      ownPerDelta: sum(ds.map((d) => d.ownMs)) / Math.max(1, ds.length),
      ownPerToken: sum(ds.map((d) => d.ownMs)) / tokens,
      cpuPerToken: sum(ds.map((d) => d.cpuMs)) / tokens,
      enginePerToken: sum(ds.map((d) => d.wallMs - d.modelMs)) / tokens,
      cpuPerDelta: sum(ds.map((d) => d.cpuMs)) / Math.max(1, ds.length),
      tokensPerDelta: tokens / Math.max(1, ds.length),
    };
  });
}

/** Averages over the first and last 10 % of deltas. */
function deltaEnds(run: LongRun) {
  const k = Math.max(1, Math.floor(run.deltas.length / 10));
  const part = (ds: DeltaStat[]) => {
    const wall = sum(ds.map((d) => d.wallMs)) / ds.length;
    const model = sum(ds.map((d) => d.modelMs)) / ds.length;
    const tokens = sum(ds.map((d) => d.tokens)) / ds.length;
    const cpu = sum(ds.map((d) => d.cpuMs)) / ds.length;
    const own = sum(ds.map((d) => d.ownMs)) / ds.length;
    return {
      own,
      ownPerToken: own / Math.max(1e-9, tokens),
      wall,
      model,
      engine: wall - model,
      cpu,
      wait: sum(ds.map((d) => d.waitMs)) / ds.length,
      tokens,
      enginePerToken: (wall - model) / Math.max(1e-9, tokens),
      cpuPerToken: cpu / Math.max(1e-9, tokens),
      modelPerToken: model / Math.max(1e-9, tokens),
      erase: sum(ds.map((d) => d.eraseMs)) / ds.length,
    };
  };
  return { k, first: part(run.deltas.slice(0, k)), last: part(run.deltas.slice(-k)) };
}

// --- CPU profile summary --------------------------------------------------------------------------

interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  samples: number[];
  timeDeltas: number[];
}

interface CpuSummary {
  top: Array<{ name: string; ms: number; share: number }>;
  categories: Array<{ name: string; ms: number; share: number }>;
  file: string;
}

/** Self time by function and by where the code lives; native frames count for their nearest JS caller. */
function summariseCpuProfile(profile: CpuProfile, file: string): CpuSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const functions = new Map<string, number>();
  const categories = new Map<string, number>();
  let all = 0;
  const category = (url: string) => {
    if (url.includes("/src/article/")) return "src/article (plan, outline, body, document, analyse)";
    if (url.includes("/src/model/")) return "src/model (writer, runtime, pool)";
    if (url.includes("/src/http/") || url.includes("/src/server")) return "src/http";
    if (url.includes("/scripts/bench")) return "bench probe";
    if (url.includes("node-llama-cpp") || url.includes("lifecycle-utils")) return "node-llama-cpp";
    if (/node_modules\/(h3|listhen|srvx|crossws|rou3)/.test(url)) return "h3/listhen";
    if (/node_modules\/(unified|remark|rehype|mdast|hast|micromark|unist|vfile)/.test(url)) return "unified/remark/rehype";
    if (url.startsWith("node:")) return "node internals";
    return "other JS";
  };
  /** The nearest caller with a URL, skipping the probe's wrappers; undefined under the profiler's own start. */
  const caller = (id: number): string | undefined => {
    let cur = parent.get(id);
    while (cur !== undefined) {
      const frame = byId.get(cur)!.callFrame;
      if (frame.functionName === "startCpuProfile") return undefined;
      if (frame.url && !frame.url.includes("/scripts/bench")) return frame.url;
      cur = parent.get(cur);
    }
    return "";
  };
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const us = profile.timeDeltas[i] ?? 0;
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    let c: string;
    if (url) c = category(url);
    else if (functionName === "(idle)") c = "(idle): waiting, mostly for the native forward pass";
    else if (functionName === "(garbage collector)" || functionName === "(program)" || functionName === "(root)") c = functionName;
    else {
      const from = caller(id);
      if (from === undefined) return; // the profiler starting
      c = `native code called from ${from ? category(from) : "the event loop"}`;
    }
    all += us;
    const where = url.replace(/^file:\/\//, "").replace(`${ROOT}/`, "").replace(/^.*node_modules\//, "~/");
    const name = url ? `${functionName || "(anonymous)"} ${where}:${lineNumber + 1}` : functionName || "(native)";
    functions.set(name, (functions.get(name) ?? 0) + us);
    categories.set(c, (categories.get(c) ?? 0) + us);
  });
  const list = (m: Map<string, number>, n: number) =>
    [...m.entries()].map(([name, us]) => ({ name, ms: us / 1000, share: us / all })).sort((a, b) => b.ms - a.ms).slice(0, n);
  return { top: list(functions, 20), categories: list(categories, 12), file };
}

// --- one model ----------------------------------------------------------------------------------

interface RssResult {
  startup: Rss;
  warm: Rss;
  /** At the last article of the loop. */
  final: Rss;
  finalNoGc: Rss;
  /** Readings after GC during the loop to 50. */
  series: Array<{ articles: number; vmRss: number }>;
  /** Readings after GC past 50, while time allows. */
  extended: Array<{ articles: number; vmRss: number }>;
  articles: number;
  memoryStartup?: NodeJS.MemoryUsage;
  memoryWarm?: NodeJS.MemoryUsage;
  memoryFinal?: NodeJS.MemoryUsage;
  capped: boolean;
}

interface PromptSplit {
  /** The instructions: the first call's prompt. */
  instructions: number;
  /** Tokens evaluated in all: should equal usage.promptTokens. */
  evaluated: number;
  /** Answer text the engine appended (title, headings, keyword openings, breaks), evaluated once. */
  forced: number;
  /** Tokens evaluated again at a position they had been evaluated at before (after a cut). */
  again: number;
  /** Words of the instruction text (system + user, or the completion text). */
  words: number;
}

interface ModelResult {
  model: BenchModel;
  prompting: string;
  service: { runs: SseRun[]; best: SseRun; loadMs: number; cpuProfile?: CpuSummary };
  /** Extra runs the client left after the first event. */
  firstEvents: SseRun[];
  raw: RawRun;
  writer?: WriterRun;
  long?: LongRun;
  levels: Level[];
  rss?: RssResult;
  unique: { evaluated: number; unique: number; calls: number };
  prompt: PromptSplit;
  /** Optional rows not run, and why. */
  skipped: string[];
}

/** The leading grammar-constrained calls that write more than one token: the outline and its rewrites. */
function outlineCalls(calls: CallRecord[]): CallRecord[] {
  let n = 0;
  while (n < calls.length && calls[n]!.grammar && calls[n]!.tokens > 1) n++;
  return calls.slice(0, n);
}

function splitPrompt(calls: CallRecord[], words: number): PromptSplit {
  const a = promptAccounting(calls);
  return { instructions: a.instructions, evaluated: a.evaluated, forced: a.fresh - a.instructions, again: a.again, words };
}

async function benchModel(model: BenchModel, later: BenchModel[]): Promise<ModelResult> {
  const skipped: string[] = [];
  const long = /stories/i.test(model.label);
  const laterReserve = () => (QUICK ? 0 : sum(later.map((m) => coreReserve(m.label))));
  /** Whether `estimateMs` more fits after what this model's core rows (`ownCoreMs`) and later models need. */
  const affords = (estimateMs: number, ownCoreMs: number) => remainingMs() - laterReserve() - ownCoreMs - estimateMs > 0;
  const request = normalised(article(SEED));
  const articlePlan = plan(request);

  // (2) over SSE on the default server of 2 cores: one sequence.
  log(`${model.label}: server --sequences 1 --threads ${THREADS}`);
  const single = await BenchServer.start(model.path, { sequences: 1, threads: THREADS });
  let prompting = "";
  const runs: SseRun[] = [];
  const firstEvents: SseRun[] = [];
  let cpuProfile: CpuSummary | undefined;
  const levels: Level[] = [];
  let shortMs: number;
  try {
    prompting = (await single.health()).prompting ?? "";
    // Warm-up: the first passes of a context allocate its buffers and build its graphs, and the
    // engine's code gets compiled. Left after the first sentence: the rest would teach nothing more.
    let warmMs = now();
    await single.stream(warmArticle(7), "delta");
    warmMs = now() - warmMs;
    log(`${model.label}: (2) ${S.articleLength}-word article over SSE (warm-up ${ms(warmMs)})`);
    runs.push(await single.stream(article(SEED)));
    const w = runs[0]!.wallMs;
    // A short article costs about its share of tokens of the (2) article, and at least the warm-up.
    shortMs = Math.max(warmMs, (w * 100) / S.articleLength);
    const ownCore = w + (long ? 2 * (S.longLength / S.articleLength) * w : 0);
    log(`${model.label}:   ${ms(w)}, meta ${ms(runs[0]!.metaMs)}, outline ${ms(runs[0]!.outlineMs)}, first delta ${ms(runs[0]!.firstDeltaMs)}, usage ${JSON.stringify(runs[0]!.usage)}`);

    const started = now();
    const eventCost = Math.max(200, runs[0]!.outlineMs);
    while (firstEvents.length < S.firstEventRuns && now() - started + eventCost < S.firstEventBudgetMs && affords(eventCost, ownCore)) {
      firstEvents.push(await single.stream(article(100 + firstEvents.length), "first"));
    }
    if (firstEvents.length < S.firstEventRuns) {
      skipped.push(`${S.firstEventRuns - firstEvents.length} of ${S.firstEventRuns} extra first-event samples (each costs a whole outline, ${ms(eventCost)}: the client leaving does not stop the outline)`);
    }
    for (let i = 1; i < S.repeats; i++) {
      if (!affords(2 * w, ownCore)) {
        skipped.push(`(2)/(1) repeat ${i + 1} of ${S.repeats} (would take about ${ms(2 * w)})`);
        break;
      }
      log(`${model.label}: (2) again`);
      runs.push(await single.stream(article(SEED)));
    }
    if (CPU_PROF) {
      log(`${model.label}: (2) again under the V8 CPU profiler`);
      await single.cpuStart();
      await single.generate(article(SEED));
      const cpu = await single.cpuStop();
      const file = path.join(BENCH_DIR, `${model.label}.article.cpuprofile`);
      await writeFile(file, JSON.stringify(cpu));
      cpuProfile = summariseCpuProfile(cpu, file);
    }
    if (affords(4 * shortMs, ownCore + runs.length * w)) {
      log(`${model.label}: 4 clients on --sequences 1`);
      levels.push(await concurrency(single, 1, 4, 1));
    } else skipped.push(`4 clients on --sequences 1 (about ${ms(4 * shortMs)})`);
  } finally {
    await single.stop();
  }
  const best = runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
  const calls = best.profile!.calls;
  const n = best.usage.completionTokens;

  // (1) raw decoding in-process, on a context of its own made like the runtime's.
  log(`${model.label}: (1) raw decoding, ${calls[0]!.prompt.length}-token prompt + ${n} tokens, in-process`);
  const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error, logger: () => {} });
  let raw: RawRun;
  let writer: WriterRun | undefined;
  try {
    const loaded = await llama.loadModel({ modelPath: model.path });
    const context = await loaded.createContext({
      contextSize: Math.min(RUNTIME_CONTEXT, loaded.trainContextSize),
      sequences: 1,
      threads: { ideal: THREADS, min: THREADS },
    });
    const sequence = context.getSequence();
    const prompt = calls[0]!.prompt;
    let warmup = 0;
    for await (const _ of sequence.evaluate(prompt, { ...RAW_SAMPLING, seed: 1, yieldEogToken: true })) if (++warmup >= 16) break;
    const raws: RawRun[] = [];
    for (let i = 0; i < runs.length; i++) raws.push(await rawDecode(sequence, prompt, n));
    raw = raws.reduce((a, b) => (b.totalMs < a.totalMs ? b : a));
    raw.walls = raws.map((r) => r.totalMs);
    const writerCost = (2 * S.writerTokens * raw.totalMs) / Math.max(1, n);
    if (affords(writerCost, long ? 2 * (S.longLength / S.articleLength) * best.wallMs : 0)) {
      log(`${model.label}: writer layer, ${S.writerTokens} tokens`);
      writer = await writerLayer(loaded, llama, sequence, prompt, S.writerTokens);
    } else skipped.push(`the writer layer alone (about ${ms(writerCost)})`);
    await context.dispose();
    await loaded.dispose();
  } finally {
    await llama.dispose();
  }

  // (3) per-delta time over a long article.
  let longRun: LongRun | undefined;
  if (long) {
    log(`${model.label}: (3) ${S.longLength}-word article in-process (ModelRuntime), per-delta times`);
    longRun = await longArticle(model, S.longLength);
    log(`${model.label}:   ${ms(longRun.wallMs)}, ${longRun.deltas.length} deltas, ${longRun.words} words`);
  }

  // Concurrency and RSS on a server with two sequences, while the budget allows.
  let rss: RssResult | undefined;
  const concurrencyCost = 8 * shortMs + 5_000;
  const rssCost = (S.rssArticles * shortMs) / 1.5 + 5_000;
  if (!affords(concurrencyCost, 0)) {
    skipped.push(`aggregate tok/s at 1 and 4 clients on --sequences 2 (about ${ms(concurrencyCost)})`);
    skipped.push(`RSS over ${S.rssArticles} articles (about ${ms(rssCost)})`);
  } else {
    log(`${model.label}: server --sequences 2`);
    const server = await BenchServer.start(model.path, { sequences: 2, threads: THREADS });
    try {
      await sleep(500);
      const startup = await server.rssAfterGc();
      const memoryStartup = (await server.profile()).memory;
      await server.generate(warmArticle(1));
      const warm = await server.rssAfterGc();
      const memoryWarm = (await server.profile()).memory;
      log(`${model.label}: concurrency, 1 client × 4 articles and 4 clients × 1`);
      // The same articles (seeds) at both levels.
      for (const [clients, perClient] of [[1, 4], [4, 1]] as const) levels.push(await concurrency(server, 2, clients, perClient));
      if (!affords(Math.min(rssCost, RSS_CAP_MS), 0)) skipped.push(`RSS over ${S.rssArticles} articles (about ${ms(rssCost)})`);
      else {
        log(`${model.label}: RSS loop to ${S.rssArticles} articles`);
        const rssStarted = now();
        const rssBudget = Math.min(RSS_CAP_MS, Math.max(10_000, remainingMs() - laterReserve() - 10_000));
        const series: Array<{ articles: number; vmRss: number }> = [];
        let seed = 2000;
        /** Two clients write short articles until `target` are done or `deadline` passes, reading RSS after GC every `every`. */
        const loop = (target: number, deadline: number, every: number, into: Array<{ articles: number; vmRss: number }>) =>
          Promise.all(
            [0, 1].map(async () => {
              while (server.articles.completed < target && now() < deadline) {
                await server.generate(shortArticle(seed++));
                if (server.articles.completed % every === 0) into.push({ articles: server.articles.completed, vmRss: (await server.rssAfterGc()).vmRss });
              }
            }),
          );
        await loop(S.rssArticles, rssStarted + rssBudget, 2, series);
        await server.waitIdle();
        await sleep(200);
        const finalNoGc = server.rss();
        const final = await server.rssAfterGc();
        const memoryFinal = (await server.profile()).memory;
        const articles = server.articles.completed;
        // Past 50, while time allows: a longer trend tells a slow leak from a warm-up that levels off.
        const extended: Array<{ articles: number; vmRss: number }> = [];
        const trendBudget = Math.min(20_000, remainingMs() - laterReserve() - 10_000);
        if (articles >= S.rssArticles && trendBudget > 5_000) {
          log(`${model.label}: RSS trend past ${S.rssArticles} articles (${ms(trendBudget)})`);
          await loop(S.trendArticles, now() + trendBudget, 2, extended);
          await server.waitIdle();
        }
        rss = { startup, warm, final, finalNoGc, series, extended, articles, memoryStartup, memoryWarm, memoryFinal, capped: articles < S.rssArticles };
      }
    } finally {
      await server.stop();
    }
  }

  const promptText = prompting === "chat-template" ? (() => {
    const p = articlePrompt(articlePlan, "json");
    return `${p.system} ${p.user}`;
  })() : articlePrompt(articlePlan, "lines").completion;
  return {
    model,
    prompting,
    service: { runs, best, loadMs: single.loadMs, cpuProfile },
    firstEvents,
    raw,
    writer,
    long: longRun,
    levels,
    rss,
    unique: (() => {
      const a = promptAccounting(calls);
      return { evaluated: a.evaluated, unique: a.fresh, calls: calls.length };
    })(),
    prompt: splitPrompt(calls, promptText.split(/\s+/).filter(Boolean).length),
    skipped,
  };
}

// --- analysis -------------------------------------------------------------------------------------

/** A run's wall split by what ran: they add up to `wallMs`. */
function timeParts(prof: Profile, wallMs: number, durationMs: number) {
  const b = batchStats(prof);
  const spans = sum(prof.calls.map((c) => c.endedAt - c.startedAt));
  const consumer = sum(prof.calls.map((c) => c.consumerMs));
  const decode = prof.decodeBatch.ms;
  const sample = prof.sampleToken.ms;
  return { multi: b.multi.ms, single: b.single.ms, singleCalls: b.single.calls, sample, consumer, glue: spans - decode - sample - consumer, outside: durationMs - spans, http: wallMs - durationMs };
}

/** Where the service's extra time over the raw run goes, in ms: the parts add up to wall(2) − wall(1). */
function gap(r: ModelResult) {
  const best = r.service.best;
  const p = best.profile!;
  const s = timeParts(p, best.wallMs, best.usage.durationMs);
  const w = timeParts(r.raw.profile, r.raw.totalMs, r.raw.totalMs);
  const rawPerSample = r.raw.profile.sampleToken.ms / Math.max(1, r.raw.profile.sampleToken.calls);
  const grammarCalls = p.calls.filter((c) => c.grammar);
  const freeCalls = p.calls.filter((c) => !c.grammar);
  const grammarTokens = sum(grammarCalls.map((c) => c.tokens));
  const grammarSampleMs = sum(grammarCalls.map((c) => c.nativeSampleMs));
  const grammar = grammarSampleMs - grammarTokens * rawPerSample;
  const parts = {
    /** Batches of 2+ tokens: the instructions and forced answer text, beyond the raw run's one prompt. */
    prompts: s.multi - w.multi,
    /** 1-token forward passes: the same native code; a different context length, count, or machine noise. */
    steps: s.single - w.single,
    /** Grammar-constrained sampling (outline, keyword boundaries) beyond what plain sampling costs. */
    grammar,
    /** Other sampling beyond the raw run's: the repeat penalty. */
    sampling: s.sample - w.sample - grammar,
    /** The engine holding each token: detokenizing, sentence handling, document, deltas. */
    consumer: s.consumer - w.consumer,
    /** node-llama-cpp's JS inside each call (setting up a call, awaiting each token). */
    glue: s.glue - w.glue,
    /** Outside model calls: grammar compilation, tokenizing, syncing the sequence, planning, rendering, analysis. */
    outside: s.outside - w.outside,
    /** HTTP, validation, SSE, outside writeArticle. */
    http: s.http,
  };
  const outline = outlineCalls(p.calls);
  return {
    parts,
    total: best.wallMs - r.raw.totalMs,
    s,
    w,
    calls: p.calls.length,
    outline: {
      calls: outline.length,
      tokens: sum(outline.map((c) => c.tokens)),
      ms: sum(outline.map((c) => c.endedAt - c.startedAt)),
    },
    boundaryCalls: grammarCalls.length - outline.length,
    freeCalls: freeCalls.length,
    freeTokens: sum(freeCalls.map((c) => c.tokens)),
    perToken: {
      serviceStep: s.single / Math.max(1, s.singleCalls),
      rawStep: w.single / Math.max(1, w.singleCalls),
      grammarSample: grammarSampleMs / Math.max(1, grammarTokens),
      freeSample: sum(freeCalls.map((c) => c.nativeSampleMs)) / Math.max(1, sum(freeCalls.map((c) => c.tokens))),
      rawSample: rawPerSample,
      consumer: s.consumer / Math.max(1, best.usage.completionTokens),
      rawConsumer: w.consumer / Math.max(1, r.raw.tokens),
      gluePerCall: (s.glue - w.glue) / Math.max(1, p.calls.length - 1),
      outsidePerCall: s.outside / Math.max(1, p.calls.length),
    },
  };
}

/**
 * Least-squares slope of VmRSS (after GC) over the loop, in bytes per 100 articles, with its
 * standard error: a leak shows as a steady climb, allocator churn as noise around a flat line.
 */
function rssTrend(series: Array<{ articles: number; vmRss: number }>): { slope: number; se: number } {
  const n = series.length;
  if (n < 4) return { slope: NaN, se: NaN };
  const mx = sum(series.map((p) => p.articles)) / n;
  const my = sum(series.map((p) => p.vmRss)) / n;
  const sxx = sum(series.map((p) => (p.articles - mx) ** 2));
  const slope = sum(series.map((p) => (p.articles - mx) * (p.vmRss - my))) / sxx;
  const residual = sum(series.map((p) => (p.vmRss - my - slope * (p.articles - mx)) ** 2));
  const se = Math.sqrt(residual / (n - 2) / sxx);
  return { slope: slope * 100, se: se * 100 };
}

/** The readings the trend is taken from: past 50 when there are enough, else the loop to 50. */
function trendSeries(rss: RssResult) {
  return rss.extended.length >= 4 ? rss.extended : rss.series;
}

/** Whether the loop shows a climb that is both real (beyond 2 standard errors) and material (≥ 2 % per 100 articles). */
function rssLeaks(rss: RssResult): boolean | undefined {
  const { slope, se } = rssTrend(trendSeries(rss));
  if (!Number.isFinite(slope)) return undefined;
  return slope > 2 * se && slope > 0.02 * rss.warm.vmRss;
}

function rssRange(rss: RssResult): string {
  const points = trendSeries(rss);
  const values = points.map((p) => p.vmRss);
  return values.length ? `${mb(Math.min(...values))}–${mb(Math.max(...values))} (articles ${points[0]!.articles}–${points.at(-1)!.articles})` : "–";
}

function trendText(rss: RssResult): string {
  const { slope, se } = rssTrend(trendSeries(rss));
  return `${mb(slope)} ± ${mb(se)}`;
}

/** First-event samples: every full (2) run and the runs the client left after the first event. */
function firstEventSamples(r: ModelResult): SseRun[] {
  return [...r.service.runs, ...r.firstEvents];
}

interface Verdict {
  target: string;
  model: string;
  value: string;
  met: boolean | undefined;
  why: string;
}

function verdicts(results: ModelResult[], bw: Bandwidth): Verdict[] {
  const out: Verdict[] = [];
  for (const r of results) {
    const m = r.model.label;
    const best = r.service.best;
    const g = gap(r);

    const samples = firstEventSamples(r);
    const first = median(samples.map((s) => s.firstEventMs));
    const events = [...new Set(samples.map((s) => s.firstEvent))].join(", ");
    const outlineMs = median(r.service.runs.map((s) => s.outlineMs));
    const deltaMs = median(r.service.runs.map((s) => s.firstDeltaMs));
    out.push({
      target: "first SSE event ≤ 300 ms",
      model: m,
      value: `${ms(first)} (median of ${samples.length}, max ${ms(Math.max(...samples.map((s) => s.firstEventMs)))}; event "${events}"); \`outline\` at ${ms(outlineMs)}, first \`delta\` at ${ms(deltaMs)}`,
      met: first <= 300 && events === "meta",
      why:
        first <= 300
          ? ""
          : `\`meta\` is sent before any model call, so what delays it is the server: response headers came after ${ms(median(samples.map((s) => s.headersMs)))}; look at request validation and the event loop (another generation's work between tokens holds it).`,
    });

    const ratio = best.wallMs / r.raw.totalMs;
    out.push({
      target: "wall per article ≤ 1.05 × raw decoding",
      model: m,
      value: `${f(ratio, 2)} (${ms(best.wallMs)} vs ${ms(r.raw.totalMs)} for ${r.raw.tokens} tokens)`,
      met: ratio <= 1.05,
      why: ratio <= 1.05 ? "" : closeGap(r, g),
    });

    const pt = best.usage.promptTokens;
    const pr = r.prompt;
    out.push({
      target: `prompt tokens per ${S.articleLength}-word article ≤ 250`,
      model: m,
      value: `${pt} (instructions ${pr.instructions}, forced answer text ${pr.forced}, evaluated again after cuts ${pr.again})`,
      met: pt <= 250,
      why:
        pt <= 250
          ? ""
          : `the instructions alone are ${pr.instructions} tokens for ${pr.words} words (${f(pr.instructions / Math.max(1, pr.words), 2)} tokens a word${r.prompting === "chat-template" ? ", chat template included" : ""}); the forced answer text (the title and headings as Markdown, keyword openings, paragraph breaks) adds ${pr.forced} and re-synced tokens after cut sentences ${pr.again}. ` +
            (r.model.spec
              ? `This bench model's vocabulary is made of pseudo-words: English words it lacks (capitalised words, "Keywords", "JSON", "Markdown") are spelled letter by letter, so the same text takes more tokens than with the real ${r.model.spec.name} BPE vocabulary, which cannot be loaded on this machine (no model download). `
              : `stories260K's 512-token vocabulary spells most words in pieces, so any prompt costs about ${f(pr.instructions / Math.max(1, pr.words), 1)} tokens a word here. `) +
            `To meet 250 on this vocabulary the instructions would have to fit in ${Math.max(0, 250 - pr.forced - pr.again)} tokens (about ${f(Math.max(0, 250 - pr.forced - pr.again) / Math.max(0.1, pr.instructions / Math.max(1, pr.words)), 0)} words at this rate): shorten the user turn (the form and outline sentences repeat what the grammar already enforces) and keep the forced text to the headings.`,
    });

    if (r.long) {
      const e = deltaEnds(r.long);
      const ratio = e.last.own / e.first.own;
      const met = ratio <= 1.1;
      // node-llama-cpp's own JS per delta (wall − native − the engine's own time) runs the same code for every token
      // whatever the article's length: a yardstick of how fast this machine ran JS at the time.
      const glueFirst = e.first.engine - e.first.own;
      const glueLast = e.last.engine - e.last.own;
      const normalised = e.last.own / glueLast / (e.first.own / glueFirst);
      const tenths = deltaDeciles(r.long);
      const middle = tenths.slice(0, 9).map((t) => t.ownPerDelta);
      const reread = `on every token the body pass re-reads the unfinished sentence (Intl.Segmenter sentence split, and a word count until the sentence ends: ${REREAD.map((x) => `${f(x.us, 0)} µs at ${x.words} words`).join(", ")}, measured in this run), so a delta costs about the square of its sentence's length; re-reading only when a piece holds a sentence end or a line break, and counting words incrementally, would make that constant and small`;
      out.push({
        target: `engine time per delta, last 10 % ÷ first 10 % of a ${r.long.length}-word article ≤ 1.10`,
        model: m,
        value: `${f(ratio, 2)}: the engine's own time ${f(e.first.own, 2)} → ${f(e.last.own, 2)} ms a delta (${f(e.first.ownPerToken, 3)} → ${f(e.last.ownPerToken, 3)} ms a generated token; ${f(e.first.tokens, 1)} → ${f(e.last.tokens, 1)} tokens a delta), ${e.k} deltas each; wall − native ${f(e.first.engine, 2)} → ${f(e.last.engine, 2)} ms (${f(e.last.engine / e.first.engine, 2)}); main-thread CPU ${f(e.first.cpu, 2)} → ${f(e.last.cpu, 2)} ms (${f(e.last.cpu / e.first.cpu, 2)})`,
        met,
        why: met
          ? e.last.engine / e.first.engine > 1.1
            ? `met on the engine's own time. As the target words it (wall − native time) the ratio is ${f(e.last.engine / e.first.engine, 2)}: the difference is node-llama-cpp's own JS per token, inside its token generator (${f(glueFirst, 2)} → ${f(glueLast, 2)} ms a delta), which grows while the engine's does not; its tenths move as much (table in (3)).`
            : ""
          : normalised <= 1.1
            ? `the machine ran JS slower at the end, not the engine doing more: node-llama-cpp's own JS per delta, the same code for every token whatever the article's length, rose by as much (${f(glueFirst, 2)} → ${f(glueLast, 2)} ms, ×${f(glueLast / glueFirst, 2)}); measured against it the engine's time per delta goes ×${f(normalised, 2)}. Over the first nine tenths of the article the engine's own time per delta stays within ${f(Math.min(...middle), 2)}–${f(Math.max(...middle), 2)} ms with no trend (table in (3)); the last tenth is where every measure jumps. Closing it: this row on a quiet machine. Independently, ${reread}.`
            : e.last.ownPerToken <= 1.1 * e.first.ownPerToken
              ? `per generated token the engine's own time is flat (${f(e.first.ownPerToken, 3)} → ${f(e.last.ownPerToken, 3)} ms): the late deltas carry more tokens (${f(e.first.tokens, 1)} → ${f(e.last.tokens, 1)}: longer sentences, or more of them cut and written again), and ${reread}.`
              : `the engine's own time per generated token grows (${f(e.first.ownPerToken, 3)} → ${f(e.last.ownPerToken, 3)} ms), also measured against node-llama-cpp's own JS (×${f(normalised, 2)}): ${reread}; the tenths table in (3) shows where it grows.`,
      });
    }

    const one = r.levels.find((l) => l.sequences === 2 && l.clients === 1);
    const four = r.levels.find((l) => l.sequences === 2 && l.clients === 4);
    const fourSingle = r.levels.find((l) => l.sequences === 1 && l.clients === 4);
    if (one && four) {
      const met4 = four.aggregate >= one.aggregate;
      out.push({
        target: "aggregate tok/s at 4 clients ≥ at 1",
        model: m,
        value: `${f(four.aggregate)} vs ${f(one.aggregate)} tok/s (×${f(four.aggregate / one.aggregate, 2)}), --sequences 2${fourSingle ? `; --sequences 1 (the default on 2 cores): ${f(fourSingle.aggregate)} tok/s at 4 clients` : ""}`,
        met: met4,
        why: met4
          ? ""
          : `the two sequences of one context take turns on the same threads: ${f(four.tokensPerStep, 2)} tokens per decode step at 4 clients (2.00 = both in every pass), forward passes busy ${pct(four.busy)} of the wall against ${pct(one.busy)} at 1 client; the rest is the engine's JS per token, which one event loop serves for both. --sequences 1 (the default here) queues instead${fourSingle ? ` (${f(fourSingle.aggregate)} tok/s)` : ""}.`,
      });
    }

    if (r.rss) {
      const rss = r.rss;
      const growth = (rss.final.vmRss - rss.startup.vmRss) / rss.startup.vmRss;
      const rssMet = growth < 0.05 && !(rss.capped && rssLeaks(rss) !== false);
      const warmGrowth = (rss.final.vmRss - rss.warm.vmRss) / rss.warm.vmRss;
      const heapGrowth = (rss.memoryFinal?.heapTotal ?? NaN) - (rss.memoryStartup?.heapTotal ?? NaN);
      const fileGrowth = rss.final.rssFile - rss.startup.rssFile;
      out.push({
        target: `RSS growth after ${S.rssArticles} articles < 5 %`,
        model: m,
        value: `${pct(growth)} from start-up; ${pct(warmGrowth)} after the first article (${rss.articles} articles${rss.capped ? ", time-capped" : ""})`,
        met: rssMet,
        why: rssMet
          ? ""
          : rss.capped
            ? `the loop stopped at its time cap (${ms(RSS_CAP_MS)}) after ${rss.articles} articles, too few to judge: of the ${pct(growth)} from start-up, ${pct(warmGrowth)} came after the first article (readings after GC ${rssRange(rss)}, trend ${trendText(rss)} per 100 articles, within its error of flat); the rest is the first article's native first-use allocations (${mb(heapGrowth)} of it V8 committed heap, ${mb(fileGrowth)} file-backed pages). Closing it: one short generation at start-up before reporting ready; run the loop to ${S.rssArticles} on a quiet machine (${S.rssArticles} short articles take about ${ms((S.rssArticles * (rss.capped ? RSS_CAP_MS / Math.max(1, rss.articles) : 0)))} here).`
            : growth < 0.05
            ? `the loop was time-capped at ${rss.articles} articles and its readings (${rssRange(rss)}, trend ${trendText(rss)} per 100 articles) cannot rule out a climb.`
            : rssLeaks(rss) === undefined
              ? `too few readings (${rss.articles} articles) to tell a leak from the first articles' warm-up; ${pct(warmGrowth)} after the first article.`
              : rssLeaks(rss) === false
              ? `no leak: a rise over the first articles that levels off (past it the readings after GC range ${rssRange(rss)}, trend ${trendText(rss)} per 100 articles). Of the ${mb(rss.final.vmRss - rss.startup.vmRss)}: ${mb(heapGrowth)} V8 committed heap, ${mb(fileGrowth)} file-backed pages, the rest native first-use allocations and allocator high-water marks; ${pct(warmGrowth)} after the first article. One short generation at start-up before reporting ready would absorb the first-article part.`
              : `RSS climbs ${trendText(rss)} per 100 articles (readings after GC ${rssRange(rss)}; V8 heap ${mb(rss.memoryWarm?.heapUsed ?? NaN)} → ${mb(rss.memoryFinal?.heapUsed ?? NaN)}): look for per-request state kept alive (writers, grammars, sequences).`,
      });
    }

    const ratioP = r.unique.evaluated / r.unique.unique;
    out.push({
      target: "prompt tokens evaluated ≤ 1.2 × unique",
      model: m,
      value: `${r.unique.evaluated} / ${r.unique.unique} = ${f(ratioP, 2)}× over ${r.unique.calls} model calls`,
      met: ratioP <= 1.2,
      why: ratioP <= 1.2 ? "" : `tokens evaluated again after cuts: ${r.prompt.again}; a cut re-evaluates the last kept token for fresh logits, and a cut inside a forced piece re-tokenizes what is kept.`,
    });

    const ceiling = bw.memcmp1 / r.model.weightBytes;
    const share = r.raw.decodeRate / ceiling;
    const cacheResident = r.model.weightBytes < 64e6;
    out.push({
      target: "single-thread decode ≥ 60 % of the bandwidth ceiling",
      model: m,
      value: cacheResident ? `n/a (${mb(r.model.weightBytes)} of weights fit in CPU cache)` : `${f(r.raw.decodeRate)} / ${f(ceiling)} tok/s = ${pct(share)}`,
      met: cacheResident ? undefined : share >= 0.6,
      why:
        cacheResident || share >= 0.6
          ? ""
          : `one core streams the weights through llama.cpp's Q8_0 kernel at ${f((r.raw.decodeRate * r.model.weightBytes) / 1e9, 1)} GB/s while it can read memory at ${f(bw.memcmp1 / 1e9, 1)} GB/s: bound by the core's work per weight (and by other processes on the 2 cores), not by memory; the engine has no part in it (raw decoding).`,
    });
  }
  return out;
}

/** Why (2) is slower than (1), from the measured parts, and what would close it. */
function closeGap(r: ModelResult, g: ReturnType<typeof gap>): string {
  const best = r.service.best;
  const allowed = 0.05 * r.raw.totalMs;
  const names: Record<keyof typeof g.parts, string> = {
    prompts: "prompt and forced-text evaluation",
    steps: "1-token forward passes",
    grammar: "grammar-constrained sampling",
    sampling: "repeat-penalty sampling",
    consumer: "engine work between tokens",
    glue: "node-llama-cpp's JS per call",
    outside: "engine work outside model calls",
    http: "HTTP/SSE",
  };
  const positive = (Object.entries(g.parts) as Array<[keyof typeof g.parts, number]>).filter(([, x]) => x > 0).sort((a, b) => b[1] - a[1]);
  const text = [`extra ${ms(g.total)} (allowed ${ms(allowed)}): ${positive.map(([k, x]) => `${names[k]} ${ms(x)}`).join(", ")}.`];
  const tips: string[] = [];
  if (g.perToken.serviceStep > 1.1 * g.perToken.rawStep && g.parts.steps > 0.1 * g.total) {
    tips.push(
      `The same native 1-token passes ran ${pct(g.perToken.serviceStep / g.perToken.rawStep - 1)} slower during (2) than during (1) (${f(g.perToken.serviceStep, 2)} vs ${f(g.perToken.rawStep, 2)} ms each, ${ms(g.parts.steps)} in all): other processes' load changed between the two runs; without that part the ratio is ${f((best.wallMs - g.parts.steps) / r.raw.totalMs, 2)}.`,
    );
  }
  const big = (k: keyof typeof g.parts) => k !== "steps" && g.parts[k] > Math.max(0.1 * g.total, allowed / 4);
  if (big("grammar")) {
    tips.push(
      `Grammar sampling costs ${f(g.perToken.grammarSample, 2)} ms a token against ${f(g.perToken.freeSample, 2)} ms unconstrained: node-llama-cpp samples first and, when the token breaks the grammar, applies the grammar to all ${r.model.spec?.vocab ?? "the vocabulary's"} candidates and samples again (llama/addon/AddonSampler.cpp). The outline took ${g.outline.calls} grammar call${g.outline.calls === 1 ? "" : "s"} (${g.outline.calls - 1} rewrite${g.outline.calls === 2 ? "" : "s"}) and ${g.outline.tokens} tokens (${ms(g.outline.ms)}). ` +
        `Closing it: fewer outline tokens — a rewrite regenerates every field after the failing one, not just that field; random weights break the length rules far more often than a trained model would — and cheaper constrained steps (the grammar applied after top-k, which node-llama-cpp 3.22 does not offer).`,
    );
  }
  if (big("prompts")) {
    tips.push(
      `The service evaluates ${best.usage.promptTokens} prompt tokens against the raw run's ${r.raw.promptTokens}: ${r.prompt.forced} tokens of forced answer text and ${r.prompt.again} evaluated again after cuts, in ${g.s.multi > 0 ? "batches" : "steps"} costing ${ms(g.parts.prompts)}. Fewer forced pieces (keyword openings) and fewer cuts close it.`,
    );
  }
  if (big("sampling")) {
    tips.push(
      `the repeat penalty costs ${f(g.parts.sampling / Math.max(1, best.usage.completionTokens), 3)} ms a token (llama.cpp's penalties sampler runs over every candidate before top-k): penalise fewer tokens, or drop it where the steering already prevents repeats.`,
    );
  }
  if (big("consumer")) tips.push(`the engine holds each token ${f(g.perToken.consumer, 3)} ms (raw ${f(g.perToken.rawConsumer, 3)}): detokenizing and sentence handling per token.`);
  if (big("glue")) {
    tips.push(
      `each of the ${g.calls} model calls costs about ${f(g.perToken.gluePerCall, 1)} ms of node-llama-cpp setup (sampler, grammar state, evaluation queue): fewer, longer generate steps — a keyword opening is a 1-token grammar call, a cut sentence a new call.`,
    );
  }
  if (big("outside")) tips.push(`${ms(g.s.outside)} outside model calls (${f(g.perToken.outsidePerCall, 2)} ms a call: grammar compilation, syncing the sequence, tokenizing forced text): compile each grammar once per article, not per call.`);
  if (big("http")) tips.push(`HTTP/SSE ${ms(g.parts.http)}.`);
  return [...text, ...tips].join(" ");
}

// --- report -----------------------------------------------------------------------------------------

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.map((c) => c.replaceAll("|", "\\|")).join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

function report(results: ModelResult[], bw: Bandwidth, info: ReturnType<typeof machine>, runMs: number, loadEnd: number[], reread: Array<{ words: number; us: number }>): string {
  const all = verdicts(results, bw);
  const targets = [...new Set(all.map((x) => x.target))];
  const v = targets.flatMap((t) => all.filter((x) => x.target === t));
  const out: string[] = [];
  out.push("# inkpress benchmarks", "");
  out.push(
    `- Backend: **CPU, in-process node-llama-cpp ${info.nodeLlamaCpp}, ${THREADS} thread${THREADS === 1 ? "" : "s"}** (src/config.ts defaultThreads on this machine: half the cores). GPU figures are not measured: this machine has no GPU (\`getLlama({ gpu: false })\`).`,
    `- Machine: ${info.cores} cores (os.availableParallelism()), ${info.cpu}, ${(info.memTotal / 2 ** 30).toFixed(1)} GiB RAM; Node ${info.node}`,
    `- Load average (1, 5, 15 min) at start ${info.loadavg.map((x) => x.toFixed(2)).join(", ")}, at the end ${loadEnd.map((x) => x.toFixed(2)).join(", ")}: ${Math.max(info.loadavg[0]!, loadEnd[0]!) > info.cores * 0.75 ? `**other processes shared the ${info.cores} cores during the run, so absolute times are inflated and noisy**; ratios taken close together (service ÷ raw, first ÷ last deltas) hold up better` : "the machine was mostly idle"}.`,
    `- Engine: commit ${info.commit}${info.dirtySrc ? `, with ${info.dirtySrc} uncommitted change${info.dirtySrc === 1 ? "" : "s"} in src/ (the run measures the working tree)` : ""}`,
    `- Date: ${new Date().toISOString()}; command: \`${QUICK ? "BENCH_QUICK=1 " : ""}npm run bench\`${QUICK ? " (quick mode: short counts, for debugging the harness — not the figures to quote)" : ""}; whole run ${ms(runMs)}`,
    `- Models: random-weight GGUFs with the exact shapes and Q8_0 quantisation of SmolLM2-135M-Instruct and Qwen2.5-0.5B-Instruct (scripts/bench-models.ts)${results.some((r) => r.model.label === "stories260K") ? ", and the real stories260K" : ""}.`,
    "",
  );

  out.push("## Targets", "");
  out.push(
    table(
      ["target", "model", "measured", "", "why not met / what would close it"],
      v.map((x) => [x.target, x.model, x.value, x.met === undefined ? "n/a" : x.met ? "**met**" : "**not met**", x.why]),
    ),
    "",
  );
  const skipped = results.filter((r) => r.skipped.length);
  if (skipped.length) {
    out.push("Rows skipped in this run to keep it within its time budget (the core rows of every model come first):", "");
    for (const r of skipped) out.push(`- ${r.model.label}: ${r.skipped.join("; ")}`);
    out.push("");
  }

  out.push("## (2) against (1): where the service spends the extra time", "");
  out.push(
    "Wall time of the article over SSE (request to `done`) against raw decoding of as many tokens after one evaluation of the article's prompt. The parts add up to the difference; they come from a probe in the server process (scripts/bench-probe.ts). Negative parts are where the service does less than the raw run (a shorter context after cut sentences makes its passes cheaper).",
    "",
  );
  out.push(
    table(
      ["model", "(1) raw", "(2) service", "(2)/(1)", "prompt + forced text", "1-token passes", "grammar sampling", "repeat-penalty sampling", "between tokens", "node-llama-cpp per call", "outside calls", "HTTP/SSE"],
      results.map((r) => {
        const g = gap(r);
        const p = g.parts;
        return [r.model.label, ms(r.raw.totalMs), ms(r.service.best.wallMs), f(r.service.best.wallMs / r.raw.totalMs, 2), ms(p.prompts), ms(p.steps), ms(p.grammar), ms(p.sampling), ms(p.consumer), ms(p.glue), ms(p.outside), ms(p.http)];
      }),
    ),
    "",
  );
  out.push(
    table(
      ["model", "model calls", "outline: calls / tokens / time", "keyword-boundary calls", "free-text calls / tokens", "completion tokens", "body words", "sampling ms/token: grammar / free / raw", "1-token pass ms (service / raw)", "between tokens ms/token (service / raw)", "writer layer tok/s vs raw (same prompt)"],
      results.map((r) => {
        const g = gap(r);
        const b = r.service.best;
        return [
          r.model.label,
          String(g.calls),
          `${g.outline.calls} / ${g.outline.tokens} / ${ms(g.outline.ms)}`,
          String(g.boundaryCalls),
          `${g.freeCalls} / ${g.freeTokens}`,
          String(b.usage.completionTokens),
          String(b.words),
          `${f(g.perToken.grammarSample, 3)} / ${f(g.perToken.freeSample, 3)} / ${f(g.perToken.rawSample, 3)}`,
          `${f(g.perToken.serviceStep, 2)} / ${f(g.perToken.rawStep, 2)}`,
          `${f(g.perToken.consumer, 3)} / ${f(g.perToken.rawConsumer, 3)}`,
          r.writer ? `${f(r.writer.decodeRate)} vs ${f(r.writer.rawDecodeRate)} (${r.writer.tokens} tokens)` : "skipped",
        ];
      }),
    ),
    "",
  );

  const longRuns = results.filter((r) => r.long);
  out.push("## (3) per-delta time over a long article", "");
  if (longRuns.length) {
    out.push(
      `Method: the ${S.longLength}-word article (same request as (2) but \`length\` ${S.longLength}) written in-process by \`writeArticle\` on the service's own backend (ModelRuntime, one sequence, ${THREADS} thread${THREADS === 1 ? "" : "s"}), after a warm-up article. At the \`outline\` callback and at every \`delta\` the bench reads the probe's running native totals: forward passes (\`decodeBatch\`) and sampling (\`sampleToken\`). Three measures of the engine's own time per delta: (a) the verdict's: wall since the previous delta outside node-llama-cpp's token generators (the probe times every \`next()\` of \`sequence.evaluate\`): the engine's JS between tokens and between steps (sentence handling, the document, syncing the sequence, forced text, grammar compilation, context shifts), without native work or node-llama-cpp's own JS per token; (b) wall − native time (forward passes and sampling), as the target words it: (a) plus node-llama-cpp's JS per token; (c) the main thread's CPU time (\`/proc/self/task/<pid>/schedstat\`), which holds the same work as (b) without waiting for a core. (b) and (c) carry node-llama-cpp's per-token cost, which on this shared machine swings between tenths by as much as the engine's whole cost (a raw node-llama-cpp decode of stories260K, no engine, measured 0.33–0.86 ms of main-thread CPU a token from one tenth to another). Per-token columns divide by the 1-token passes (generated tokens) in the interval. Prompt copies in the probe are off for this run, so its own cost does not grow with the context.`,
      "",
    );
    out.push(
      table(
        ["model", "context", "words", "deltas", "completion / prompt tokens", "wall", "part", "wall per delta", "native model time per delta", "engine's own time per delta", "wall − native per delta", "main-thread CPU per delta", "main thread waiting for a core per delta", "tokens per delta", "engine's own ms per token", "CPU ms per token", "wall − native ms per token", "native ms per token", "context-shift erase ms per delta"],
        longRuns.flatMap((r) => {
          const l = r.long!;
          const e = deltaEnds(l);
          return (["first", "last"] as const).map((which) => {
            const x = e[which];
            return [r.model.label, String(l.contextSize), String(l.words), String(l.deltas.length), `${l.usage.completionTokens} / ${l.usage.promptTokens}`, ms(l.wallMs), `${which} 10 % (${e.k})`, f(x.wall, 1), f(x.model, 1), f(x.own, 2), f(x.engine, 2), f(x.cpu, 2), f(x.wait, 2), f(x.tokens, 1), f(x.ownPerToken, 3), f(x.cpuPerToken, 3), f(x.enginePerToken, 3), f(x.modelPerToken, 3), f(x.erase, 3)];
          });
        }),
      ),
      "",
    );
    for (const r of longRuns) {
      const d = deltaDeciles(r.long!);
      out.push(
        `The same run in tenths (${r.model.label}): how much the figure moves from one tenth to the next shows the noise the first ÷ last ratio carries.`,
        "",
        table(
          ["tenth", ...d.map((_, k) => String(k + 1))],
          [
            ["engine's own ms per delta", ...d.map((x) => f(x.ownPerDelta, 2))],
            ["engine's own ms per token", ...d.map((x) => f(x.ownPerToken, 3))],
            ["main-thread CPU ms per delta", ...d.map((x) => f(x.cpuPerDelta, 2))],
            ["main-thread CPU ms per token", ...d.map((x) => f(x.cpuPerToken, 3))],
            ["wall − native ms per token", ...d.map((x) => f(x.enginePerToken, 3))],
            ["tokens per delta", ...d.map((x) => f(x.tokensPerDelta, 1))],
          ],
        ),
        "",
      );
    }
    out.push(
      `Where the engine's time per token goes: the body pass re-reads the unfinished sentence on every token — \`nextUnit\` splits the pending line into sentences (\`splitSentences\`, Intl.Segmenter) and, until a sentence ends, counts its words (\`countWords\`, the run-on check) each time a piece arrives. Measured here (same process, same load): ${reread.map((x) => `${f(x.us, 0)} µs for a ${x.words}-word line`).join(", ")}, against ${f(1000 * deltaEnds(longRuns[0]!.long!).first.ownPerToken, 0)} µs (first tenth) and ${f(1000 * deltaEnds(longRuns[0]!.long!).last.ownPerToken, 0)} µs (last tenth) of the engine's own time per token in all. So the engine's cost per token grows with the length of the sentence being written, and a delta's cost with its square: longer sentences (or more of them cut and rewritten) make a delta dearer without the article's length playing any part. Re-reading only when a piece holds a sentence end or a line break, and counting words incrementally, would make it constant and small. (A V8 profile of deltas 1–60 against 440–500 of the same article shows these two functions among the frames that grow; it was taken with other processes on the cores, so its magnitudes are not quoted.)`,
      "",
    );
    out.push(
      "Wall per delta also moves with the model's own cost per token, which depends on how full the context is (attention over the context dominates stories260K's tiny matrices) and on other processes; the engine's time is the part the engine controls.",
      "",
    );
  } else out.push("Not run: it needs ../shared/models/stories260K.gguf (a 5,000-word article on the larger models would take the whole time budget).", "");

  out.push("## Absolute figures", "");
  out.push("### (1) raw decoding and (2) the service", "");
  out.push(
    table(
      ["model", "weights", "prompting", "N tokens", "(1) wall", "(1) decode tok/s", "(1) prompt", "(2) wall", "(2) completion tok/s", "(2) durationMs", "words", "usage.promptTokens", "server load"],
      results.map((r) => [
        r.model.label,
        mb(r.model.weightBytes),
        r.prompting,
        String(r.raw.tokens),
        `${ms(r.raw.totalMs)}${r.raw.walls && r.raw.walls.length > 1 ? ` (runs: ${r.raw.walls.map(ms).join(", ")})` : ""}`,
        f(r.raw.decodeRate),
        `${r.raw.promptTokens / r.raw.segments} tokens, ${ms(r.raw.prefillMs / r.raw.segments)}`,
        `${ms(r.service.best.wallMs)}${r.service.runs.length > 1 ? ` (runs: ${r.service.runs.map((x) => ms(x.wallMs)).join(", ")})` : ""}`,
        f(r.service.best.usage.completionTokens / (r.service.best.wallMs / 1000)),
        ms(r.service.best.usage.durationMs),
        String(r.service.best.words),
        String(r.service.best.usage.promptTokens),
        ms(r.service.loadMs),
      ]),
    ),
    "",
  );
  out.push("### First events over SSE, nothing queued (`--sequences 1`)", "");
  out.push(
    table(
      ["model", "samples", "headers p50", "first event p50", "first event min / max", "event", "`outline` p50", "first `delta` p50", "`done` p50"],
      results.map((r) => {
        const s = firstEventSamples(r);
        const full = r.service.runs;
        return [
          r.model.label,
          `${s.length} (${full.length} whole)`,
          ms(median(s.map((x) => x.headersMs))),
          ms(median(s.map((x) => x.firstEventMs))),
          `${ms(Math.min(...s.map((x) => x.firstEventMs)))} / ${ms(Math.max(...s.map((x) => x.firstEventMs)))}`,
          [...new Set(s.map((x) => x.firstEvent))].join(", "),
          ms(median(full.map((x) => x.outlineMs))),
          ms(median(full.map((x) => x.firstDeltaMs))),
          ms(median(full.map((x) => x.wallMs))),
        ];
      }),
    ),
    "",
  );
  const withLevels = results.filter((r) => r.levels.length);
  if (withLevels.length) {
    out.push("### Concurrency (short articles: length 100, title and description given; the same seeds at every level)", "");
    out.push(
      table(
        ["model", "--sequences", "clients", "requests", "completion tokens", "wall", "aggregate tok/s", "latency p50", "latency p95", "tokens per decode step", "forward pass busy"],
        withLevels.flatMap((r) =>
          r.levels.map((l) => [r.model.label, String(l.sequences), String(l.clients), String(l.requests), String(l.tokens), ms(l.wallMs), f(l.aggregate), ms(l.p50), ms(l.p95), f(l.tokensPerStep, 2), pct(l.busy)]),
        ),
      ),
      "",
    );
  }
  const withRss = results.filter((r) => r.rss);
  if (withRss.length) {
    out.push("### Server RSS (`/proc/<pid>/status`; each reading after a forced full GC, `--expose-gc`; `--sequences 2`)", "");
    out.push(
      `VmRSS / RssAnon / RssFile. Start-up: model loaded, no request yet. The articles count every completed article on this server (warm-up, concurrency runs, then short articles two at a time). The trend is a least-squares line through readings after GC: past article ${S.rssArticles} when time allowed, else during the loop; a leak is a trend beyond 2 standard errors and ≥ 2 % of RSS per 100 articles.`,
      "",
    );
    out.push(
      table(
        ["model", "after start-up", "after the first article", "at the end of the loop", "before GC", "articles", "growth from start-up", "growth after the first article", "trend (per 100 articles, ± 1 s.e.)"],
        withRss.map((r) => {
          const rss = r.rss!;
          const x = (s: Rss) => `${mb(s.vmRss)} / ${mb(s.rssAnon)} / ${mb(s.rssFile)}`;
          return [
            r.model.label,
            x(rss.startup),
            x(rss.warm),
            x(rss.final),
            mb(rss.finalNoGc.vmRss),
            `${rss.articles}${rss.capped ? " (time cap)" : ""}`,
            pct((rss.final.vmRss - rss.startup.vmRss) / rss.startup.vmRss),
            pct((rss.final.vmRss - rss.warm.vmRss) / rss.warm.vmRss),
            `${trendText(rss)} (${trendSeries(rss).length} readings)`,
          ];
        }),
      ),
      "",
    );
  }
  out.push("### Prompt tokens of the (2) article", "");
  out.push(
    "`usage.promptTokens` = tokens the sequence had to evaluate (LlamaWriter counts each step's input, less the token it sampled itself). Split by the probe's capture of every call: instructions = the first call's prompt; forced = tokens at positions never evaluated before (title, headings, keyword openings, breaks); again = tokens evaluated again at a position after a cut. Unique = the prefix tree of every call's full prompt: what a perfect prefix cache would evaluate.",
    "",
  );
  out.push(
    table(
      ["model", "usage.promptTokens", "instructions (words)", "forced", "again", "calls", "evaluated (probe) ÷ unique"],
      results.map((r) => [r.model.label, String(r.service.best.usage.promptTokens), `${r.prompt.instructions} (${r.prompt.words})`, String(r.prompt.forced), String(r.prompt.again), String(r.unique.calls), `${r.unique.evaluated} ÷ ${r.unique.unique} = ${f(r.unique.evaluated / r.unique.unique, 2)}`]),
    ),
    "",
  );
  out.push("### Memory bandwidth and the decode ceiling", "");
  out.push(
    `Read bandwidth on ${mb(bw.bufferBytes * 2)} (two buffers, larger than any cache): memcmp (Buffer.compare) ${f(bw.memcmp1 / 1e9, 2)} GB/s on 1 thread, ${f(bw.memcmp2 / 1e9, 2)} GB/s on 2. Ceiling = tensor bytes ÷ 1-thread bandwidth: every decoded token reads every weight once (the tied embedding is the output matrix).`,
    "",
  );
  out.push(
    table(
      ["model", "tensor bytes", "1-thread ceiling tok/s", "(1) decode tok/s", "share"],
      results.map((r) => {
        const c1 = bw.memcmp1 / r.model.weightBytes;
        return [r.model.label, mb(r.model.weightBytes), f(c1), f(r.raw.decodeRate), pct(r.raw.decodeRate / c1)];
      }),
    ),
    "",
  );
  const profiled = results.filter((r) => r.service.cpuProfile);
  if (profiled.length) {
    out.push("### V8 CPU profile of one (2) article (BENCH_CPU_PROF=1; self time)", "");
    for (const r of profiled) {
      const p = r.service.cpuProfile!;
      out.push(`**${r.model.label}** (${p.file}, opens in Chrome DevTools)`, "");
      out.push(table(["where", "self ms", "share"], p.categories.map((c) => [c.name, f(c.ms, 0), pct(c.share)])), "");
      out.push(table(["function", "self ms", "share"], p.top.map((c) => [c.name, f(c.ms, 0), pct(c.share)])), "");
    }
  }
  out.push("## Rows dropped with the new engine", "");
  out.push(
    "- The per-call table of the old engine (six prompts an article, each a new chat turn): an article is now one writer on one sequence, so its calls are generate steps of one answer; the summary above counts them by kind.",
    "- Threads 1 vs 2, forward-pass cost by batch size, and two sequences against two contexts: they chose the defaults (1 thread and 1 sequence on 2 cores) and do not depend on the engine; dropped to keep the run within its budget. The previous BENCHMARKS.md in git history has them.",
    "- Aggregate tok/s at 2 clients: 1 and 4 clients answer the target; the 2-client level cost as much again.",
    "",
  );
  out.push("## Method", "");
  out.push(
    `- (1) In the bench process, a node-llama-cpp instance of its own (\`getLlama({ gpu: false, build: "never" })\`), the model loaded again, a context made as src/model/runtime.ts makes one (context ${RUNTIME_CONTEXT} capped by the model's, 1 sequence, threads \`{ ideal: ${THREADS}, min: ${THREADS} }\`). The (2) article's prompt (the first call's tokens, captured by the probe in the server) is evaluated once, then exactly N tokens are generated with the service's sampler (temperature 0.8, top-k 40, top-p 0.9, min-p 0.05, fixed seed) without repeat penalty, grammar or detokenizing; end-of-generation tokens do not stop it. After a 16-token warm-up; as many runs as (2) had, the best reported.`,
    `- (2) \`POST /api/v1/generate\` with \`accept: text/event-stream\` on \`inkpress serve --sequences 1 --threads ${THREADS}\` (the default on 2 cores), after a warm-up request (length 100, no headings, title and description given; the client leaves after its first sentence); topic Home composting for beginners, \`length\` ${S.articleLength}, structure sections, two keywords, seed ${SEED}; the same seed gives the same article. Times from the request's start to each event as the client reads it. The best of up to ${S.repeats} runs, as the budget allows.`,
    `- First event: every (2) run, and up to ${S.firstEventRuns} more that leave after the first event (different seeds), while the budget allows.`,
    "- The split of (2) − (1): per call, the probe records the time from `sequence.evaluate` to its end, the waits for tokens, the time the engine holds each token, and the native `decodeBatch`/`sampleToken` time while the call ran (one call runs at a time on one sequence). Outside calls = `usage.durationMs` − the calls' spans; HTTP/SSE = client wall − `durationMs`.",
    "- Writer layer: src/model/llama-writer.ts's LlamaWriter on the raw run's context and prompt, free text, against raw decoding of as many tokens.",
    "- Models: random weights give random text in sentences of pseudo-words, so the engine's sentence handling, budgets, rewrites and cuts run as with prose, but how often a model breaks an outline rule, stops early or repeats itself differs from a trained model: outline rewrites and rejected sentences, and so completion tokens per word, are higher here than with a trained model.",
    "- Timings on a shared 2-core machine are noisy; the load averages are in the header.",
    "",
  );
  return out.join("\n");
}

function consoleSummary(results: ModelResult[], bw: Bandwidth): void {
  console.table(verdicts(results, bw).map((v) => ({ model: v.model, target: v.target, measured: v.value.slice(0, 120), met: v.met === undefined ? "n/a" : v.met ? "met" : "NOT MET" })));
}

// --- main ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const from = process.env.BENCH_REPORT_FROM;
  if (from) {
    // Render the report again from a run's saved results (after a change to the report's wording only).
    const saved = JSON.parse(readFileSync(from, "utf8")) as { results: ModelResult[]; bw: Bandwidth; info: ReturnType<typeof machine>; runMs: number; loadEnd: number[]; reread: typeof REREAD };
    REREAD = saved.reread;
    await writeFile(OUT, `${report(saved.results, saved.bw, saved.info, saved.runMs, saved.loadEnd, saved.reread)}\n`);
    log(`wrote ${OUT} from ${from}`);
    return;
  }
  await installProbe();
  const info = machine();
  const only = process.env.BENCH_MODELS?.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  const wanted = (label: string) => !only || only.some((o) => label.toLowerCase().includes(o));
  log(`${QUICK ? "quick" : "full"} run; ${info.cores} cores, ${info.cpu}; CPU backend, ${THREADS} thread(s); load ${info.loadavg.map((x) => x.toFixed(2)).join(" ")}`);

  log("memory bandwidth");
  const bw = await measureBandwidth();
  const reread = sentenceRereadCost();
  REREAD = reread;
  log(`  memcmp ${f(bw.memcmp1 / 1e9, 2)} GB/s (1 thread), ${f(bw.memcmp2 / 1e9, 2)} GB/s (2 threads)`);

  // Cheapest first: when time runs short, the optional rows of the later models go.
  const models: BenchModel[] = [];
  if (existsSync(STORIES) && wanted("stories260K")) {
    const bytes = readFileSync(STORIES).length;
    models.push({ label: "stories260K", path: STORIES, bytes, weightBytes: bytes });
  } else if (!existsSync(STORIES)) log(`no ${STORIES}: skipping stories260K`);
  for (const spec of BENCH_SPECS) if (wanted(spec.id)) models.push(await ensureBenchModel(spec, BENCH_DIR, log));

  const results: ModelResult[] = [];
  for (const [i, model] of models.entries()) results.push(await benchModel(model, models.slice(i + 1)));
  await rm(path.join(BENCH_DIR, `keys-${process.pid}`), { recursive: true, force: true });

  consoleSummary(results, bw);
  const runMs = now() - RUN_STARTED;
  const loadEnd = os.loadavg();
  await mkdir(BENCH_DIR, { recursive: true });
  const saved = path.join(BENCH_DIR, QUICK ? "bench-results.quick.json" : "bench-results.json");
  await writeFile(saved, JSON.stringify({ results, bw, info, runMs, loadEnd, reread }));
  log(`results saved to ${saved} (BENCH_REPORT_FROM=${saved} renders the report again)`);
  const markdown = report(results, bw, info, runMs, loadEnd, reread);
  await mkdir(path.dirname(OUT), { recursive: true });
  await writeFile(OUT, `${markdown}\n`);
  log(`wrote ${OUT}`);
}

await main();
