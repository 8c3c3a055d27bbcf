/**
 * `npm run bench`: today's engine against a previous commit's (BENCH_PREVIOUS, default main),
 * in one run: the engine's own time per token on the scripted writer, a child process per
 * engine and no model (scripts/bench/engine.ts), then whole articles over HTTP on stories260K and
 * on the random-weight SmolLM2-135M shape (a real 49,152-token vocabulary, scripts/bench/shapes.ts;
 * BENCH_SHAPES=smollm2,qwen adds Qwen2.5-0.5B's, `none` leaves them out), the requests interleaved
 * (scripts/bench/compare.ts): wall time per article and completion tokens per body word. Goal:
 * today within 5 % of the previous engine on each. On the shapes, 300- and 800-word articles: the
 * engine of BENCH_BASELINE (default d5f32b6, the fastest earlier engine on them) runs beside both
 * (goal: no slower), raw decoding of the same tokens after each of today's articles (goal: within
 * 5 %, scripts/bench/raw.ts), tokens per 300-word article (at most 420 completion and 300 prompt),
 * what the near-duplicate refusal costs (the gate's lookup per sentence, under 50 µs, and the
 * stories260K tokens cut as near-duplicates, at most 5 %: scripts/bench/repeats.ts), what the
 * on-topic check costs (the word-vector cache's load, under 1 s, and the check's CPU per 1,000
 * words, under 5 ms: scripts/bench/on-topic.ts), what a house voice costs (prompt tokens it adds, at
 * most 250, and wall with it ÷ without, at most 1.5×: scripts/bench/voice.ts),
 * and the same articles through llama-server against llama-server alone (goal: within 1.2×,
 * scripts/bench/llama-server.ts; BENCH_LLAMA_SERVER=0 leaves it out). Last, `inkpress audit` over
 * a thousand 1,000-word pages (scripts/bench/audit.ts), goal under a minute, then `inkpress links`
 * (goal under a minute) and `audit --search-console`'s decay (under a second) over a thousand pages
 * (scripts/bench/site-health.ts). Writes BENCHMARKS.md;
 * about 20 minutes on 2 idle cores once the other commits are installed (BENCH_QUICK=1: a few).
 */
import { existsSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { auditTime, type AuditFigures } from "./audit.js";
import { siteHealthTime, type SiteHealthFigures } from "./site-health.js";
import { checkout } from "./checkout.js";
import {
  article,
  atMost,
  countAtMost,
  f,
  log,
  median,
  MODEL,
  ms,
  previousCommit,
  QUICK,
  ROOT,
  sum,
  writeReport,
  type Verdict,
} from "./common.js";
import { answersTable, compare, RAW, ratios, totals, wallWhy, type Answers, type Engine, type Kept } from "./compare.js";
import { engineCost, engineTable, SENTENCE_WORDS, type EngineCost } from "./engine.js";
import { backendTable, throughLlamaServer, type BackendRow } from "./llama-server.js";
import { onTopicCosts, onTopicVerdicts } from "./on-topic.js";
import { RawDecoder } from "./raw.js";
import { cutVerdict, lookupCosts, lookupVerdicts } from "./repeats.js";
import { BENCH_SPECS, ensureBenchModel } from "./shapes.js";
import { voiceCosts, voiceVerdicts } from "./voice.js";

/**
 * Runs and lengths: the engine's runs per sentence length, the articles' seeds and rounds (on the
 * shapes, 300- and 800-word articles, fewer rounds: each takes seconds).
 */
const S = QUICK
  ? { runs: 3, engineLength: 600, length: 300, seeds: [1], rounds: 1, pages: 200, shapeLengths: [300], shapeRounds: 1 }
  : { runs: 30, engineLength: 1500, length: 800, seeds: [1, 2, 3], rounds: 3, pages: 1000, shapeLengths: [300, 800], shapeRounds: 2 };
/** Seconds a thousand pages' audit may take. */
const AUDIT_SECONDS = 60;
/** Seconds `inkpress links` may take over a thousand pages, and the decay findings of `audit --search-console`. */
const HEALTH_SECONDS = { links: 60, decay: 1 } as const;
/** How much slower than the previous engine today's may be, and than raw decoding of the same tokens. */
const LIMIT = 1.05;
/** On a shape, per 300-word article: the most completion tokens, prompt tokens, and wall through llama-server ÷ llama-server alone. */
const SHAPE_GOALS = { length: 300, completion: 420, prompt: 300, llamaServer: 1.2 } as const;
/** Today's engine measured a second time, beside the first: the noise of the engine measurement. */
const AGAIN = "today, again";
/** The random-weight shapes the articles also run on (BENCH_SHAPES, comma-separated; `none`). */
const SHAPES = (process.env.BENCH_SHAPES ?? "smollm2").split(",").filter((name): name is keyof typeof BENCH_SPECS => name in BENCH_SPECS);
/** The fastest earlier engine on the shapes, compared beside the previous commit (BENCH_BASELINE; `none`). */
const BASELINE = process.env.BENCH_BASELINE ?? "d5f32b6";
/** Whether the shapes also run through llama-server (BENCH_LLAMA_SERVER=0 leaves it out; the first run builds it, about 7 minutes). */
const LLAMA_SERVER = process.env.BENCH_LLAMA_SERVER !== "0";

/** A model's articles on every engine, and on a shape its articles through llama-server. */
interface ModelAnswers {
  name: string;
  answers: Answers;
  backend?: BackendRow[];
}

/** Each model's articles on every engine, interleaved; the shapes add the baseline engine, raw decoding, both lengths and llama-server. */
async function articles(engines: Engine[], baseline: Engine | undefined): Promise<ModelAnswers[]> {
  log(`articles on ${path.basename(MODEL)}: ${S.seeds.length} seeds × ${S.rounds} rounds on each engine, interleaved`);
  const stories = await compare({
    engines,
    model: MODEL,
    requests: S.seeds.map((seed) => article(seed, S.length)),
    variants: [{ name: `${S.length} words`, fields: {} }],
    rounds: S.rounds,
  });
  const results: ModelAnswers[] = [{ name: path.basename(MODEL, ".gguf"), answers: stories }];
  for (const shape of SHAPES) {
    const file = (await ensureBenchModel(BENCH_SPECS[shape], undefined, log)).path;
    const on = baseline ? [...engines, baseline] : engines;
    log(
      `articles on ${shape}: ${S.seeds.length} seeds × ${S.shapeRounds} rounds × ${S.shapeLengths.join(" and ")} words on ${on.map((e) => e.name).join(", ")} and raw decoding`,
    );
    const raw = await RawDecoder.load(file);
    const answers = await compare({
      engines: on,
      model: file,
      requests: S.seeds.map((seed) => article(seed, S.shapeLengths[0]!)),
      variants: S.shapeLengths.map((length) => ({ name: `${length} words`, fields: { length } })),
      rounds: S.shapeRounds,
      raw,
    }).finally(() => raw.dispose());
    const backend = LLAMA_SERVER
      ? await throughLlamaServer(
          file,
          S.seeds.map((seed) => article(seed, SHAPE_GOALS.length)),
        )
      : undefined;
    results.push({ name: BENCH_SPECS[shape].id, answers, ...(backend ? { backend } : {}) });
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

/** How much today's own rounds of the same articles differed: the machine's noise beside a wall figure. */
const noise = (list: Kept[]) =>
  `today's rounds of one article differed by up to ${f((median(list.map((a) => a.spread)) - 1) * 100, 0)} % (median)`;

/** Today's articles on one model against another engine's, at each length: wall per article and completion tokens per body word. */
function articleVerdicts(answers: Answers, other: string | undefined, model: string, limit: number): Verdict[] {
  return [...answers.get("today")!].flatMap(([variant, today]) => {
    const before = other ? answers.get(other)?.get(variant) : undefined;
    const wallTarget = `wall per ${variant.replace(" words", "-word")} article, ${model}, today ÷ ${other ?? "previous"}`;
    const wordTarget = `completion tokens per body word, ${model}, ${variant}, today ÷ ${other ?? "previous"}`;
    if (!before) {
      const none = (target: string) => atMost(target, NaN, limit, `no ${other ?? "previous"} engine in this run`);
      return [none(wallTarget), none(wordTarget)];
    }
    const [t, p] = [totals(today), totals(before)];
    const r = ratios(today, before);
    const cut = sum(t.cut.map(([, n]) => n));
    const wall = `${f(r.wall)}× (${ms(t.wallPerArticle)} against ${ms(p.wallPerArticle)})`;
    return [
      atMost(wallTarget, r.wall, limit, `${wallWhy(r)}; ${noise(today)}`, wall),
      ...(other === RAW
        ? []
        : [
            atMost(
              wordTarget,
              r.perWord,
              limit,
              `today cut ${cut} of its ${t.completion} completion tokens${t.cut.length ? ` (most: ${t.cut[0]![0]} ${t.cut[0]![1]})` : ""}`,
              `${f(r.perWord)}× (${f(t.perWord)} against ${f(p.perWord)})`,
            ),
          ]),
    ];
  });
}

/** On a shape, per 300-word article: completion and prompt tokens in-process, and through llama-server its wall and prompt tokens. */
function shapeVerdicts(m: ModelAnswers): Verdict[] {
  const today = m.answers.get("today")!.get(`${SHAPE_GOALS.length} words`);
  if (!today || !m.answers.has(RAW)) return [];
  const perArticle = (xs: number[]) => sum(xs) / xs.length;
  const [completion, prompt] = [perArticle(today.map((a) => a.completionTokens)), perArticle(today.map((a) => a.promptTokens))];
  const each = (xs: number[]) => `each ${xs.join(", ")}`;
  const verdicts = [
    countAtMost(
      `completion tokens per 300-word article, ${m.name}`,
      completion,
      SHAPE_GOALS.completion,
      each(today.map((a) => a.completionTokens)),
    ),
    countAtMost(
      `prompt tokens per 300-word article, in-process, ${m.name}`,
      prompt,
      SHAPE_GOALS.prompt,
      each(today.map((a) => a.promptTokens)),
    ),
  ];
  if (!m.backend) return verdicts;
  const b = m.backend;
  const ratio = median(b.map((r) => r.servedMs / r.aloneMs));
  const evaluated = median(b.map((r) => r.evaluated));
  return [
    ...verdicts,
    atMost(
      `wall per 300-word article through llama-server ÷ llama-server alone, same tokens, ${m.name}`,
      ratio,
      SHAPE_GOALS.llamaServer,
      `median of ${b.length}; ${b.map((r) => f(r.servedMs / r.aloneMs)).join(", ")}; llama-server spent ${f(median(b.map((r) => (r.generateS * 1000) / r.servedMs)) * 100, 0)} % of the wall generating`,
    ),
    countAtMost(
      `prompt tokens llama-server evaluates per 300-word article, ${m.name}`,
      evaluated,
      SHAPE_GOALS.prompt,
      `median; ${each(b.map((r) => r.evaluated))} (inkpress counts ${b.map((r) => r.counted).join(", ")})`,
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

/** `links` and the decay findings against their goals, scaled to the pages. */
function healthVerdicts(h: SiteHealthFigures): Verdict[] {
  const scale = h.pages / 1000;
  return [
    {
      target: `inkpress links over ${h.pages} pages of about 1,000 words (read, rank, place), wall`,
      goal: `< ${HEALTH_SECONDS.links * scale} s`,
      value: `${f(h.linksS, 1)} s`,
      met: h.linksS < HEALTH_SECONDS.links * scale,
      why: `${f(h.linksCpuS, 1)} s of CPU, one thread; ${h.proposals} links proposed`,
    },
    {
      target: `inkpress audit --search-console: the decay of ${h.pages} pages' export (read, matched, flagged), wall`,
      goal: `< ${HEALTH_SECONDS.decay * scale} s`,
      value: `${f(h.decayS, 2)} s`,
      met: h.decayS < HEALTH_SECONDS.decay * scale,
      why: `${h.decayed} pages decaying; on top of the audit's own time above`,
    },
  ];
}

if (!existsSync(MODEL)) throw new Error(`no model at ${MODEL}: set BENCH_MODEL to a GGUF file`);
const previous = previousCommit();
const engines: Engine[] = [{ name: "today", root: ROOT }, ...(previous ? [{ name: previous, root: checkout(previous) }] : [])];
const baseline: Engine | undefined = BASELINE === "none" || !SHAPES.length ? undefined : { name: BASELINE, root: checkout(BASELINE) };
log(`engine time per token: ${engines.map((e) => e.name).join(" against ")}, ${S.runs} runs per sentence length`);
const costs = await engineCost({ engines: [...engines, { name: AGAIN, root: ROOT }], runs: S.runs, length: S.engineLength });
const models = await articles(engines, baseline);
log("the sentence gate's repeat lookup, whole and near, on README sentences");
const lookups = lookupCosts();
log("the on-topic check: the word-vector cache's load and the check's CPU per 1,000 words");
const onTopic = onTopicCosts();
log("a house voice: the same articles with and without one, on the bench's model and the ChatML test model");
const voice = await voiceCosts();
log(`inkpress audit over ${S.pages} pages of about 1,000 words`);
const audit = await auditTime({ pages: S.pages, words: 1000 });
log(`inkpress links and audit --search-console's decay over ${S.pages} pages`);
const health = await siteHealthTime({ pages: S.pages, words: 1000 });
writeReport({
  name: "BENCHMARKS",
  command: "npm run bench",
  previous,
  verdicts: [
    ...engineVerdicts(costs, previous),
    ...models.flatMap((m) => [
      ...articleVerdicts(m.answers, previous, m.name, LIMIT),
      ...(m.answers.has(BASELINE) ? articleVerdicts(m.answers, BASELINE, m.name, 1) : []),
      ...(m.answers.has(RAW) ? articleVerdicts(m.answers, RAW, m.name, LIMIT) : []),
      ...shapeVerdicts(m),
    ]),
    ...lookupVerdicts(lookups),
    ...onTopicVerdicts(onTopic),
    ...voiceVerdicts(voice),
    ...models.slice(0, 1).map((m) => {
      const t = totals([...m.answers.get("today")!.values()].flat());
      return cutVerdict(m.name, t.cut, t.completion);
    }),
    auditVerdict(audit),
    ...healthVerdicts(health),
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
      `\`inkpress serve --threads 1 --sequences 1\` of each engine, all up at once; ${S.seeds.length} seed(s), each request ${m.backend ? S.shapeRounds : S.rounds} time(s) on each engine in turn, its quickest counting; wall is the client's, request to the whole JSON answer.${m.answers.has(RAW) ? ` \`${RAW}\`: the article's prompt, then as many tokens as today's article, on today's runtime in the bench's process (scripts/bench/raw.ts), right after it.` : ""}`,
      "",
      answersTable(m.answers),
      "",
      ...(m.backend
        ? [
            `Through llama-server (\`serve --backend\`, scripts/bench/llama-server.ts), ${SHAPE_GOALS.length} words:`,
            "",
            backendTable(m.backend),
            "",
          ]
        : []),
    ]),
    "## Auditing a site",
    "",
    `\`inkpress audit\`'s work in-process (worker threads as the CLI starts them) over ${audit.pages} Markdown pages of about ${audit.words} words built from README prose in node_modules, front matter and links between pages (scripts/bench/audit.ts).`,
    "",
  ],
});
