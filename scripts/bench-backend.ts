/**
 * `npm run bench:backend`: inkpress writing with an inference server (`serve --backend`) on a
 * real llama-server (built by scripts/build-llama-server.sh), on the random-weight model with
 * SmolLM2-135M-Instruct's exact shapes (scripts/bench-models.ts) and on the real stories260K
 * (../shared/models/stories260K.gguf, when present). Writes BENCHMARKS-backend.md.
 *
 *  (1) Overhead: a 300-word article through inkpress → llama-server (1 slot), against
 *      llama-server alone generating the same number of tokens after the same prompt
 *      (`/completion`, `ignore_eos`), interleaved: what the engine's steps, re-sent prompts and
 *      HTTP cost; and the prompt tokens llama-server evaluates for the article (its `/metrics`).
 *  (2) Throughput: articles per hour with 1, 2 and 4 concurrent clients on a 4-slot
 *      llama-server (inkpress takes the server's 4 slots as its sequences).
 *
 * Both processes share this machine's cores, as they would on one host. Threads: the
 * in-process default (src/config.ts) for llama-server's decoding. Keeps under about
 * 8 minutes on 2 cores. Env: BENCH_QUICK=1 (short counts, writes to the temp folder),
 * BENCH_OUT=path, BENCH_SECTIONS=overhead (the overhead rows and targets only, no throughput).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { plan } from "../src/article/plan/plan.js";
import { articlePrompt } from "../src/article/plan/prompts.js";
import { GenerateRequestSchema } from "../src/article/wire/request.js";
import { defaultThreads } from "../src/setting-parsers.js";
import { LLAMA_SERVER_SAMPLING } from "../src/model/sampling.js";
import { collectSse, fetchSse } from "../src/http/pages/client/sse.js";
import { BENCH_DIR, SMOLLM2_135M, benchArticle, ensureBenchModel } from "./bench-models.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const QUICK = process.env.BENCH_QUICK === "1";
const OUT = process.env.BENCH_OUT ?? (QUICK ? path.join(BENCH_DIR, "BENCHMARKS-backend.quick.md") : path.join(ROOT, "BENCHMARKS-backend.md"));
const API_KEY = "bench-key-0123456789";
const THREADS = defaultThreads();
/** Tokens per slot, as the in-process runtime gives a sequence. */
const SLOT_CONTEXT = 4096;
/** Article lengths in words; the throughput rows write `articles` at each concurrency, shared out among the clients. */
const S = QUICK ? { length: 150, throughputLength: 100, overheadRuns: 1, storiesRuns: 2, articles: 4 } : { length: 300, throughputLength: 150, overheadRuns: 3, storiesRuns: 5, articles: 4 };
const STORIES = path.resolve(ROOT, "../shared/models/stories260K.gguf");
/** Issue 21's targets for the remote path. */
const TARGETS = { smollm2Ratio: 1.2, storiesRatio: 1.05, promptTokens: 300 };

const article = (seed: number, length = S.length) => benchArticle(seed, length);

const log = (line: string) => process.stderr.write(`bench:backend: ${line}\n`);
/** The middle value (the mean of the two middle ones for an even count). */
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return Number.isInteger(mid) ? (sorted[mid - 1]! + sorted[mid]!) / 2 : sorted[Math.floor(mid)]!;
};
const fixed = (n: number, digits = 1) => n.toFixed(digits);

// --- processes ----------------------------------------------------------------------------

interface Process {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
}

/** A model the overhead is measured on: its file, how llama-server must load it, and how many articles. */
interface Subject {
  label: string;
  path: string;
  /** More llama-server arguments. */
  args: string[];
  runs: number;
}

