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
 * Before the models: the engine's own time per token with 5-word against 30-word sentences,
 * in-process on a scripted writer (bench-engine.ts), and the comparison with the previous
 * engine, commit d5f32b6, checked out and installed beside this one, its articles
 * interleaved with today's on the same requests and seeds (bench-previous.ts; stories260K at
 * 800 words and the SmolLM2 shape at 300, 3 seeds each).
 *
 * The servers run with a timing probe preloaded (scripts/bench-probe.ts); it costs about a
 * microsecond per token. The parts: bench-settings.ts (switches, budget, helpers),
 * bench-server.ts (the server processes), bench-run.ts (the runs of one model),
 * bench-profile.ts (reading the probe, the machine and the CPU profile), bench-verdicts.ts and
 * bench-report.ts (the targets and BENCHMARKS.md).
 *
 * Env: BENCH_QUICK=1 (short counts, for debugging the harness; writes
 *      $TMPDIR/inkpress-bench/BENCHMARKS.quick.md instead of BENCHMARKS.md),
 *      BENCH_SECTIONS=engine,previous,models (a subset; a partial run writes
 *      $TMPDIR/inkpress-bench/BENCHMARKS.partial.md), BENCH_MODELS=smollm2,qwen,stories
 *      (a subset, for every section), BENCH_CPU_PROF=1 (the (2) article once
 *      more under the V8 profiler), BENCH_OUT=path (report file), BENCH_REPORT_FROM=path
 *      (render the report again from the results a run saved, without running anything).
 * The whole run keeps under about 12 minutes on 2 cores: the core rows of every model come
 * first in the budget; optional rows are skipped (and the report says so) when what is left
 * would not cover them and the core rows of the models still to run.
 */
import { existsSync, readFileSync } from "node:fs";
import { mkdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { BENCH_DIR, BENCH_SPECS, ensureBenchModel, type BenchModel } from "./bench-models.js";
import { engineTokenCost } from "./bench-engine.js";
import { compared, previousEngine } from "./bench-previous.js";
import { installProbe } from "./bench-probe.js";
import { machine, measureBandwidth } from "./bench-profile.js";
import { consoleSummary, report } from "./bench-report.js";
import { benchModel } from "./bench-run.js";
import { f, log, ms, now, OUT, QUICK, RUN_STARTED, SAVED, SECTIONS, STORIES, THREADS } from "./bench-settings.js";
import type { BenchRun, ModelResult } from "./bench-types.js";

/**
 * The models to run, cheapest first: when time runs short, the optional rows of the later
 * models go. Without the models section, only those the comparison with the previous engine uses.
 */
async function benchModels(): Promise<BenchModel[]> {
  const only = process.env.BENCH_MODELS?.split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  const wanted = (label: string) => (!only || only.some((o) => label.toLowerCase().includes(o))) && (SECTIONS.includes("models") || compared(label));
  const models: BenchModel[] = [];
  if (existsSync(STORIES) && wanted("stories260K")) {
    const bytes = readFileSync(STORIES).length;
    models.push({ label: "stories260K", path: STORIES, bytes, weightBytes: bytes });
  } else if (!existsSync(STORIES)) log(`no ${STORIES}: skipping stories260K`);
  for (const spec of BENCH_SPECS) if (wanted(spec.id)) models.push(await ensureBenchModel(spec, BENCH_DIR, log));
  return models;
}

async function main(): Promise<void> {
  const from = process.env.BENCH_REPORT_FROM;
  if (from) {
    // Render the report again from a run's saved results (after a change to the report's wording only).
    await writeFile(OUT, `${report(JSON.parse(readFileSync(from, "utf8")) as BenchRun)}\n`);
    log(`wrote ${OUT} from ${from}`);
    return;
  }
  const info = machine();
  log(`${QUICK ? "quick" : "full"} run of ${SECTIONS.join(", ")}; ${info.cores} cores, ${info.cpu}; CPU backend, ${THREADS} thread(s); load ${info.loadavg.map((x) => x.toFixed(2)).join(" ")}`);
  const run: BenchRun = { sections: SECTIONS, results: [], info, runMs: 0, loadEnd: [] };
  const models = await benchModels();

  if (SECTIONS.includes("engine")) {
    log("engine time per token, 5-word against 30-word sentences (in-process, scripted writer)");
    run.tokenCost = await engineTokenCost();
    log(`  ${run.tokenCost.map((c) => `${c.words} words: ${f(c.usPerToken, 2)} µs a token`).join(", ")}`);
  }
  if (SECTIONS.includes("previous")) {
    run.previous = await previousEngine({ models, later: SECTIONS.includes("models") ? models : [] });
    log(`  the comparison with ${run.previous.commit} took ${ms(run.previous.ms)}`);
  }
  if (SECTIONS.includes("models")) {
    await installProbe();
    log("memory bandwidth");
    const bw = (run.bw = await measureBandwidth());
    log(`  memcmp ${f(bw.memcmp1 / 1e9, 2)} GB/s (1 thread), ${f(bw.memcmp2 / 1e9, 2)} GB/s (2 threads)`);
    const results: ModelResult[] = run.results;
    for (const [i, model] of models.entries()) results.push(await benchModel(model, models.slice(i + 1)));
    await rm(path.join(BENCH_DIR, `keys-${process.pid}`), { recursive: true, force: true });
  }

  run.runMs = now() - RUN_STARTED;
  run.loadEnd = os.loadavg();
  consoleSummary(run);
  await mkdir(BENCH_DIR, { recursive: true });
  await writeFile(SAVED, JSON.stringify(run));
  log(`results saved to ${SAVED} (BENCH_REPORT_FROM=${SAVED} renders the report again)`);
  await mkdir(path.dirname(OUT), { recursive: true });
  await writeFile(OUT, `${report(run)}\n`);
  log(`wrote ${OUT}`);
}

await main();
