/** The bench's Markdown report (BENCHMARKS.md), rendered from a run's results, one section at a time. */
import { deltaDeciles, deltaEnds, firstEventSamples, gap, trendSeries, trendText } from "./bench-profile.js";
import { f, mb, median, ms, pct, QUICK, RUNTIME_CONTEXT, S, SEED, table, THREADS } from "./bench-settings.js";
import type { BenchRun, Rss } from "./bench-types.js";
import { discardBreakdown, issueTargets, seriesTotals, tokenCostText, verdicts } from "./bench-verdicts.js";

/** The header: backend, machine, load, commit, date and command, models. */
function header(out: string[], { results, info, runMs, loadEnd, sections, previous }: BenchRun): void {
  out.push("# inkpress benchmarks", "");
  out.push(
    `- Backend: **CPU, in-process node-llama-cpp ${info.nodeLlamaCpp}, ${THREADS} thread${THREADS === 1 ? "" : "s"}** (src/config.ts defaultThreads on this machine: half the cores). GPU figures are not measured: this machine has no GPU (\`getLlama({ gpu: false })\`).`,
    `- Machine: ${info.cores} cores (os.availableParallelism()), ${info.cpu}, ${(info.memTotal / 2 ** 30).toFixed(1)} GiB RAM; Node ${info.node}`,
    `- Load average (1, 5, 15 min) at start ${info.loadavg.map((x) => x.toFixed(2)).join(", ")}, at the end ${loadEnd.map((x) => x.toFixed(2)).join(", ")}: ${Math.max(info.loadavg[0]!, loadEnd[0]!) > info.cores * 0.75 ? `**other processes shared the ${info.cores} cores during the run, so absolute times are inflated and noisy**; ratios taken close together (service ÷ raw, first ÷ last deltas) hold up better` : "the machine was mostly idle"}.`,
    `- Engine: commit ${info.commit}${info.dirtySrc ? `, with ${info.dirtySrc} uncommitted change${info.dirtySrc === 1 ? "" : "s"} in src/ (the run measures the working tree)` : ""}`,
    `- Date: ${new Date().toISOString()}; command: \`${QUICK ? "BENCH_QUICK=1 " : ""}${sections && sections.length < 3 ? `BENCH_SECTIONS=${sections.join(",")} ` : ""}npm run bench\`${QUICK ? " (quick mode: short counts, for debugging the harness — not the figures to quote)" : ""}; whole run ${ms(runMs)}`,
    `- Models: random-weight GGUFs with the exact shapes and Q8_0 quantisation of SmolLM2-135M-Instruct and Qwen2.5-0.5B-Instruct (scripts/bench-models.ts)${[...results.map((r) => r.model.label), ...(previous?.cases.map((c) => c.model) ?? [])].includes("stories260K") ? ", and the real stories260K" : ""}.`,
    "- Elsewhere: what keyword steering, banned phrases and grounding cost (`npm run bench:editor`) is in BENCHMARKS-editor.md; inkpress in front of llama-server (`npm run bench:backend`) in BENCHMARKS-backend.md.",
    "",
  );

}

/** Every target on every model, and the rows the budget skipped. */
function targetRows(out: string[], run: BenchRun): void {
  const { results } = run;
  const all = verdicts(run);
  const targets = [...new Set(all.map((x) => x.target))];
  const v = targets.flatMap((t) => all.filter((x) => x.target === t));
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

}

/** (2) against (1): where the service spends the extra time. */
function gapRows(out: string[], { results }: BenchRun): void {
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
      ["model", "model calls", "outline: calls / tokens / time", "body calls / tokens", "completion tokens", "body words", "sampling ms/token: outline / body / raw", "1-token pass ms (service / raw)", "between tokens ms/token (service / raw)", "writer layer tok/s vs raw (same prompt)"],
      results.map((r) => {
        const g = gap(r);
        const b = r.service.best;
        return [
          r.model.label,
          String(g.calls),
          `${g.outline.calls} / ${g.outline.tokens} / ${ms(g.outline.ms)}`,
          `${g.bodyCalls} / ${g.bodyTokens}`,
          String(b.usage.completionTokens),
          String(b.words),
          `${f(g.perToken.outlineSample, 3)} / ${f(g.perToken.bodySample, 3)} / ${f(g.perToken.rawSample, 3)}`,
          `${f(g.perToken.serviceStep, 2)} / ${f(g.perToken.rawStep, 2)}`,
          `${f(g.perToken.consumer, 3)} / ${f(g.perToken.rawConsumer, 3)}`,
          r.writer ? `${f(r.writer.decodeRate)} vs ${f(r.writer.rawDecodeRate)} (${r.writer.tokens} tokens)` : "skipped",
        ];
      }),
    ),
    "",
  );

}

