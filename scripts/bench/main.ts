/**
 * `npm run bench`: today's engine against a previous commit's (BENCH_PREVIOUS, default main),
 * in one run: the engine's own time per token on the scripted writer, a child process per
 * engine and no model (scripts/bench/engine.ts), then whole articles over HTTP on stories260K and
 * on the random-weight SmolLM2-135M shape (a real 49,152-token vocabulary, scripts/bench/shapes.ts;
 * BENCH_SHAPES=smollm2,qwen adds Qwen2.5-0.5B's, `none` leaves them out), the requests interleaved
 * (scripts/bench/compare.ts): wall time per article and completion tokens per body word. Goal:
 * today within 5 % of the previous engine on each; on the shapes, the engine of BENCH_BASELINE
 * (default d5f32b6, the fastest earlier engine on them) runs beside both. Last, `inkpress audit`
 * over a thousand 1,000-word pages (scripts/bench/audit.ts), goal under a minute. Writes
 * BENCHMARKS.md; about 10 minutes on 2 idle cores once the other commits are installed
 * (BENCH_QUICK=1: a few).
 */
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { auditTime, type AuditFigures } from "./audit.js";
import { checkout } from "./checkout.js";
import { article, atMost, f, log, median, MODEL, ms, previousCommit, QUICK, ROOT, sum, writeReport, type Verdict } from "./common.js";
import { answersTable, compare, ratios, totals, wallWhy, type Answers, type Engine } from "./compare.js";
import { engineCost, engineTable, SENTENCE_WORDS, type EngineCost } from "./engine.js";
import { BENCH_SPECS, ensureBenchModel } from "./shapes.js";

/** Runs and lengths: the engine's runs per sentence length, the articles' seeds and rounds. */
const S = QUICK
  ? { runs: 3, engineLength: 600, length: 300, seeds: [1], rounds: 1, pages: 200 }
  : { runs: 30, engineLength: 1500, length: 800, seeds: [1, 2, 3], rounds: 3, pages: 1000 };
/** Seconds a thousand pages' audit may take. */
const AUDIT_SECONDS = 60;
/** How much slower than the previous engine today's may be. */
const LIMIT = 1.05;
/** Today's engine measured a second time, beside the first: the noise of the engine measurement. */
const AGAIN = "today, again";
/** The article length every engine writes. */
const VARIANT = `${S.length} words`;
/** The random-weight shapes the articles also run on (BENCH_SHAPES, comma-separated; `none`). */
const SHAPES = (process.env.BENCH_SHAPES ?? "smollm2").split(",").filter((name): name is keyof typeof BENCH_SPECS => name in BENCH_SPECS);
/** The fastest earlier engine on the shapes, compared beside the previous commit (BENCH_BASELINE; `none`). */
const BASELINE = process.env.BENCH_BASELINE ?? "d5f32b6";

/** Each model's articles on every engine, interleaved; the shapes add the baseline engine. */
async function articles(engines: Engine[], baseline: Engine | undefined) {
  const models = [{ name: path.basename(MODEL, ".gguf"), file: MODEL, engines }];
  for (const shape of SHAPES) {
    const file = (await ensureBenchModel(BENCH_SPECS[shape], undefined, log)).path;
    models.push({ name: BENCH_SPECS[shape].id, file, engines: baseline ? [...engines, baseline] : engines });
  }
  const results: { name: string; answers: Answers }[] = [];
  for (const m of models) {
    log(
      `articles on ${m.name}: ${S.seeds.length} seeds × ${S.rounds} rounds on each of ${m.engines.map((e) => e.name).join(", ")}, interleaved`,
    );
    results.push({
      name: m.name,
      answers: await compare({
        engines: m.engines,
        model: m.file,
        requests: S.seeds.map((seed) => article(seed, S.length)),
        variants: [{ name: VARIANT, fields: {} }],
        rounds: S.rounds,
      }),
    });
  }
  return results;
}

/** Today's engine time per token against the previous one's, at each sentence length. */
function engineVerdicts(costs: EngineCost[], previous: string | undefined): Verdict[] {
  return SENTENCE_WORDS.map((words) => {
    const [today, before] = ["today", previous].map((name) => costs.find((c) => c.engine === name && c.words === words));
    const range = (c: EngineCost) => `${f(Math.min(...c.usPerToken), 1)}–${f(Math.max(...c.usPerToken), 1)}`;
    // Run i of each engine ran beside run i of the others: the median of those ratios leaves out the machine's slow spells.
    const paired = (a: EngineCost, b: EngineCost) => median(a.usPerToken.map((us, i) => us / b.usPerToken[i]!));
    const ratio = before ? paired(today!, before) : NaN;
    const again = costs.find((c) => c.engine === AGAIN && c.words === words)!;
    const noise = `today against itself ${f(paired(again, today!))}×`;
    const why = before
      ? `median of ${S.runs} paired runs; ${f(median(today!.usPerToken))} against ${f(median(before.usPerToken))} µs a token (${range(today!)} against ${range(before)}); ${noise}`
      : "no previous engine in this run";
    return atMost(`engine time per token, ${words}-word sentences, today ÷ ${previous ?? "previous"}`, ratio, LIMIT, why);
  });
}

