/**
 * `npm run bench:backend`: what inkpress costs in front of llama-server (`serve --backend`) on
 * BENCH_MODEL (default stories260K), 300-word articles at five seeds (scripts/bench/llama-server.ts).
 * Writes BENCHMARKS-backend.md; under a minute on 2 idle cores once llama-server is built.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { defaultThreads } from "../../src/setting-parsers.js";
import { article, atMost, f, median, MODEL, QUICK, writeReport } from "./common.js";
import { backendTable, throughLlamaServer } from "./llama-server.js";

const S = QUICK ? { length: 150, seeds: [42] } : { length: 300, seeds: [42, 43, 44, 45, 46] };
/** The slowdown inkpress may add to llama-server's own time for the same tokens. */
const LIMIT = 1.2;

if (!existsSync(MODEL)) throw new Error(`no model at ${MODEL}: set BENCH_MODEL to a GGUF file`);
const rows = await throughLlamaServer(
  MODEL,
  S.seeds.map((seed) => article(seed, S.length)),
);
const ratio = median(rows.map((r) => r.servedMs / r.aloneMs));
const evaluated = median(rows.map((r) => r.evaluated));
writeReport({
  name: "BENCHMARKS-backend",
  command: "npm run bench:backend",
  previous: undefined,
  verdicts: [
    atMost(
      `wall per ${S.length}-word article through llama-server ÷ llama-server alone, same tokens`,
      ratio,
      LIMIT,
      `median of ${rows.length}; llama-server evaluated ${evaluated} prompt tokens an article (inkpress counts ${median(rows.map((r) => r.counted))}) and spent ${f(median(rows.map((r) => (r.generateS * 1000) / r.servedMs)) * 100, 0)} % of the wall generating`,
    ),
  ],
  sections: [
    `## inkpress → llama-server against llama-server alone (${path.basename(MODEL)}, 1 slot, \`-t ${defaultThreads()}\`)`,
    "",
    "Each article is followed at once by its alone run: one `/completion` call with the prompt inkpress writes first and `n_predict` set to the article's completion tokens. Prompt tokens evaluated: llama-server's `llamacpp:prompt_tokens_total` over the article.",
    "",
    backendTable(rows),
    "",
  ],
});
