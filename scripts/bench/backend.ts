/**
 * `npm run bench:backend`: what inkpress costs in front of llama-server (`serve --backend`),
 * on a real llama-server built by scripts/build-llama-server.sh, one slot, both processes on
 * this machine's cores. Per seed: one article through inkpress, then llama-server alone
 * generating as many tokens after the same prompt (`/completion`, `ignore_eos`, the service's
 * sampling), and the prompt tokens llama-server evaluated for the article (its `/metrics`).
 * Writes BENCHMARKS-backend.md; under a minute on 2 idle cores once llama-server is built.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { plan } from "../../src/article/plan/plan.js";
import { articlePrompt } from "../../src/article/plan/prompts.js";
import { GenerateRequestSchema } from "../../src/article/wire/request.js";
import { LLAMA_SERVER_SAMPLING } from "../../src/model/sampling.js";
import { defaultThreads } from "../../src/setting-parsers.js";
import { generate, serve, spawnServer, type Server } from "./checkout.js";
import { article, atMost, f, log, median, MODEL, ms, QUICK, ROOT, table, writeReport } from "./common.js";

const S = QUICK ? { length: 150, seeds: [42] } : { length: 300, seeds: [42, 43, 44, 45, 46] };
/** The slowdown inkpress may add to llama-server's own time for the same tokens. */
const LIMIT = 1.05;

/** llama-server on a free port with one slot of 4,096 tokens, once its model is loaded. */
async function llamaServer(): Promise<Server> {
  const binary = execFileSync(path.join(ROOT, "scripts/build-llama-server.sh"), {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
    .trim()
    .split("\n")
    .at(-1)!;
  // stories260K ends a story with BOS (id 1) and never writes its EOS.
  const eos = /stories260K/i.test(MODEL) ? ["--override-kv", "tokenizer.ggml.eos_token_id=int:1"] : [];
  const server = await spawnServer({
    command: binary,
    args: [
      "-m",
      MODEL,
      "--host",
      "127.0.0.1",
      "--port",
      "0",
      "--parallel",
      "1",
      "-c",
      "4096",
      "-t",
      String(defaultThreads()),
      "--metrics",
      ...eos,
    ],
  });
  for (
    const deadline = Date.now() + 120_000;
    !(await fetch(`${server.url}/health`).then(
      (r) => r.ok,
      () => false,
    ));
    await new Promise((r) => setTimeout(r, 100))
  ) {
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`llama-server did not load ${MODEL} in 2 minutes: ${server.output().slice(-2000)}`);
    }
  }
  return server;
}

/** llama-server's prompt tokens evaluated and seconds spent generating, since it started. */
async function counters(llama: Server): Promise<{ promptTokens: number; generateS: number }> {
  const text = await (await fetch(`${llama.url}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^llamacpp:${name} (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
  return { promptTokens: read("prompt_tokens_total"), generateS: read("tokens_predicted_seconds_total") };
}

/** llama-server alone: the article's prompt as inkpress words it, then exactly `tokens` tokens. */
async function alone(llama: Server, { seed, tokens, prompting }: { seed: number; tokens: number; prompting: string }): Promise<number> {
  const request = GenerateRequestSchema["~standard"].validate(article(seed, S.length));
  if (request instanceof Promise || request.issues) throw new Error("the bench article is not a valid request");
  const { system, user, completion } = articlePrompt(plan(request.value), "json");
  const post = async (route: string, body: unknown) =>
    (
      await fetch(`${llama.url}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    ).json() as Promise<Record<string, unknown>>;
  const prompt =
    prompting === "completion"
      ? completion
      : (
          await post("/apply-template", {
            messages: [
              { role: "system", content: system },
              { role: "user", content: user },
            ],
          })
        ).prompt;
  const t0 = performance.now();
  const answer = await post("/completion", {
    prompt,
    n_predict: tokens,
    ignore_eos: true,
    cache_prompt: false,
    seed,
    ...LLAMA_SERVER_SAMPLING,
  });
  if (answer.tokens_predicted !== tokens)
    throw new Error(`llama-server generated ${String(answer.tokens_predicted)} tokens, not ${tokens}`);
  return performance.now() - t0;
}

if (!existsSync(MODEL)) throw new Error(`no model at ${MODEL}: set BENCH_MODEL to a GGUF file`);
const llama = await llamaServer();
const inkpress = await serve(ROOT, ["--backend", llama.url]);
const rows: Array<{
  seed: number;
  servedMs: number;
  aloneMs: number;
  tokens: number;
  evaluated: number;
  counted: number;
  generateS: number;
}> = [];
try {
  const { prompting } = (await (await fetch(`${inkpress.url}/healthz`)).json()) as { prompting: string };
  await generate(inkpress, article(1, 100)); // warm-up
  for (const seed of S.seeds) {
    const before = await counters(llama);
    const served = await generate(inkpress, article(seed, S.length));
    const after = await counters(llama);
    const aloneMs = await alone(llama, { seed, tokens: served.completionTokens, prompting });
    rows.push({
      seed,
      servedMs: served.wallMs,
      aloneMs,
      tokens: served.completionTokens,
      evaluated: after.promptTokens - before.promptTokens,
      counted: served.promptTokens,
      generateS: after.generateS - before.generateS,
    });
    log(`seed ${seed}: ${served.completionTokens} tokens, inkpress ${ms(served.wallMs)}, llama-server alone ${ms(aloneMs)}`);
  }
} finally {
  await inkpress.stop();
  await llama.stop();
}
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
    table(
      [
        "seed",
        "completion tokens",
        "through inkpress",
        "llama-server alone",
        "ratio",
        "prompt tokens evaluated (inkpress counts)",
        "llama-server generating",
      ],
      rows.map((r) => [
        String(r.seed),
        String(r.tokens),
        ms(r.servedMs),
        ms(r.aloneMs),
        f(r.servedMs / r.aloneMs),
        `${r.evaluated} (${r.counted})`,
        ms(r.generateS * 1000),
      ]),
    ),
    "",
  ],
});
