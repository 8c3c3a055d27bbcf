/**
 * `npm run bench:editor`: what writing like an editor costs, on stories260K, in one run.
 *
 * 1. Keyword steering: today's engine places an owed keyword mid-sentence; the engine it
 *    replaced (commit BASELINE, checked out into a temporary folder and installed there)
 *    prefilled it as a sentence's opening. The same requests and seeds go to both servers,
 *    interleaved, and the completion tokens per body word are compared.
 * 2. Banned phrases: the same requests without `style.avoid`, with 100 phrases the model never
 *    writes (the matching alone) and with 100 among which the ten it writes most (the matching
 *    and the refusals), on today's engine, interleaved, each request ROUNDS times (the quickest
 *    counts); the generation time (`usage.durationMs`) is compared.
 * 3. Grounding: retrieval (splitting, indexing and ranking the sources per section) timed
 *    in-process for 3 and for 20 sources, and the extra prompt tokens an article pays for them.
 *
 * Writes BENCHMARKS-editor.md. Needs git, npm (for the baseline's install) and
 * ../shared/models/stories260K.gguf (or INKPRESS_BENCH_MODEL).
 */
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as v from "valibot";
import { Grounding } from "../src/article/grounding/grounding.js";
import { plan } from "../src/article/plan/plan.js";
import { GenerateRequestSchema } from "../src/article/wire/request.js";
import { baselineFolder, serveCheckout } from "./bench-baseline.js";

const ROOT = path.resolve(import.meta.dirname, "..");
/** The last release of the engine that prefilled keywords as sentence openings. */
const BASELINE = "a56c7b7";
const MODEL = process.env.INKPRESS_BENCH_MODEL ?? path.resolve(ROOT, "../shared/models/stories260K.gguf");
const KEY = "bench-key-0123456789abcdef";
const TOPICS = [
  { topic: "Home composting", keywords: "compost bin, kitchen scraps" },
  { topic: "Cast iron cooking", keywords: "cast iron skillet, seasoning" },
  { topic: "Choosing running shoes", keywords: "running shoes, arch support" },
  { topic: "Birdwatching for beginners", keywords: "bird feeder, binoculars" },
];
const SEEDS = [1, 2, 3];
/** Rounds of each banned-phrase series per request; the quickest counts. */
const ROUNDS = 3;
/** Phrases stories260K never writes: a ban of them costs the matching alone. */
const RARE = Array.from({ length: 100 }, (_, i) => `rarely written phrase ${i}`);
/** 100 phrases to avoid: the ten stories260K writes most, then ones it never writes. */
const AVOID = ["once upon a time", "so happy", "Lily", "very happy", "one day", "big tree", "the end", "her mom", "his mom", "played together", ...RARE.slice(0, 90)];

/** Story-like sources of about `bytes` bytes each, in words stories260K knows. */
function sources(count: number, bytes: number) {
  const words = "the little girl dog park ball tree garden mom dad friend happy big red box toy sun water bird cat".split(" ");
  return Array.from({ length: count }, (_, i) => {
    let text = "";
    for (let n = i; text.length < bytes; n += 7) {
      const w = (k: number) => words[(n * 31 + k * 17) % words.length]!;
      text += `The ${w(1)} saw a ${w(2)} near the ${w(3)} and the ${w(4)} was ${w(5)}. `;
    }
    return { title: `Story ${i + 1}`, url: `https://stories.example/${i + 1}`, text: text.trim() };
  });
}

/** Median milliseconds of planning the passages of a 300-word article from `list`, over 20 runs. */
function retrievalMs(list: ReturnType<typeof sources>): number {
  const request = v.parse(GenerateRequestSchema, { topic: "The little dog in the park", length: 300, seed: 1, sources: list });
  const p = plan(request);
  const outline = { title: "The little dog", metaDescription: "", sections: p.sections.map((_, i) => ({ heading: `The ${["ball", "tree", "sun", "bird"][i % 4]} in the park`, subheadings: [] })) };
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const start = performance.now();
    new Grounding({ plan: p, outline, sources: list }).notes(0);
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[10]!;
}

interface Answer {
  article: { wordCount: number };
  /** `discardedTokens` is today's only (the baseline does not count them). */
  usage: { promptTokens: number; completionTokens: number; durationMs: number; discardedTokens?: Record<string, number> };
}