/** (3): per-delta time over the long article. */
function longRows(out: string[], { results, tokenCost }: BenchRun): void {
  const longRuns = results.filter((r) => r.long);
  out.push("## (3) per-delta time over a long article", "");
  if (longRuns.length) {
    out.push(
      `Method: the ${S.longLength}-word article (same request as (2) but \`length\` ${S.longLength}) written in-process by \`writeArticle\` on the service's own backend (ModelRuntime, one sequence, ${THREADS} thread${THREADS === 1 ? "" : "s"}, the default \`--window\` of 512 tokens of prose in view), after a warm-up article. At the \`outline\` callback and at every \`delta\` the bench reads the probe's running native totals: forward passes (\`decodeBatch\`) and sampling (\`sampleToken\`). Three measures of the engine's own time per delta: (a) the verdict's: wall since the previous delta outside node-llama-cpp's token generators (the probe times every \`next()\` of \`sequence.evaluate\`): the engine's JS between tokens and between steps (sentence handling, the document, syncing the sequence, forced text, grammar compilation, context shifts), without native work or node-llama-cpp's own JS per token; (b) wall − native time (forward passes and sampling), as the target words it: (a) plus node-llama-cpp's JS per token; (c) the main thread's CPU time (\`/proc/self/task/<pid>/schedstat\`), which holds the same work as (b) without waiting for a core. (b) and (c) carry node-llama-cpp's per-token cost, which on this shared machine swings between tenths by as much as the engine's whole cost (a raw node-llama-cpp decode of stories260K, no engine, measured 0.33–0.86 ms of main-thread CPU a token from one tenth to another). Per-token columns divide by the 1-token passes (generated tokens) in the interval. Prompt copies in the probe are off for this run, so its own cost does not grow with the context.`,
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
      `Where the engine's time per token goes: the body pass reads the pending text again only when a piece holds a sentence end or a line break (or a run-on sentence grew by 120 characters), so its work per token should not grow with the sentence being written; ${tokenCostText(tokenCost)}, against ${f(1000 * deltaEnds(longRuns[0]!.long!).first.ownPerToken, 0)} µs (first tenth) and ${f(1000 * deltaEnds(longRuns[0]!.long!).last.ownPerToken, 0)} µs (last tenth) of the engine's own time per token in this article, model calls and all. A delta carries a whole sentence, so its cost follows the sentence's length at any cost per token.`,
      "",
    );
    out.push(
      "Wall per delta also moves with the model's own cost per token, which depends on how full the context is (attention over the context dominates stories260K's tiny matrices) and on other processes; the engine's time is the part the engine controls.",
      "",
    );
  } else out.push("Not run: it needs ../shared/models/stories260K.gguf (a 5,000-word article on the larger models would take the whole time budget).", "");

}

/** Absolute figures: (1) and (2), and the first events over SSE. */
function absoluteRows(out: string[], { results }: BenchRun): void {
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
}

/** Concurrency and the server's RSS. */
function loadRows(out: string[], { results }: BenchRun): void {
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
}

/** Prompt tokens, memory bandwidth against decode speed, and the CPU profile when one was taken. */
function promptRows(out: string[], { results, bw }: BenchRun): void {
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
  if (!bw) return;
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
}

/** The rows dropped with the new engine, and the method. */
function methodRows(out: string[]): void {
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
}

/** Issue 21's targets in one table: measured, goal, met or not, and why not. */
function issueRows(out: string[], run: BenchRun): void {
  out.push("## Targets (issue 21)", "");
  out.push(
    table(
      ["target", "model", "measured", "goal", "", "why not met / what would close it"],
      issueTargets(run).map((x) => [x.target, x.model || "–", x.value, x.goal ?? "", x.met === undefined ? "n/a" : x.met ? "**met**" : "**not met**", x.why]),
    ),
    "",
    "The rows of issue 21 on inkpress in front of llama-server (against llama-server alone, on the SmolLM2 shape and on stories260K, and the prompt tokens llama-server evaluates per article) are measured by `npm run bench:backend` and recorded in BENCHMARKS-backend.md.",
    "",
  );
}

