/**
 * What the bench reads from a run: the machine (CPU, memory bandwidth), the probe's
 * records (batches, prompt tokens, per-delta times, the split of the service's time against raw decoding), CPU profiles and RSS trends.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { CallRecord, Profile } from "./bench-probe.js";
import { mb, now, ROOT, S, sum } from "./bench-settings.js";
import type { Bandwidth, CpuProfile, CpuSummary, DeltaStat, LongRun, Machine, ModelResult, PromptSplit, RssResult, SseRun } from "./bench-types.js";

/** The machine: cores, CPU and its SIMD, versions, load, the commit measured. */
export function machine(): Machine {
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

/** Read bandwidth, 1 and 2 threads, on buffers larger than any cache. */
export async function measureBandwidth(): Promise<Bandwidth> {
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

/** Decode steps (batches of 1–4 tokens) and larger batches of a profile. */
export function batchStats(p: Profile) {
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

// --- prompt tokens ----------------------------------------------------------------------------

/**
 * Every evaluated token of an article's calls, classified against a prefix tree of all the
 * tokens evaluated or generated before it: fresh (its position and everything before it
 * never seen: a perfect prefix cache would have to evaluate it too) or again (seen before:
 * evaluated again after a cut). The token a step sampled but left unevaluated, evaluated
 * first by the next step, is generation (LlamaWriter.sync does not count it either).
 */
export function promptAccounting(calls: CallRecord[]) {
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

/** The long article in tenths: engine CPU and wall − native per generated token, tokens per delta. */
export function deltaDeciles(run: LongRun) {
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
export function deltaEnds(run: LongRun) {
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

/** Self time by function and by where the code lives; native frames count for their nearest JS caller. */
export function summariseCpuProfile(profile: CpuProfile, file: string): CpuSummary {
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

/** The calls before the writer pinned its answer: the outline and its rewrites. */
export function outlineCalls(calls: CallRecord[], pins: readonly number[]): CallRecord[] {
  return calls.slice(0, pins[0] ?? calls.length);
}

/** The (2) article's prompt tokens by kind. */
export function splitPrompt(calls: CallRecord[], words: number): PromptSplit {
  const a = promptAccounting(calls);
  return { instructions: a.instructions, evaluated: a.evaluated, forced: a.fresh - a.instructions, again: a.again, words };
}

// --- analysis -------------------------------------------------------------------------------------

/** A run's wall split by what ran: they add up to `wallMs`. */
export function timeParts(prof: Profile, wallMs: number, durationMs: number) {
  const b = batchStats(prof);
  const spans = sum(prof.calls.map((c) => c.endedAt - c.startedAt));
  const consumer = sum(prof.calls.map((c) => c.consumerMs));
  const decode = prof.decodeBatch.ms;
  const sample = prof.sampleToken.ms;
  return { multi: b.multi.ms, single: b.single.ms, singleCalls: b.single.calls, sample, consumer, glue: spans - decode - sample - consumer, outside: durationMs - spans, http: wallMs - durationMs };
}

/** Where the service's extra time over the raw run goes, in ms: the parts add up to wall(2) − wall(1). */
export function gap(r: ModelResult) {
  const best = r.service.best;
  const p = best.profile!;
  const s = timeParts(p, best.wallMs, best.usage.durationMs);
  const w = timeParts(r.raw.profile, r.raw.totalMs, r.raw.totalMs);
  const rawPerSample = r.raw.profile.sampleToken.ms / Math.max(1, r.raw.profile.sampleToken.calls);
  // The outline's structured grammar against the body's free text (under a light quotation grammar its own tokens nearly always fit).
  const outline = outlineCalls(p.calls, p.pins);
  const body = p.calls.slice(outline.length);
  const outlineTokens = sum(outline.map((c) => c.tokens));
  const outlineSampleMs = sum(outline.map((c) => c.nativeSampleMs));
  const grammar = outlineSampleMs - outlineTokens * rawPerSample;
  const parts = {
    /** Batches of 2+ tokens: the instructions and forced answer text, beyond the raw run's one prompt. */
    prompts: s.multi - w.multi,
    /** 1-token forward passes: the same native code; a different context length, count, or machine noise. */
    steps: s.single - w.single,
    /** The outline's grammar-constrained sampling beyond what plain sampling costs. */
    grammar,
    /** Other sampling beyond the raw run's: the body's repeat penalty and quotation grammar. */
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
    bodyCalls: body.length,
    bodyTokens: sum(body.map((c) => c.tokens)),
    perToken: {
      serviceStep: s.single / Math.max(1, s.singleCalls),
      rawStep: w.single / Math.max(1, w.singleCalls),
      outlineSample: outlineSampleMs / Math.max(1, outlineTokens),
      bodySample: sum(body.map((c) => c.nativeSampleMs)) / Math.max(1, sum(body.map((c) => c.tokens))),
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
export function rssTrend(series: Array<{ articles: number; vmRss: number }>): { slope: number; se: number } {
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
export function trendSeries(rss: RssResult) {
  return rss.extended.length >= 4 ? rss.extended : rss.series;
}

/** Whether the loop shows a climb that is both real (beyond 2 standard errors) and material (≥ 2 % per 100 articles). */
export function rssLeaks(rss: RssResult): boolean | undefined {
  const { slope, se } = rssTrend(trendSeries(rss));
  if (!Number.isFinite(slope)) return undefined;
  return slope > 2 * se && slope > 0.02 * rss.warm.vmRss;
}

/** The span of the trend's readings. */
export function rssRange(rss: RssResult): string {
  const points = trendSeries(rss);
  const values = points.map((p) => p.vmRss);
  return values.length ? `${mb(Math.min(...values))}–${mb(Math.max(...values))} (articles ${points[0]!.articles}–${points.at(-1)!.articles})` : "–";
}

/** The trend per 100 articles with its standard error. */
export function trendText(rss: RssResult): string {
  const { slope, se } = rssTrend(trendSeries(rss));
  return `${mb(slope)} ± ${mb(se)}`;
}

/** First-event samples: every full (2) run and the runs the client left after the first event. */
export function firstEventSamples(r: ModelResult): SseRun[] {
  return [...r.service.runs, ...r.firstEvents];
}
