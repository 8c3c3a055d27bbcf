/**
 * `npm run bench:editor`: what writing like an editor costs, on stories260K, in one run.
 *
 * 1. Keyword steering: today's engine places an owed keyword mid-sentence; the engine it
 *    replaced (commit BASELINE, checked out into a temporary folder and installed there)
 *    prefilled it as a sentence's opening. The same requests and seeds go to both servers,
 *    interleaved, and the completion tokens per body word are compared.
 * 2. Banned phrases: the same requests with `style.avoid` of 100 phrases and without, on
 *    today's engine, interleaved; the generation time (`usage.durationMs`) is compared.
 *
 * Writes BENCHMARKS-editor.md. Needs git, npm (for the baseline's install) and
 * ../shared/models/stories260K.gguf (or INKPRESS_BENCH_MODEL).
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = path.resolve(import.meta.dirname, "..");
/** The last commit whose engine prefilled keywords as sentence openings. */
const BASELINE = "5b17532";
const MODEL = process.env.INKPRESS_BENCH_MODEL ?? path.resolve(ROOT, "../shared/models/stories260K.gguf");
const KEY = "bench-key-0123456789abcdef";
const TOPICS = [
  { topic: "Home composting", keywords: "compost bin, kitchen scraps" },
  { topic: "Cast iron cooking", keywords: "cast iron skillet, seasoning" },
  { topic: "Choosing running shoes", keywords: "running shoes, arch support" },
  { topic: "Birdwatching for beginners", keywords: "bird feeder, binoculars" },
];
const SEEDS = [1, 2, 3];
/** 100 phrases to avoid: what stories260K writes often, then plausible ones it rarely writes. */
const AVOID = [
  "once upon a time", "so happy", "Lily", "very happy", "one day", "big tree", "the end", "her mom", "his mom", "played together",
  ...Array.from({ length: 90 }, (_, i) => `rarely written phrase ${i}`),
];

interface Answer {
  article: { wordCount: number };
  usage: { promptTokens: number; completionTokens: number; durationMs: number };
}

/** A worktree of the baseline with its own install, reused between runs. */
function baselineFolder(): string {
  const dir = path.join(os.tmpdir(), `inkpress-baseline-${BASELINE}`);
  if (!existsSync(path.join(dir, "node_modules"))) {
    if (!existsSync(dir)) execFileSync("git", ["worktree", "add", "--detach", dir, BASELINE], { cwd: ROOT, stdio: "inherit" });
    execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: dir, stdio: "inherit" });
  }
  return dir;
}

/** `inkpress serve` of a checkout on a free port, one thread, until its model is loaded. */
async function serve(root: string): Promise<{ url: string; child: ChildProcess }> {
  const tsx = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href;
  const child = spawn(process.execPath, ["--import", tsx, path.join(root, "src/cli/main.ts"), "serve", "--model", MODEL, "--port", "0", "--threads", "1"], {
    cwd: root,
    env: { ...process.env, INKPRESS_API_KEYS: KEY, INKPRESS_DATA_DIR: path.join(os.tmpdir(), `inkpress-bench-data-${process.pid}-${path.basename(root)}`), NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match && /model .* loaded/.test(output)) resolve(match[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  return { url, child };
}

async function generate(url: string, body: unknown): Promise<Answer> {
  const response = await fetch(`${url}/api/v1/generate`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": KEY }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  return (await response.json()) as Answer;
}

/** Totals of a series of answers. */
function totals(answers: Answer[]) {
  const sum = (f: (a: Answer) => number) => answers.reduce((n, a) => n + f(a), 0);
  return { words: sum((a) => a.article.wordCount), completion: sum((a) => a.usage.completionTokens), prompt: sum((a) => a.usage.promptTokens), ms: sum((a) => a.usage.durationMs) };
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);

async function main(): Promise<void> {
  const requests = TOPICS.flatMap((t) => SEEDS.map((seed) => ({ topic: t.topic, length: 600, seed, seo: { keywords: t.keywords } })));
  console.error(`bench:editor: baseline ${BASELINE} …`);
  const baseline = await serve(baselineFolder());
  const today = await serve(ROOT);
  const results = { baseline: [] as Answer[], steered: [] as Answer[], free: [] as Answer[], avoiding: [] as Answer[] };
  try {
    // Each request warms both servers once, then every series runs it in turn.
    await generate(baseline.url, requests[0]);
    await generate(today.url, requests[0]);
    for (const [i, request] of requests.entries()) {
      console.error(`bench:editor: request ${i + 1} of ${requests.length}`);
      results.baseline.push(await generate(baseline.url, request));
      results.steered.push(await generate(today.url, request));
      results.free.push(await generate(today.url, { ...request, style: { cliches: false } }));
      results.avoiding.push(await generate(today.url, { ...request, style: { avoid: AVOID, cliches: false } }));
    }
  } finally {
    baseline.child.kill("SIGTERM");
    today.child.kill("SIGTERM");
  }
  writeFileSync(path.join(ROOT, "BENCHMARKS-editor.md"), report(results, requests.length));
  console.error("bench:editor: wrote BENCHMARKS-editor.md");
}

function report(r: Record<"baseline" | "steered" | "free" | "avoiding", Answer[]>, n: number): string {
  const [b, s, f, a] = [totals(r.baseline), totals(r.steered), totals(r.free), totals(r.avoiding)];
  const perWord = (t: ReturnType<typeof totals>) => t.completion / t.words;
  const overhead = (a.ms - f.ms) / f.ms;
  return `# Writing like an editor: what it costs

\`npm run bench:editor\`, ${new Date().toISOString().slice(0, 10)}, stories260K in-process behind \`inkpress serve\`
(1 thread), ${n} requests of 600 words (${TOPICS.length} topics × ${SEEDS.length} seeds), every series interleaved
request by request in one run, ${os.cpus().length} cores (${os.cpus()[0]?.model ?? "unknown CPU"}).

## Keyword steering against the prefilled openings it replaced

| engine | body words | completion tokens | tokens per body word | prompt tokens |
|---|---|---|---|---|
| prefilled openings (commit ${BASELINE}) | ${b.words} | ${b.completion} | ${fmt(perWord(b))} | ${b.prompt} |
| keywords steered mid-sentence (today) | ${s.words} | ${s.completion} | ${fmt(perWord(s))} | ${s.prompt} |

Steering a keyword into a sentence costs ${perWord(s) <= perWord(b) ? "no more" : "more"} completion tokens per body word than the
prefill it replaces (${fmt(perWord(s))} against ${fmt(perWord(b))}, ${fmt(((perWord(s) - perWord(b)) / perWord(b)) * 100, 1)}%). Today's figure
also pays for the editor's other refusals (quotations left open, keyword openings past 40%, clichés).

## Banned phrases

| series | generation time (sum of \`usage.durationMs\`) | completion tokens |
|---|---|---|
| no banned phrases (\`style.cliches: false\`) | ${f.ms} ms | ${f.completion} |
| \`style.avoid\` with 100 phrases | ${a.ms} ms | ${a.completion} |

100 banned phrases cost ${fmt(overhead * 100, 1)}% of generation time (target: under 5%); the phrases stories260K writes
all the time are among them, so the refusals themselves are in the figure, not only the matching.
`;
}

await main();