/** The previous engine against today's, request by request, and what today's engine cut. */
function previousRows(out: string[], { previous }: BenchRun): void {
  if (!previous) return;
  out.push(`## Against the previous engine (commit ${previous.commit}), in the same run`, "");
  out.push(
    `Commit ${previous.commit} (one model call per passage) checked out into a temporary git worktree and installed there (\`npm ci\`), its \`inkpress serve\` and today's side by side (1 thread, 1 sequence each, no probe in either), a warm-up article on each, then the same requests and seeds sent to today's and then to ${previous.commit}, request by request. The bench's article request (topic Home composting for beginners, sections, two keywords); wall = the client's, request to the whole JSON answer. The section took ${ms(previous.ms)}.`,
    "",
  );
  if (previous.skipped.length) out.push(`Not run: ${previous.skipped.join("; ")}.`, "");
  const rows = previous.cases.flatMap((c) =>
    ([["today", c.today], [previous.commit, c.previous]] as const).map(([engine, answers]) => {
      const t = seriesTotals([...answers]);
      return [c.model, String(c.length), engine, ms(t.wall), answers.map((a) => ms(a.wallMs)).join(", "), String(t.completion), String(t.prompt), String(t.words), f(t.perWord, 2), f(t.msPerToken, 2)];
    }),
  );
  if (rows.length) {
    out.push(table(["model", "length", "engine", "wall per article (median)", "runs", "completion tokens", "prompt tokens", "body words", "completion tokens per body word", "wall ms per completion token"], rows), "");
  }
  for (const c of previous.cases) {
    if (c.skipped) out.push(`${c.model}: ${c.skipped}.`, "");
    const d = discardBreakdown(c.today);
    if (!d) continue;
    out.push(`Today's completion tokens generated and then cut (\`usage.discardedTokens\`), ${c.model}, summed over ${d.answers} articles:`, "");
    out.push(table(["reason", "tokens", "share of completion tokens"], [...d.reasons.map(([reason, n]) => [reason, String(n), pct(n / d.completion)]), ["all", String(d.total), pct(d.total / d.completion)]]), "");
  }
}

/** The engine section: its own time per token with short and long sentences. */
function engineRows(out: string[], { tokenCost }: BenchRun): void {
  if (!tokenCost) return;
  out.push("## The engine's own time per token, by sentence length", "");
  out.push(
    "In-process, no model: `writeArticle` on the scripted fake backend (scripts/fixtures/fake-backend.ts), whose writer yields one token-sized piece (a word with its space) at a time, writing distinct sentences of 5 words or of 30 (split in two by the engine's 20-word rule). The process's CPU time (so other work on a shared machine does not count) from the `outline` callback to the last sentence kept, less the fake writer's own cost per piece (measured alone), over the tokens generated in between; the runs of both lengths interleaved after a warm-up.",
    "",
  );
  out.push(table(["sentence words", "generated tokens per article", "engine CPU µs per token (median)", "runs (µs)", "fake writer CPU µs per piece (taken out)"], tokenCost.map((c) => [String(c.words), String(c.tokens), f(c.usPerToken, 2), c.runs.map((x) => f(x, 1)).join(", "), f(c.writerUsPerToken, 2)])), "");
}

/** The Markdown report of a run: targets first, then where the time goes, then the absolute figures and the method. */
export function report(run: BenchRun): string {
  const out: string[] = [];
  const modelSections = run.results.length ? [targetRows, gapRows, longRows, absoluteRows, loadRows, promptRows, methodRows] : [];
  for (const section of [header, issueRows, ...modelSections.slice(0, 1), previousRows, engineRows, ...modelSections.slice(1)]) section(out, run);
  return out.join("\n");
}

/** The verdicts as a console table. */
export function consoleSummary(run: BenchRun): void {
  const rows = [...issueTargets(run), ...verdicts(run)];
  console.table(rows.map((v) => ({ model: v.model, target: v.target, measured: v.value.slice(0, 120), goal: v.goal ?? "", met: v.met === undefined ? "n/a" : v.met ? "met" : "NOT MET" })));
}
