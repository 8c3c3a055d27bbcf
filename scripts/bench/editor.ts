/**
 * `npm run bench:editor`: what banned phrases cost. The same requests without `style.avoid` and
 * with 100 phrases (the ten stories260K writes most among them, so the bans are met and
 * refused, not only matched), on today's engine and the previous commit's (BENCH_PREVIOUS),
 * every series interleaved in one run (scripts/bench/compare.ts): wall per article and
 * completion tokens per body word. Writes BENCHMARKS-editor.md; about 3 minutes on 2 idle cores
 * once the previous commit is installed (BENCH_QUICK=1: under a minute).
 */
import { existsSync } from "node:fs";
import { checkout } from "./checkout.js";
import { article, atMost, f, log, MODEL, previousCommit, QUICK, ROOT, writeReport, type Verdict } from "./common.js";
import { answersTable, compare, ratios, totals, wallWhy, type Answers, type Engine } from "./compare.js";

const TOPICS = [
  { topic: "Home composting", seo: { keywords: "compost bin, kitchen scraps" } },
  { topic: "Cast iron cooking", seo: { keywords: "cast iron skillet, seasoning" } },
  { topic: "Choosing running shoes", seo: { keywords: "running shoes, arch support" } },
  { topic: "Birdwatching for beginners", seo: { keywords: "bird feeder, binoculars" } },
];
const S = QUICK
  ? { topics: TOPICS.slice(0, 1), seeds: [1], rounds: 1, length: 300 }
  : { topics: TOPICS, seeds: [1, 2, 3], rounds: 3, length: 600 };
/** 100 phrases to avoid: the ten stories260K writes most, then ninety it never writes. */
const AVOID = [
  "once upon a time",
  "so happy",
  "Lily",
  "very happy",
  "one day",
  "big tree",
  "the end",
  "her mom",
  "his mom",
  "played together",
  ...Array.from({ length: 90 }, (_, i) => `rarely written phrase ${i}`),
];
/** The ceiling on what the bans may cost, as a share of wall per article. */
const LIMIT = 1.05;
const FREE = "no banned phrases";
const BANNED = "100 banned phrases";

/** What the bans cost each engine, and today's banned articles against the previous engine's. */
function verdicts(answers: Answers, previous: string | undefined): Verdict[] {
  const out = [...answers].map(([engine, series]) => {
    const r = ratios(series.get(BANNED)!, series.get(FREE)!);
    const t = totals(series.get(BANNED)!);
    const refused = t.cut.filter(([reason]) => /ban/i.test(reason)).map(([reason, n]) => `${reason} ${n}`);
    return atMost(
      `wall per article, ${BANNED} ÷ none, ${engine}`,
      r.wall,
      LIMIT,
      `${wallWhy(r)}${refused.length ? `; refusals cut ${refused.join(", ")} tokens` : ""}`,
    );
  });
  const before = previous && answers.get(previous)!.get(BANNED)!;
  const r = before ? ratios(answers.get("today")!.get(BANNED)!, before) : undefined;
  out.push(
    atMost(
      `wall per article with ${BANNED}, today ÷ ${previous ?? "previous"}`,
      r?.wall ?? NaN,
      LIMIT,
      r ? `${wallWhy(r)}; ${f(r.perWord)}× the completion tokens per body word` : "no previous engine in this run",
    ),
  );
  return out;
}

if (!existsSync(MODEL)) throw new Error(`no model at ${MODEL}: set BENCH_MODEL to a GGUF file`);
const previous = previousCommit();
const engines: Engine[] = [{ name: "today", root: ROOT }, ...(previous ? [{ name: previous, root: checkout(previous) }] : [])];
const requests = S.topics.flatMap((t) => S.seeds.map((seed) => article(seed, S.length, t)));
log(
  `banned phrases: ${requests.length} requests × ${S.rounds} rounds × 2 series on ${engines.map((e) => e.name).join(" and ")}, interleaved`,
);
const answers = await compare({
  engines,
  model: MODEL,
  requests,
  rounds: S.rounds,
  variants: [
    { name: FREE, fields: { style: { cliches: false } } },
    { name: BANNED, fields: { style: { avoid: AVOID, cliches: false } } },
  ],
});
writeReport({
  name: "BENCHMARKS-editor",
  command: "npm run bench:editor",
  previous,
  verdicts: verdicts(answers, previous),
  sections: [
    "## Banned phrases",
    "",
    `${requests.length} requests of ${S.length} words (${S.topics.length} topic(s) × ${S.seeds.length} seed(s)), \`style.cliches: false\` in both series; each request ${S.rounds} time(s) in each series on each engine in turn, its quickest counting.`,
    "",
    answersTable(answers),
    "",
  ],
});