async function startLlamaServer(model: string, slots: number, args: string[] = []): Promise<Process> {
  const binary = execFileSync(path.join(ROOT, "scripts/build-llama-server.sh"), { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
    .trim()
    .split("\n")
    .at(-1)!;
  const port = 18_000 + Math.floor(Math.random() * 2000);
  const child = spawn(
    binary,
    ["-m", model, "--host", "127.0.0.1", "--port", String(port), "--parallel", String(slots), "-c", String(SLOT_CONTEXT * slots), "-t", String(THREADS), "--metrics", ...args],
    { stdio: "ignore" },
  );
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`llama-server exited with ${child.exitCode}`);
    if (await fetch(`${url}/health`).then((r) => r.ok, () => false)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child, stop: stopper(child) };
}

/** llama-server's counters since it started (`/metrics`): prompt tokens evaluated, and seconds spent on prompts and on generating. */
interface Counters {
  promptTokens: number;
  promptS: number;
  generateS: number;
  decodes: number;
}

async function counters(llama: string): Promise<Counters> {
  const text = await (await fetch(`${llama}/metrics`)).text();
  const read = (name: string) => Number(new RegExp(`^llamacpp:${name} (\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  return { promptTokens: read("prompt_tokens_total"), promptS: read("prompt_seconds_total"), generateS: read("tokens_predicted_seconds_total"), decodes: read("n_decode_total") };
}

const since = (before: Counters, after: Counters): Counters => ({
  promptTokens: after.promptTokens - before.promptTokens,
  promptS: after.promptS - before.promptS,
  generateS: after.generateS - before.generateS,
  decodes: after.decodes - before.decodes,
});

async function startInkpress(backend: string): Promise<Process> {
  const tsx = pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("INKPRESS_")));
  const child = spawn(process.execPath, ["--import", tsx, path.join(ROOT, "src/cli/main.ts"), "serve", "--backend", backend, "--port", "0"], {
    cwd: ROOT,
    env: {
      ...env,
      INKPRESS_API_KEYS: API_KEY,
      INKPRESS_KEYS_FILE: path.join(BENCH_DIR, `keys-${process.pid}`, "keys.json"),
      // A data folder of its own: another server on the checkout's would refuse it.
      INKPRESS_DATA_DIR: await mkdtemp(path.join(BENCH_DIR, "data-")),
      NO_COLOR: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d;
      const match = output.match(/listening on (http:\/\/\S+)/);
      if (match && /model .* loaded/.test(output)) resolve(match[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`inkpress exited with ${code}: ${output}`)));
  });
  child.stdout!.resume();
  return { url, child, stop: stopper(child) };
}

// --- measurements -------------------------------------------------------------------------

interface Written {
  wallMs: number;
  firstDeltaMs: number;
  promptTokens: number;
  completionTokens: number;
}

/** One article over SSE: wall to `done`, time to the first delta, usage. */
async function write(inkpress: string, body: unknown): Promise<Written> {
  const started = performance.now();
  const { response, events } = await fetchSse(`${inkpress}/api/v1/generate`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": API_KEY, accept: "text/event-stream" },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`inkpress answered ${response.status}: ${await response.text()}`);
  const all = await collectSse(events);
  const done = all.at(-1)!;
  if (done.event !== "done") throw new Error(`the stream ended with ${done.event}: ${done.data}`);
  const { usage } = JSON.parse(done.data) as { usage: { promptTokens: number; completionTokens: number } };
  const firstDelta = all.find((e) => e.event === "delta")!;
  return { wallMs: done.receivedAt - started, firstDeltaMs: firstDelta.receivedAt - started, ...usage };
}

/** llama-server alone: the article's prompt as inkpress sends it, then exactly `tokens` tokens with the service's sampling. */
async function raw(
  llama: string,
  { seed, tokens, prompting }: { seed: number; tokens: number; prompting: "chat-template" | "completion" },
): Promise<{ wallMs: number; promptTokens: number; promptMs: number; decodeMs: number }> {
  const request = GenerateRequestSchema["~standard"].validate(article(seed));
  if (request instanceof Promise || request.issues) throw new Error("the bench article is not a valid request");
  const { system, user, completion } = articlePrompt(plan(request.value), "json");
  const post = async (route: string, body: unknown) =>
    (await fetch(`${llama}${route}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })).json() as Promise<any>;
  const prompt =
    prompting === "completion" ? completion : (await post("/apply-template", { messages: [{ role: "system", content: system }, { role: "user", content: user }] })).prompt;
  const started = performance.now();
  const answer = await post("/completion", {
    prompt,
    n_predict: tokens,
    ignore_eos: true,
    cache_prompt: false,
    seed,
    ...LLAMA_SERVER_SAMPLING,
  });
  if (answer.tokens_predicted !== tokens) throw new Error(`llama-server generated ${answer.tokens_predicted} tokens, not ${tokens}`);
  return { wallMs: performance.now() - started, promptTokens: answer.timings.prompt_n, promptMs: answer.timings.prompt_ms, decodeMs: answer.timings.predicted_ms };
}

/** What the overhead rows found on one model, for the targets table. */
interface Overhead {
  lines: string[];
  ratio: number;
  evaluated: number;
}

