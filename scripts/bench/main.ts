/**
 * `npm run bench`: today's engine against a previous commit's (BENCH_PREVIOUS, default main),
 * in one run: the engine's own time per token on the scripted writer, a child process per
 * engine and no model (scripts/bench/engine.ts), then whole articles on the model over HTTP, the requests
 * interleaved (scripts/bench/compare.ts): wall time per article and completion tokens per body
 * word. Goal: today within 5 % of the previous engine on each. Last, `inkpress audit` over a
 * thousand 1,000-word pages (scripts/bench/audit.ts), goal under a minute. Writes BENCHMARKS.md;
 * about 2 minutes on 2 idle cores once the previous commit is installed (BENCH_QUICK=1: under one).
 */
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { auditTime, type AuditFigures } from "./audit.js";
import { checkout } from "./checkout.js";
import { article, atMost, f, log, median, MODEL, ms, previousCommit, QUICK, ROOT, sum, writeReport, type Verdict } from "./common.js";
import { answersTable, compare, ratios, totals, wallWhy, type Answers, type Engine } from "./compare.js";
import { engineCost, engineTable, SENTENCE_WORDS, type EngineCost } from "./engine.js";

/** Runs and lengths: the engine's runs per sentence length, the articles' seeds and rounds. */
const S = QUICK ? { runs: 3, engineLength: 600, length: 300, seeds: [1], rounds: 1, pages: 200 } : { runs: 30, engineLength: 1500, length: 800, seeds: [1, 2, 3], rounds: 3, pages: 1000 };
/** Seconds a thousand pages' audit may take. */
const AUDIT_SECONDS = 60;
/** How much slower than the previous engine today's may be. */
const LIMIT = 1.05;
/** Today's engine measured a second time, beside the first: the noise of the engine measurement. */
const AGAIN = "today, again";

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
    const why = before ? `median of ${S.runs} paired runs; ${f(median(today!.usPerToken))} against ${f(median(before.usPerToken))} µs a token (${range(today!)} against ${range(before)}); ${noise}` : "no previous engine in this run";
    return atMost(`engine time per token, ${words}-word sentences, today ÷ ${previous ?? "previous"}`, ratio, LIMIT, why);
  });
}

/** Today's articles against the previous engine's: wall per article and completion tokens per body word. */
function articleVerdicts(answers: Answers, previous: string | undefined, variant: string): Verdict[] {
  const today = answers.get("today")!.get(variant)!;
  const before = previous ? answers.get(previous)!.get(variant)! : undefined;
  const [t, p] = [totals(today), before && totals(before)];
  const model = path.basename(MODEL, ".gguf");
  if (!before || !p) {
    const none = (target: string) => atMost(target, NaN, LIMIT, "no previous engine in this run");
    return [none(`wall per ${S.length}-word article, ${model}, today ÷ previous`), none("completion tokens per body word, today ÷ previous")];
  }
  const r = ratios(today, before);
  const cut = sum(t.cut.map(([, n]) => n));
  return [
    atMost(`wall per ${S.length}-word article, ${model}, today ÷ ${previous}`, r.wall, LIMIT, wallWhy(r), `${f(r.wall)}× (${ms(t.wallPerArticle)} against ${ms(p.wallPerArticle)})`),
    atMost(`completion tokens per body word, today ÷ ${previous}`, r.perWord, LIMIT, `today cut ${cut} of its ${t.completion} completion tokens${t.cut.length ? ` (most: ${t.cut[0]![0]} ${t.cut[0]![1]})` : ""}`, `${f(r.perWord)}× (${f(t.perWord)} against ${f(p.perWord)})`),
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
log(`engine time per token: ${engines.map((e) => e.name).join(" against ")}, ${S.runs} runs per sentence length`);
const costs = await engineCost({ engines: [...engines, { name: AGAIN, root: ROOT }], runs: S.runs, length: S.engineLength });
const variant = `${S.length} words`;
log(`articles on ${path.basename(MODEL)}: ${S.seeds.length} seeds × ${S.rounds} rounds on each engine, interleaved`);
const answers = await compare({ engines, model: MODEL, requests: S.seeds.map((seed) => article(seed, S.length)), variants: [{ name: variant, fields: {} }], rounds: S.rounds });
log(`inkpress audit over ${S.pages} pages of about 1,000 words`);
const audit = await auditTime({ pages: S.pages, words: 1000 });
writeReport({
  name: "BENCHMARKS",
  command: "npm run bench",
  previous,
  verdicts: [...engineVerdicts(costs, previous), ...articleVerdicts(answers, previous, variant), auditVerdict(audit)],
  sections: [
    "## Engine time per token (scripted writer, no model)",
    "",
    `\`writeArticle\` on each engine's fake backend, a ${S.engineLength}-word article whose body the fake model writes in sentences of 5 or 30 words, one word a token; CPU time of the process (one thread, a fixed young generation), after 5 warm-up runs, ${S.runs} runs interleaved; today's engine runs twice, the second (\`${AGAIN}\`) showing the measurement's own noise.`,
    "",
    engineTable(costs),
    "",
    `## Articles on ${path.basename(MODEL)}`,
    "",
    `\`inkpress serve --threads 1 --sequences 1\` of each engine, both up at once; ${S.seeds.length} seed(s), each request ${S.rounds} time(s) on each engine in turn, its quickest counting; wall is the client's, request to the whole JSON answer.`,
    "",
    answersTable(answers),
    "",
    "## Auditing a site",
    "",
    `\`inkpress audit\`'s work in-process (worker threads as the CLI starts them) over ${audit.pages} Markdown pages of about ${audit.words} words built from README prose in node_modules, front matter and links between pages (scripts/bench/audit.ts).`,
    "",
  ],
});
