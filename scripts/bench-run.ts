/**
 * The bench's runs on one model: (2) the service over SSE, (1) raw decoding in-process, the
 * writer layer alone, (3) the long article delta by delta, then concurrency and RSS on two
 * sequences, the optional rows only while the run's budget allows.
 */
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { getLlama, LlamaLogLevel, type Llama, type LlamaContextSequence, type LlamaModel, type Token } from "node-llama-cpp";
import { writeArticle } from "../src/article/article.js";
import { plan } from "../src/article/plan/plan.js";
import { articlePrompt } from "../src/article/plan/prompts.js";
import type { GenerateRequest } from "../src/article/wire/request.js";
import { LlamaWriter } from "../src/model/llama-writer.js";
import { flashAttentionFor } from "../src/model/gpu.js";
import { ModelRuntime } from "../src/model/runtime.js";
import { readSetting } from "../src/settings.js";
import { BENCH_DIR, type BenchModel } from "./bench-models.js";
import { nativeTotals, readProfile, resetProfile, setCapturePrompts } from "./bench-probe.js";
import { promptAccounting, splitPrompt, summariseCpuProfile } from "./bench-profile.js";
import { BenchServer, concurrency } from "./bench-server.js";
import { article, coreReserve, CPU_PROF, log, ms, normalised, now, QUICK, RAW_SAMPLING, remainingMs, RSS_CAP_MS, RUNTIME_CONTEXT, S, SEED, shortArticle, sleep, sum, THREADS, warmArticle } from "./bench-settings.js";
import type { CpuSummary, Level, LongRun, ModelResult, RawRun, RssResult, SseRun, WriterRun } from "./bench-types.js";

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

/** The service's writer (src/model/llama-writer.ts: repeat penalty, detokenizing, syncing) on the article's prompt, free text, against raw decoding of as many tokens. */
/** What the writer layer runs on: the raw run's model, context sequence and prompt. */
interface WriterLayerOptions {
  model: LlamaModel;
  llama: Llama;
  sequence: LlamaContextSequence;
  prompt: Token[];
  /** Tokens to write. */
  n: number;
}