async function overhead(subject: Subject): Promise<Overhead> {
  const llama = await startLlamaServer(subject.path, 1, subject.args);
  const inkpress = await startInkpress(llama.url);
  try {
    const { prompting } = (await (await fetch(`${inkpress.url}/healthz`)).json()) as { prompting: "chat-template" | "completion" };
    await write(inkpress.url, { ...article(1), length: 100 }); // warm-up
    const rows: { served: Written; server: Counters; alone: Awaited<ReturnType<typeof raw>> }[] = [];
    for (let run = 0; run < subject.runs; run++) {
      const seed = 42 + run;
      const before = await counters(llama.url);
      const served = await write(inkpress.url, article(seed));
      const server = since(before, await counters(llama.url));
      const alone = await raw(llama.url, { seed, tokens: served.completionTokens, prompting });
      log(`${subject.label} run ${run + 1}: ${served.completionTokens} tokens, inkpress ${fixed(served.wallMs / 1000, 2)} s, llama-server alone ${fixed(alone.wallMs / 1000, 2)} s; prompt tokens ${server.promptTokens}`);
      rows.push({ served, server, alone });
    }
    const tokens = Math.round(median(rows.map((r) => r.served.completionTokens)));
    const servedS = median(rows.map((r) => r.served.wallMs)) / 1000;
    const aloneS = median(rows.map((r) => r.alone.wallMs)) / 1000;
    const ratios = rows.map((r) => r.served.wallMs / r.alone.wallMs);
    const evaluated = median(rows.map((r) => r.server.promptTokens));
    const promptS = median(rows.map((r) => r.server.promptS));
    const generateS = median(rows.map((r) => r.server.generateS));
    const lines = [
      `### Overhead on ${subject.label}: one ${S.length}-word article, inkpress → llama-server against llama-server alone`,
      "",
      `Median of ${rows.length} article${rows.length === 1 ? "" : "s"} (seeds 42…${41 + rows.length}), 1 slot, after a warm-up article; each article followed at once by its "alone" run. "Alone" is one \`/completion\` call with the same prompt (${prompting === "completion" ? "the plain completion prompt, as inkpress sends it" : "the chat template applied by llama-server"}) and \`n_predict\` set to the article's completion tokens, \`ignore_eos\`, the service's sampling. Prompt tokens evaluated: llama-server's own count (\`llamacpp:prompt_tokens_total\` in its \`/metrics\`) over the article; inkpress's \`usage.promptTokens\` beside it.`,
      "",
      "| | wall | completion tokens | tokens/s | prompt tokens evaluated | first Markdown |",
      "|---|---|---|---|---|---|",
      `| inkpress → llama-server | ${fixed(servedS, 2)} s | ${tokens} | ${fixed(tokens / servedS)} | ${evaluated} (inkpress counts ${median(rows.map((r) => r.served.promptTokens))}) | ${fixed(median(rows.map((r) => r.served.firstDeltaMs)) / 1000, 2)} s |`,
      `| llama-server alone | ${fixed(aloneS, 2)} s | ${tokens} | ${fixed(tokens / aloneS)} | ${median(rows.map((r) => r.alone.promptTokens))} (the prompt once) | — |`,
      "",
      `inkpress takes **${fixed(median(ratios), 2)}×** the time of llama-server alone for the same tokens (median of the runs' ratios; each run: ${ratios.map((r) => fixed(r, 2)).join(", ")}). ` +
        `llama-server's own decode rate in the alone runs: ${fixed(median(rows.map((r) => (r.served.completionTokens / r.alone.decodeMs) * 1000)))} tokens/s; its prompt took ${fixed(median(rows.map((r) => r.alone.promptMs)), 0)} ms.`,
      "",
      `Where the served article's time goes (medians, llama-server's \`/metrics\`): llama-server evaluating prompts ${fixed(promptS, 2)} s (alone: ${fixed(median(rows.map((r) => r.alone.promptMs)) / 1000, 2)} s), generating ${fixed(generateS, 2)} s (alone: ${fixed(median(rows.map((r) => r.alone.decodeMs)) / 1000, 2)} s; grammar-constrained steps sample slower), ` +
        `${median(rows.map((r) => r.server.decodes))} forward passes (alone: about ${tokens + 1}); the rest, ${fixed(servedS - promptS - generateS, 2)} s, is outside llama-server's decoding: inkpress's engine between steps, HTTP, tokenizing forced text, and waiting for a core.`,
      "",
    ];
    return { lines, ratio: median(ratios), evaluated };
  } finally {
    await inkpress.stop();
    await llama.stop();
  }
}

/** Issue 21's targets for this path, each with today's figure and whether it is met. */
function targets(smollm2: Overhead, stories: Overhead | undefined): string[] {
  const row = (target: string, today: string, goal: string, met: boolean | undefined) =>
    `| ${target} | ${today} | ${goal} | ${met === undefined ? "not measured" : met ? "met" : "**not met**"} |`;
  return [
    "### Targets (issue 21)",
    "",
    "| target | this run | goal | |",
    "|---|---|---|---|",
    row(`inkpress → llama-server vs llama-server alone, same tokens, ${SMOLLM2_135M.id} shape`, `${fixed(smollm2.ratio, 2)}×`, `≤ ${fixed(TARGETS.smollm2Ratio, 2)}×`, smollm2.ratio <= TARGETS.smollm2Ratio),
    row("same, stories260K", stories ? `${fixed(stories.ratio, 2)}×` : "—", `≤ ${fixed(TARGETS.storiesRatio, 2)}×`, stories && stories.ratio <= TARGETS.storiesRatio),
    row(`prompt tokens llama-server evaluates per ${S.length}-word article, ${SMOLLM2_135M.id} shape`, String(smollm2.evaluated), `≤ ${TARGETS.promptTokens}`, smollm2.evaluated <= TARGETS.promptTokens),
    row(`same, stories260K`, stories ? String(stories.evaluated) : "—", "—", undefined),
    "| the same on a GPU (CUDA) | — | — | not measured (no GPU machine in this run) |",
    "",
    "Prompt tokens count forced text besides the instructions: the title, the headings and the outline's labels and punctuation, which code writes rather than the model samples (a label costs llama-server one batched evaluation, not a step per token).",
    "",
  ];
}