/** Today's articles on one model against another engine's: wall per article and completion tokens per body word. */
function articleVerdicts(answers: Answers, other: string | undefined, model: string, limit: number): Verdict[] {
  const today = answers.get("today")!.get(VARIANT)!;
  const before = other ? answers.get(other)?.get(VARIANT) : undefined;
  if (!before) {
    const none = (target: string) => atMost(target, NaN, limit, `no ${other ?? "previous"} engine in this run`);
    return [
      none(`wall per ${S.length}-word article, ${model}, today ÷ ${other ?? "previous"}`),
      none(`completion tokens per body word, ${model}, today ÷ ${other ?? "previous"}`),
    ];
  }
  const [t, p] = [totals(today), totals(before)];
  const r = ratios(today, before);
  const cut = sum(t.cut.map(([, n]) => n));
  return [
    atMost(
      `wall per ${S.length}-word article, ${model}, today ÷ ${other}`,
      r.wall,
      limit,
      wallWhy(r),
      `${f(r.wall)}× (${ms(t.wallPerArticle)} against ${ms(p.wallPerArticle)})`,
    ),
    atMost(
      `completion tokens per body word, ${model}, today ÷ ${other}`,
      r.perWord,
      limit,
      `today cut ${cut} of its ${t.completion} completion tokens${t.cut.length ? ` (most: ${t.cut[0]![0]} ${t.cut[0]![1]})` : ""}`,
      `${f(r.perWord)}× (${f(t.perWord)} against ${f(p.perWord)})`,
    ),
  ];
}

/** The audit's wall time against its goal, scaled to the pages audited. */
function auditVerdict(a: AuditFigures): Verdict {
  const goal = (AUDIT_SECONDS * a.pages) / 1000;
  return {
    target: `inkpress audit of ${a.pages} pages of about ${a.words} words, wall`,
    goal: `< ${goal} s`,
    value: `${f(a.wallS, 1)} s`,
    met: a.wallS < goal,
    why: `${f(a.cpuS, 1)} s of CPU (${f((a.cpuS * 1000) / a.pages, 0)} ms a page) on ${os.availableParallelism()} cores; load average ${f(a.load[0]!)} at its start`,
  };
}

if (!existsSync(MODEL)) throw new Error(`no model at ${MODEL}: set BENCH_MODEL to a GGUF file`);
const previous = previousCommit();
const engines: Engine[] = [{ name: "today", root: ROOT }, ...(previous ? [{ name: previous, root: checkout(previous) }] : [])];
const baseline: Engine | undefined = BASELINE === "none" || !SHAPES.length ? undefined : { name: BASELINE, root: checkout(BASELINE) };
log(`engine time per token: ${engines.map((e) => e.name).join(" against ")}, ${S.runs} runs per sentence length`);
const costs = await engineCost({ engines: [...engines, { name: AGAIN, root: ROOT }], runs: S.runs, length: S.engineLength });
const models = await articles(engines, baseline);
log(`inkpress audit over ${S.pages} pages of about 1,000 words`);
const audit = await auditTime({ pages: S.pages, words: 1000 });
writeReport({
  name: "BENCHMARKS",
  command: "npm run bench",
  previous,
  verdicts: [
    ...engineVerdicts(costs, previous),
    ...models.flatMap((m) => [
      ...articleVerdicts(m.answers, previous, m.name, LIMIT),
      ...(m.answers.has(BASELINE) ? articleVerdicts(m.answers, BASELINE, m.name, 1) : []),
    ]),
    auditVerdict(audit),
  ],
  sections: [
    "## Engine time per token (scripted writer, no model)",
    "",
    `\`writeArticle\` on each engine's fake backend, a ${S.engineLength}-word article whose body the fake model writes in sentences of 5 or 30 words, one word a token; CPU time of the process (one thread, a fixed young generation), after 5 warm-up runs, ${S.runs} runs interleaved; today's engine runs twice, the second (\`${AGAIN}\`) showing the measurement's own noise.`,
    "",
    engineTable(costs),
    "",
    ...models.flatMap((m) => [
      `## Articles on ${m.name}`,
      "",
      `\`inkpress serve --threads 1 --sequences 1\` of each engine, all up at once; ${S.seeds.length} seed(s), each request ${S.rounds} time(s) on each engine in turn, its quickest counting; wall is the client's, request to the whole JSON answer.`,
      "",
      answersTable(m.answers),
      "",
    ]),
    "## Auditing a site",
    "",
    `\`inkpress audit\`'s work in-process (worker threads as the CLI starts them) over ${audit.pages} Markdown pages of about ${audit.words} words built from README prose in node_modules, front matter and links between pages (scripts/bench/audit.ts).`,
    "",
  ],
});