/** Today's discarded completion tokens by reason, summed over a series, most first. */
function discarded(answers: Answer[]): Array<[string, number]> {
  const sums = new Map<string, number>();
  for (const a of answers) for (const [reason, n] of Object.entries(a.usage.discardedTokens ?? {})) sums.set(reason, (sums.get(reason) ?? 0) + n);
  return [...sums].sort((x, y) => y[1] - x[1]);
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
/** A relative change in words: "3.1% more" or "0.6% less". */
const more = (change: number) => `${fmt(Math.abs(change) * 100, 1)}% ${change >= 0 ? "more" : "less"}`;

async function main(): Promise<void> {
  const requests = TOPICS.flatMap((t) => SEEDS.map((seed) => ({ topic: t.topic, length: 600, seed, seo: { keywords: t.keywords } })));
  console.error(`bench:editor: baseline ${BASELINE} …`);
  const baseline = await serveCheckout({ root: baselineFolder(BASELINE), model: MODEL, apiKey: KEY });
  const today = await serveCheckout({ root: ROOT, model: MODEL, apiKey: KEY });
  const results = { baseline: [] as Answer[], steered: [] as Answer[], free: [] as Answer[], avoiding: [] as Answer[], rare: [] as Answer[], grounded: [] as Array<[Answer, Answer, Answer]> };
  const three = sources(3, 1024);
  const twenty = sources(20, 5000);
  try {
    // Each request warms both servers once, then every series runs it in turn.
    await generate(baseline.url, requests[0]);
    await generate(today.url, requests[0]);
    for (const [i, request] of requests.entries()) {
      console.error(`bench:editor: request ${i + 1} of ${requests.length}`);
      results.baseline.push(await generate(baseline.url, request));
      results.steered.push(await generate(today.url, request));
      // The same seed writes the same article: the quickest of a few rounds is its time, with less of the machine's noise.
      const series = { free: { cliches: false }, avoiding: { avoid: AVOID, cliches: false }, rare: { avoid: RARE, cliches: false } };
      const best: Partial<Record<keyof typeof series, Answer>> = {};
      for (let round = 0; round < ROUNDS; round++) {
        for (const [name, style] of Object.entries(series) as Array<[keyof typeof series, object]>) {
          const answer = await generate(today.url, { ...request, style });
          if (!best[name] || answer.usage.durationMs < best[name].usage.durationMs) best[name] = answer;
        }
      }
      for (const name of Object.keys(series) as Array<keyof typeof series>) results[name].push(best[name]!);
    }
    for (const seed of SEEDS) {
      const request = { topic: "The little dog in the park", length: 300, seed };
      results.grounded.push([await generate(today.url, request), await generate(today.url, { ...request, sources: three }), await generate(today.url, { ...request, sources: twenty })]);
    }
  } finally {
    await Promise.all([baseline.stop(), today.stop()]);
  }
  const retrieval = { three: retrievalMs(three), twenty: retrievalMs(twenty) };
  writeFileSync(path.join(ROOT, "BENCHMARKS-editor.md"), report(results, requests.length) + groundingReport(results.grounded, retrieval));
  console.error("bench:editor: wrote BENCHMARKS-editor.md");
}

function groundingReport(runs: Array<[Answer, Answer, Answer]>, retrieval: { three: number; twenty: number }): string {
  const prompt = (i: number) => runs.reduce((n, run) => n + run[i]!.usage.promptTokens, 0) / runs.length;
  return `
## Grounding: retrieval and the prompt tokens sources add

A 300-word article ("The little dog in the park", ${runs.length} seeds), without sources, with 3 sources of 1 KB and with
20 sources of 5 KB (100 KB in all). Retrieval is splitting the sources into passages, indexing them (BM25,
minisearch) and picking each section's passages, timed in-process (median of 20).

| sources | retrieval | prompt tokens per article (mean) | extra prompt tokens |
|---|---|---|---|
| none | — | ${fmt(prompt(0), 0)} | — |
| 3 × 1 KB | ${fmt(retrieval.three, 1)} ms | ${fmt(prompt(1), 0)} | ${fmt(prompt(1) - prompt(0), 0)} |
| 20 × 5 KB | ${fmt(retrieval.twenty, 1)} ms | ${fmt(prompt(2), 0)} | ${fmt(prompt(2) - prompt(0), 0)} |

The extra prompt tokens are the passages shown as notes (at most 160 tokens a section, 640 an article), so
they grow with the passages used, not with the sources given.
`;
}

function report(r: Record<"baseline" | "steered" | "free" | "avoiding" | "rare", Answer[]>, n: number): string {
  const [b, s, f, a, rare] = [totals(r.baseline), totals(r.steered), totals(r.free), totals(r.avoiding), totals(r.rare)];
  const matching = (rare.ms - f.ms) / f.ms;
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
also pays for the editor's other refusals; what each cost, from \`usage.discardedTokens\` (completion tokens generated
and then cut, summed over the ${n} articles; steering itself is \`steering\`, the model's token at the spot where a keyword went):

| reason | tokens | share of completion tokens |
|---|---|---|
${discarded(r.steered).map(([reason, tokens]) => `| \`${reason}\` | ${tokens} | ${fmt((tokens / s.completion) * 100, 1)}% |`).join("\n")}

## Banned phrases

Each request ran ${ROUNDS} times in each series, the series taking turns; an article's time is the quickest of its runs
(the same seed writes the same article).

| series | generation time (sum of \`usage.durationMs\`) | completion tokens | ms per completion token |
|---|---|---|---|
| no banned phrases (\`style.cliches: false\`) | ${f.ms} ms | ${f.completion} | ${fmt(f.ms / f.completion, 3)} |
| \`style.avoid\` with 100 phrases stories260K never writes | ${rare.ms} ms | ${rare.completion} | ${fmt(rare.ms / rare.completion, 3)} |
| \`style.avoid\` with 100 phrases, the ten it writes most among them | ${a.ms} ms | ${a.completion} | ${fmt(a.ms / a.completion, 3)} |

Checking 100 banned phrases while sampling costs ${matching > 0 ? `${fmt(matching * 100, 1)}%` : `nothing measurable (${fmt(matching * 100, 1)}%, the runs' noise)`} of generation time (target: under 5%). Banning the
ten phrases stories260K writes most ("Lily" is in most of its sentences) costs ${fmt(overhead * 100, 1)}%: ${fmt(((a.completion - f.completion) / f.completion) * 100, 1)}% more completion
tokens (the words it writes instead cost more tokens, and each refused word is generated before it is cut) and
${more((a.ms / a.completion) / (f.ms / f.completion) - 1)} time per token (a call of its own after each refusal, under a grammar). Its tokens discarded by reason:
${discarded(r.avoiding).map(([reason, tokens]) => `\`${reason}\` ${tokens}`).join(", ")}.
`;
}

await main();