async function throughput(model: string): Promise<string[]> {
  const llama = await startLlamaServer(model, 4);
  const inkpress = await startInkpress(llama.url);
  const lines = [
    `### Throughput: ${S.throughputLength}-word articles, 1, 2 and 4 concurrent clients, 4-slot llama-server`,
    "",
    `${S.articles} articles at each concurrency (different seeds), shared out among the clients, each client writing its share one after the other; inkpress runs with the server's 4 slots as its sequences. Articles per hour = articles ÷ wall.`,
    "",
    "| clients | articles | wall | articles/hour | completion tokens/s (all clients) | first Markdown (median) |",
    "|---|---|---|---|---|---|",
  ];
  try {
    await write(inkpress.url, { ...article(1), length: 100 }); // warm-up
    for (const clients of [1, 2, 4]) {
      const started = performance.now();
      const results = (
        await Promise.all(
          Array.from({ length: clients }, async (_, client) => {
            const done: Written[] = [];
            for (let i = 0; i < S.articles / clients; i++) done.push(await write(inkpress.url, article(1000 + client * 10 + i, S.throughputLength)));
            return done;
          }),
        )
      ).flat();
      const wallS = (performance.now() - started) / 1000;
      const tokens = results.reduce((sum, r) => sum + r.completionTokens, 0);
      log(`${clients} client(s): ${results.length} articles in ${fixed(wallS)} s`);
      lines.push(
        `| ${clients} | ${results.length} | ${fixed(wallS)} s | ${fixed((results.length / wallS) * 3600, 0)} | ${fixed(tokens / wallS)} | ${fixed(median(results.map((r) => r.firstDeltaMs)) / 1000, 2)} s |`,
      );
    }
    return [...lines, ""];
  } finally {
    await inkpress.stop();
    await llama.stop();
  }
}

const started = performance.now();
const loadBefore = os.loadavg()[0]!;
const model = await ensureBenchModel(SMOLLM2_135M, BENCH_DIR, log);
const smollm2 = await overhead({ label: `${SMOLLM2_135M.id} shape`, path: model.path, args: [], runs: S.overheadRuns });
// stories260K ends a story with BOS (id 1) and never emits its EOS.
const stories = existsSync(STORIES)
  ? await overhead({ label: "stories260K", path: STORIES, args: ["--override-kv", "tokenizer.ggml.eos_token_id=int:1"], runs: S.storiesRuns })
  : undefined;
if (!stories) log(`${STORIES} is not there: no stories260K rows`);
const sections = [
  ...targets(smollm2, stories),
  ...smollm2.lines,
  ...(stories?.lines ?? []),
  ...(process.env.BENCH_SECTIONS === "overhead" ? [] : await throughput(model.path)),
];
const report = [
  "## Inference server backend (`inkpress serve --backend`)",
  "",
  `\`npm run bench:backend\` (scripts/bench-backend.ts), ${new Date().toISOString().slice(0, 10)}: ${os.cpus()[0]?.model.trim() ?? "CPU"}, ${os.availableParallelism()} cores, Node ${process.version}; ` +
    `llama-server built from node-llama-cpp's llama.cpp source (scripts/build-llama-server.sh), \`-t ${THREADS}\`, ${SLOT_CONTEXT} tokens per slot; ` +
    `models: ${model.label} (random weights with the real model's shapes, ${fixed(model.bytes / 2 ** 20, 0)} MiB)${stories ? " and the real stories260K" : ""}. inkpress and llama-server share the cores; prompts and answers go to llama-server as token ids.${QUICK ? " **BENCH_QUICK run: short counts.**" : ""}`,
  "",
  ...sections,
  `Run time: ${fixed((performance.now() - started) / 60_000)} min; 1-minute load average ${fixed(loadBefore, 2)} at the start and ${fixed(os.loadavg()[0]!, 2)} at the end.`,
  "",
].join("\n");
await writeFile(OUT, report);
log(`wrote ${OUT}`);
