/**
 * inkpress in front of llama-server (`serve --backend`) against llama-server alone, on a real
 * llama-server built by scripts/build-llama-server.sh, one slot, both processes on this
 * machine's cores. Per request: one article through inkpress, then llama-server alone
 * generating as many tokens after the same prompt (`/completion`, `ignore_eos`, the service's
 * sampling), and the prompt tokens llama-server evaluated for the article (its `/metrics`).
 * `npm run bench:backend` and `npm run bench` (on the shapes) both run it.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { plan } from "../../src/article/plan/plan.js";
import { articlePrompt } from "../../src/article/plan/prompts.js";
import { GenerateRequestSchema } from "../../src/contract/request.js";
import { LLAMA_SERVER_SAMPLING } from "../../src/model/sampling.js";
import { defaultThreads } from "../../src/setting-parsers.js";
import { startOllamaStandIn } from "../ollama-stand-in.js";
import { generate, serve, spawnServer, type Server } from "./checkout.js";
import { f, log, ms, ROOT, table } from "./common.js";

/** One article through inkpress and llama-server, and its tokens alone. */
export interface BackendRow {
  seed: number;
  servedMs: number;
  aloneMs: number;
  tokens: number;
  /** Prompt tokens llama-server evaluated for the article. */
  evaluated: number;
  /** Prompt tokens inkpress counted. */
  counted: number;
  generateS: number;
  /** Seconds llama-server spent evaluating prompt tokens for the article. */
  promptS: number;
}

/**
 * Each request through inkpress in front of llama-server on `model`, each followed at once by its
 * tokens on llama-server alone. `via: "ollama"` puts the Ollama stand-in (scripts/ollama-stand-in.ts)
 * between them: inkpress then speaks Ollama's API, and the alone run is still llama-server's.
 */
export async function throughLlamaServer(
  model: string,
  requests: object[],
  via: "llama-server" | "ollama" = "llama-server",
): Promise<BackendRow[]> {
  const llama = await llamaServer(model);
  const standIn = via === "ollama" ? await startOllamaStandIn({ llama }) : undefined;
  const inkpress = await serve(ROOT, ["--backend", standIn?.url ?? llama.url]);
  const rows: BackendRow[] = [];
  try {
    const { prompting } = (await (await fetch(`${inkpress.url}/healthz`)).json()) as { prompting: string };
    await generate(inkpress, { ...requests[0], length: 100 }); // warm-up
    for (const body of requests) {
      const before = await counters(llama);
      const served = await generate(inkpress, body);
      const after = await counters(llama);
      const aloneMs = await alone(llama, { body, tokens: served.completionTokens, prompting });
      const seed = Number((body as { seed?: number }).seed);
      rows.push({
        seed,
        servedMs: served.wallMs,
        aloneMs,
        tokens: served.completionTokens,
        evaluated: after.promptTokens - before.promptTokens,
        counted: served.promptTokens,
        generateS: after.generateS - before.generateS,
        promptS: after.promptS - before.promptS,
      });
      log(`seed ${seed}: ${served.completionTokens} tokens, through ${via} ${ms(served.wallMs)}, llama-server alone ${ms(aloneMs)}`);
    }
  } finally {
    await inkpress.stop();
    await standIn?.stop();
    await llama.stop();
  }
  return rows;
}

/** llama-server on a free port with one slot of 4,096 tokens, once its model is loaded. */
async function llamaServer(model: string): Promise<Server> {
  const binary = execFileSync(path.join(ROOT, "scripts/build-llama-server.sh"), {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  })
    .trim()
    .split("\n")
    .at(-1)!;
  // stories260K ends a story with BOS (id 1) and never writes its EOS.
  const eos = /stories260K/i.test(model) ? ["--override-kv", "tokenizer.ggml.eos_token_id=int:1"] : [];
  const server = await spawnServer({
    command: binary,
    args: [
      "-m",
      model,
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
      throw new Error(`llama-server did not load ${model} in 2 minutes: ${server.output().slice(-2000)}`);
    }
  }
  return server;
}

/** llama-server's prompt tokens evaluated and seconds spent generating, since it started. */
async function counters(llama: Server): Promise<{ promptTokens: number; generateS: number; promptS: number }> {
  const text = await (await fetch(`${llama.url}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^llamacpp:${name} (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
  return {
    promptTokens: read("prompt_tokens_total"),
    generateS: read("tokens_predicted_seconds_total"),
    promptS: read("prompt_seconds_total"),
  };
}

/** llama-server alone: the article's prompt as inkpress words it, then exactly `tokens` tokens. */
async function alone(llama: Server, { body, tokens, prompting }: { body: object; tokens: number; prompting: string }): Promise<number> {
  const seed = Number((body as { seed?: number }).seed ?? 1);
  const request = GenerateRequestSchema["~standard"].validate(body);
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

/** A row per article: its tokens, its wall through inkpress and alone, and the prompt tokens llama-server evaluated. */
export function backendTable(rows: BackendRow[]): string {
  return table(
    [
      "seed",
      "completion tokens",
      "through inkpress",
      "llama-server alone",
      "ratio",
      "prompt tokens evaluated (inkpress counts)",
      "llama-server generating",
      "llama-server evaluating prompts",
    ],
    rows.map((r) => [
      String(r.seed),
      String(r.tokens),
      ms(r.servedMs),
      ms(r.aloneMs),
      f(r.servedMs / r.aloneMs),
      `${r.evaluated} (${r.counted})`,
      ms(r.generateS * 1000),
      ms(r.promptS * 1000),
    ]),
  );
}
