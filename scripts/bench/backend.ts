/**
 * `npm run bench:backend`: what inkpress costs in front of llama-server (`serve --backend`) on
 * BENCH_MODEL (default stories260K), 300-word articles at five seeds (scripts/bench/llama-server.ts),
 * then the same through the Ollama stand-in (Ollama's API in front of the same llama-server).
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
/**
 * The same through Ollama's API: every step's grammar is compiled again from its format schema,
 * and the text after a format answer's quote is evaluated again (the cache held the quote).
 */
const OLLAMA_LIMIT = 2;
/** What refusing ten phrases by cutting and asking again may cost a token on Ollama. */
const BANS_LIMIT = 1.25;

if (!existsSync(MODEL)) throw new Error(`no model at ${MODEL}: set BENCH_MODEL to a GGUF file`);
const rows = await throughLlamaServer(
  MODEL,
  S.seeds.map((seed) => article(seed, S.length)),
);
const ratio = median(rows.map((r) => r.servedMs / r.aloneMs));
const evaluated = median(rows.map((r) => r.evaluated));
const ollama = await throughLlamaServer(
  MODEL,
  S.seeds.map((seed) => article(seed, S.length)),
  "ollama",
);
/** stories260K's ten favourite phrases: refused on Ollama by cutting and asking again under a grammar that refuses the word. */
const BANNED = ["little girl", "once upon", "very happy", "big tree", "the park", "her mom", "a time", "lily", "said", "wanted to"];
const banned = await throughLlamaServer(
  MODEL,
  S.seeds.map((seed) => article(seed, S.length, { style: { avoid: BANNED } })),
  "ollama",
);
const perToken = (rows: typeof ollama) => median(rows.map((r) => r.servedMs / r.tokens));
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
    atMost(
      `wall per ${S.length}-word article through Ollama's API (the stand-in) ÷ llama-server alone, same tokens`,
      median(ollama.map((r) => r.servedMs / r.aloneMs)),
      OLLAMA_LIMIT,
      `median of ${ollama.length}; llama-server behind the stand-in evaluated ${median(ollama.map((r) => r.evaluated))} prompt tokens an article (inkpress estimates ${median(ollama.map((r) => r.counted))} from text)`,
    ),
    atMost(
      `time per completion token through Ollama's API with ten banned phrases ÷ without`,
      perToken(banned) / perToken(ollama),
      BANS_LIMIT,
      `medians of ${banned.length}; ${median(banned.map((r) => r.tokens))} completion tokens an article with the bans, ${median(ollama.map((r) => r.tokens))} without`,
    ),
  ],
  sections: [
    `## inkpress → llama-server against llama-server alone (${path.basename(MODEL)}, 1 slot, \`-t ${defaultThreads()}\`)`,
    "",
    "Each article is followed at once by its alone run: one `/completion` call with the prompt inkpress writes first and `n_predict` set to the article's completion tokens. Prompt tokens evaluated: llama-server's `llamacpp:prompt_tokens_total` over the article.",
    "",
    backendTable(rows),
    "",
    "## inkpress → Ollama's API (the stand-in) → the same llama-server, against llama-server alone",
    "",
    "No Ollama can be installed here: `scripts/ollama-stand-in.ts` serves Ollama's `/api/generate` (raw, NDJSON, `format` schemas) in front of the llama-server, which keeps the shared prefix in its cache as Ollama's runner does. Prompt tokens evaluated: llama-server's own count; inkpress's is estimated from text (Ollama's `prompt_eval_count` holds cached tokens too).",
    "",
    backendTable(ollama),
    "",
    "## The same through Ollama's API, with ten banned phrases",
    "",
    backendTable(banned),
    "",
  ],
});