async function writerLayer({ model, llama, sequence, prompt, n }: WriterLayerOptions): Promise<WriterRun> {
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

/**
 * (3): a long article in-process on the service's own backend (ModelRuntime, one sequence),
 * the native counters read at the outline and at every delta.
 */
async function longArticle(model: BenchModel, length: number): Promise<LongRun> {
  // The service's own view of the article: the default `--window`.
  const runtime = await ModelRuntime.load({ modelPath: model.path, threads: THREADS, sequences: 1, queueSize: 1, window: readSetting("window", { env: {} }) });
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


/** How much of the run's budget a model may still spend. */
interface Budget {
  /** Whether `estimateMs` more fits after what this model's core rows (`ownCoreMs`) and later models need. */
  affords(estimateMs: number, ownCoreMs: number): boolean;
  /** What the later models' core rows need. */
  laterReserve(): number;
  /** Optional rows not run, and why. */
  skipped: string[];
}

/** What (2) on `--sequences 1` gives: the runs, first events, the 4-client level and how long a short article takes. */
interface ServiceRows {
  prompting: string;
  runs: SseRun[];
  firstEvents: SseRun[];
  cpuProfile?: CpuSummary;
  levels: Level[];
  shortMs: number;
  loadMs: number;
}

/** (2) over SSE on the default server of 2 cores: one sequence. */
async function serviceRows(model: BenchModel, budget: Budget): Promise<ServiceRows> {
  const long = /stories/i.test(model.label);
  log(`${model.label}: server --sequences 1 --threads ${THREADS}`);
  const single = await BenchServer.start(model.path, { sequences: 1, threads: THREADS });
  const rows: ServiceRows = { prompting: "", runs: [], firstEvents: [], levels: [], shortMs: 0, loadMs: single.loadMs };
  const { runs, firstEvents } = rows;
  const skipped = budget.skipped;
  try {
    rows.prompting = (await single.health()).prompting ?? "";
    // Warm-up: the first passes of a context allocate its buffers and build its graphs, and the
    // engine's code gets compiled. Left after the first sentence: the rest would teach nothing more.
    let warmMs = now();
    await single.stream(warmArticle(7), "delta");
    warmMs = now() - warmMs;
    log(`${model.label}: (2) ${S.articleLength}-word article over SSE (warm-up ${ms(warmMs)})`);
    runs.push(await single.stream(article(SEED)));
    const w = runs[0]!.wallMs;
    // A short article costs about its share of tokens of the (2) article, and at least the warm-up.
    rows.shortMs = Math.max(warmMs, (w * 100) / S.articleLength);
    const ownCore = w + (long ? 2 * (S.longLength / S.articleLength) * w : 0);
    log(`${model.label}:   ${ms(w)}, meta ${ms(runs[0]!.metaMs)}, outline ${ms(runs[0]!.outlineMs)}, first delta ${ms(runs[0]!.firstDeltaMs)}, usage ${JSON.stringify(runs[0]!.usage)}`);

    const started = now();
    const eventCost = Math.max(200, runs[0]!.outlineMs);
    while (firstEvents.length < S.firstEventRuns && now() - started + eventCost < S.firstEventBudgetMs && budget.affords(eventCost, ownCore)) {
      firstEvents.push(await single.stream(article(100 + firstEvents.length), "first"));
    }
    if (firstEvents.length < S.firstEventRuns) {
      skipped.push(`${S.firstEventRuns - firstEvents.length} of ${S.firstEventRuns} extra first-event samples (each costs a whole outline, ${ms(eventCost)}: the client leaving does not stop the outline)`);
    }
    for (let i = 1; i < S.repeats; i++) {
      if (!budget.affords(2 * w, ownCore)) {
        skipped.push(`(2)/(1) repeat ${i + 1} of ${S.repeats} (would take about ${ms(2 * w)})`);
        break;
      }
      log(`${model.label}: (2) again`);
      runs.push(await single.stream(article(SEED)));
    }
    if (CPU_PROF) rows.cpuProfile = await profiledArticle(single, model);
    if (budget.affords(4 * rows.shortMs, ownCore + runs.length * w)) {
      log(`${model.label}: 4 clients on --sequences 1`);
      rows.levels.push(await concurrency(single, { sequences: 1, clients: 4, perClient: 1 }));
    } else skipped.push(`4 clients on --sequences 1 (about ${ms(4 * rows.shortMs)})`);
  } finally {
    await single.stop();
  }
  return rows;
}

/** The (2) article once more under the V8 CPU profiler, the profile saved beside the report's data. */
async function profiledArticle(server: BenchServer, model: BenchModel): Promise<CpuSummary> {
  log(`${model.label}: (2) again under the V8 CPU profiler`);
  await server.cpuStart();
  await server.generate(article(SEED));
  const cpu = await server.cpuStop();
  const file = path.join(BENCH_DIR, `${model.label}.article.cpuprofile`);
  await writeFile(file, JSON.stringify(cpu));
  return summariseCpuProfile(cpu, file);
}

/** What (1) needs from (2): the best run's first prompt, how many tokens to decode, how many runs. */
interface RawRowsOptions {
  prompt: Token[];
  /** Completion tokens of the best (2) run. */
  n: number;
  runs: number;
  /** The best (2) run's wall, for the budget of the long article still to come. */
  bestWallMs: number;
}

/** (1) raw decoding in-process, on a context of its own made like the runtime's, and the writer layer alone. */
async function rawRows(model: BenchModel, budget: Budget, { prompt, n, runs, bestWallMs }: RawRowsOptions): Promise<{ raw: RawRun; writer?: WriterRun }> {
  const long = /stories/i.test(model.label);
  log(`${model.label}: (1) raw decoding, ${prompt.length}-token prompt + ${n} tokens, in-process`);
  const llama = await getLlama({ gpu: false, build: "never", logLevel: LlamaLogLevel.error, logger: () => {} });
  try {
    const loaded = await llama.loadModel({ modelPath: model.path });
    const context = await loaded.createContext({
      contextSize: Math.min(RUNTIME_CONTEXT, loaded.trainContextSize),
      sequences: 1,
      threads: { ideal: THREADS, min: THREADS },
      flashAttention: flashAttentionFor(llama),
    });
    const sequence = context.getSequence();
    let warmup = 0;
    for await (const _ of sequence.evaluate(prompt, { ...RAW_SAMPLING, seed: 1, yieldEogToken: true })) if (++warmup >= 16) break;
    const raws: RawRun[] = [];
    for (let i = 0; i < runs; i++) raws.push(await rawDecode(sequence, prompt, n));
    const raw = raws.reduce((a, b) => (b.totalMs < a.totalMs ? b : a));
    raw.walls = raws.map((r) => r.totalMs);
    let writer: WriterRun | undefined;
    const writerCost = (2 * S.writerTokens * raw.totalMs) / Math.max(1, n);
    if (budget.affords(writerCost, long ? 2 * (S.longLength / S.articleLength) * bestWallMs : 0)) {
      log(`${model.label}: writer layer, ${S.writerTokens} tokens`);
      writer = await writerLayer({ model: loaded, llama, sequence, prompt, n: S.writerTokens });
    } else budget.skipped.push(`the writer layer alone (about ${ms(writerCost)})`);
    await context.dispose();
    await loaded.dispose();
    return { raw, writer };
  } finally {
    await llama.dispose();
  }
}

/** Concurrency and RSS on a server with two sequences, while the budget allows. */
async function pairRows(model: BenchModel, budget: Budget, shortMs: number): Promise<{ levels: Level[]; rss?: RssResult }> {
  const levels: Level[] = [];
  const concurrencyCost = 8 * shortMs + 5_000;
  const rssCost = (S.rssArticles * shortMs) / 1.5 + 5_000;
  if (!budget.affords(concurrencyCost, 0)) {
    budget.skipped.push(`aggregate tok/s at 1 and 4 clients on --sequences 2 (about ${ms(concurrencyCost)})`);
    budget.skipped.push(`RSS over ${S.rssArticles} articles (about ${ms(rssCost)})`);
    return { levels };
  }
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
    for (const [clients, perClient] of [[1, 4], [4, 1]] as const) levels.push(await concurrency(server, { sequences: 2, clients, perClient }));
    if (!budget.affords(Math.min(rssCost, RSS_CAP_MS), 0)) {
      budget.skipped.push(`RSS over ${S.rssArticles} articles (about ${ms(rssCost)})`);
      return { levels };
    }
    const rss = await rssLoop(server, model, budget);
    return { levels, rss: { ...rss, startup, warm, memoryStartup, memoryWarm } };
  } finally {
    await server.stop();
  }
}

/** Short articles two at a time to {@link S}.rssArticles, RSS read after GC as they go, then past it while time allows. */
async function rssLoop(server: BenchServer, model: BenchModel, budget: Budget): Promise<Omit<RssResult, "startup" | "warm" | "memoryStartup" | "memoryWarm">> {
  log(`${model.label}: RSS loop to ${S.rssArticles} articles`);
  const rssStarted = now();
  const rssBudget = Math.min(RSS_CAP_MS, Math.max(10_000, remainingMs() - budget.laterReserve() - 10_000));
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
  const trendBudget = Math.min(20_000, remainingMs() - budget.laterReserve() - 10_000);
  if (articles >= S.rssArticles && trendBudget > 5_000) {
    log(`${model.label}: RSS trend past ${S.rssArticles} articles (${ms(trendBudget)})`);
    await loop(S.trendArticles, now() + trendBudget, 2, extended);
    await server.waitIdle();
  }
  return { final, finalNoGc, series, extended, articles, memoryFinal, capped: articles < S.rssArticles };
}

/** The words of the article's instructions, as the model is prompted. */
function instructionWords(request: GenerateRequest, prompting: string): number {
  const articlePlan = plan(request);
  const p = prompting === "chat-template" ? articlePrompt(articlePlan, "json") : undefined;
  const text = p ? `${p.system} ${p.user}` : articlePrompt(articlePlan, "lines").completion;
  return text.split(/\s+/).filter(Boolean).length;
}

/** Every row of one model, the core rows first; `later` are the models still to run after it. */
export async function benchModel(model: BenchModel, later: BenchModel[]): Promise<ModelResult> {
  const laterReserve = () => (QUICK ? 0 : sum(later.map((m) => coreReserve(m.label))));
  const budget: Budget = { skipped: [], laterReserve, affords: (estimateMs, ownCoreMs) => remainingMs() - laterReserve() - ownCoreMs - estimateMs > 0 };
  const service = await serviceRows(model, budget);
  const best = service.runs.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
  const calls = best.profile!.calls;
  const { raw, writer } = await rawRows(model, budget, { prompt: calls[0]!.prompt, n: best.usage.completionTokens, runs: service.runs.length, bestWallMs: best.wallMs });

  // (3) per-delta time over a long article.
  let long: LongRun | undefined;
  if (/stories/i.test(model.label)) {
    log(`${model.label}: (3) ${S.longLength}-word article in-process (ModelRuntime), per-delta times`);
    long = await longArticle(model, S.longLength);
    log(`${model.label}:   ${ms(long.wallMs)}, ${long.deltas.length} deltas, ${long.words} words`);
  }
  const pair = await pairRows(model, budget, service.shortMs);
  const accounting = promptAccounting(calls);
  return {
    model,
    prompting: service.prompting,
    service: { runs: service.runs, best, loadMs: service.loadMs, cpuProfile: service.cpuProfile },
    firstEvents: service.firstEvents,
    raw,
    writer,
    long,
    levels: [...service.levels, ...pair.levels],
    rss: pair.rss,
    unique: { evaluated: accounting.evaluated, unique: accounting.fresh, calls: calls.length },
    prompt: splitPrompt(calls, instructionWords(normalised(article(SEED)), service.prompting)),
    skipped: budget.skipped,
  };
}
