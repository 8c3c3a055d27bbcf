/**
 * Where an article's time goes on one model, in-process (no HTTP), for questions the full bench
 * takes too long to answer on a loaded machine: `writeArticle` on the model (default the
 * random-weight SmolLM2-135M shape; BENCH_MODEL for another), one thread, one sequence, the
 * service's window, its writer timed around every generation step; then raw node-llama-cpp
 * decoding of as many tokens after the same prompt on the same sequence. PROFILE_AGAINST=<dir,…>
 * runs other checkouts' engines (each with its own runtime) beside this one, taking turns per
 * seed, the one going first alternating, so machine noise falls on all alike.
 *
 * Per article: wall and CPU time (every thread of the process; on a loaded machine CPU shows the
 * work where wall shows the queue), prompt and completion tokens, tokens cut by reason, and the
 * split: the writer's time inside the outline's steps and the body's (decoding, sampling under
 * the grammar, detokenising), the engine's own time between pieces, and the rest (the report,
 * rendering). Then the writer's time per piece: each step's first (the forced text and the token
 * re-read after a cut, evaluated in one batch, then one token sampled), the pieces after it, and of
 * those the ones that took more than BREAK_MS: a token the grammar refused, after which the sampler
 * ran the grammar over the whole vocabulary. PROFILE_VERBOSE=1 prints every step and each answer
 * on stderr.
 *
 * Usage: node --import tsx scripts/bench/profile.ts [length=300] [seeds=1,2,3]
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Backend, GenerateOptions, Writer } from "../../src/model/backend.js";
import { article, f, median, ROOT } from "./common.js";
import { cpuMs, RawDecoder } from "./raw.js";
import { BENCH_SPECS, ensureBenchModel } from "./shapes.js";

const VERBOSE = process.env.PROFILE_VERBOSE === "1";
const length = Number(process.argv[2] ?? 300);
const seeds = (process.argv[3] ?? "1,2,3").split(",").map(Number);
const modelPath = process.env.BENCH_MODEL
  ? path.resolve(process.env.BENCH_MODEL)
  : (await ensureBenchModel(BENCH_SPECS.smollm2, undefined, console.error)).path;

/** The time and tokens of one phase's steps. */
interface Phase {
  ms: number;
  cpuMs: number;
  tokens: number;
  calls: number;
}
/** Where one article's time went. */
interface Split {
  outline: Phase;
  body: Phase;
  engineMs: number;
  /** The wait for each step's first piece. */
  firsts: number[];
  /** The wait for every later piece. */
  pieces: number[];
}

/** A piece slower than this followed a token the grammar refused (a token takes about 10 ms on the SmolLM2 shape). */
const BREAK_MS = 40;

/** The writer, its steps timed: the writer's time inside `generate` (outline until the pin, then body), the engine's between pieces. */
function timed(writer: Writer, split: Split): Writer {
  const generate = writer.generate.bind(writer);
  const pin = writer.pin.bind(writer);
  let phase = split.outline;
  writer.pin = () => {
    phase = split.body;
    pin();
  };
  const append = writer.append.bind(writer);
  const truncate = writer.truncate.bind(writer);
  if (VERBOSE) {
    writer.append = (text) => {
      console.error(`append ${JSON.stringify(text)}`);
      append(text);
    };
    writer.truncate = (length) => {
      console.error(`cut ${JSON.stringify(writer.text.slice(length))}`);
      truncate(length);
    };
  }
  writer.generate = async function* (options: GenerateOptions) {
    const before = writer.usage.completionTokens;
    const iterator = generate(options);
    let [t, c] = [performance.now(), cpuMs()];
    let [stepMs, stepCpu] = [0, 0];
    let first = true;
    try {
      while (true) {
        const next = await iterator.next();
        const [now, cpu] = [performance.now(), cpuMs()];
        if (!next.done) (first ? split.firsts : split.pieces).push(now - t);
        first = false;
        stepMs += now - t;
        stepCpu += cpu - c;
        if (next.done) break;
        yield next.value;
        [t, c] = [performance.now(), cpuMs()];
        split.engineMs += t - now;
      }
    } finally {
      await iterator.return(undefined);
      const tokens = writer.usage.completionTokens - before;
      Object.assign(phase, { ms: phase.ms + stepMs, cpuMs: phase.cpuMs + stepCpu, tokens: phase.tokens + tokens, calls: phase.calls + 1 });
      if (VERBOSE)
        console.error(
          `step ${options.grammar ? `grammar ${options.grammar.length} chars` : "free"}: ${tokens} tokens, ${f(stepMs, 0)} ms, CPU ${f(stepCpu, 0)} ms; prompt so far ${writer.usage.promptTokens}`,
        );
    }
  };
  return writer;
}

/** What one checkout offers: its runtime on the model, `writeArticle`, the request schema and the prompt. */
interface Engine {
  name: string;
  runtime: Backend & { dispose(): Promise<void> };
  writeArticle: (request: unknown, options: { backend: Backend }) => Promise<{ response: ArticleAnswer }>;
  validate: (value: unknown) => unknown;
}
type ArticleAnswer = {
  usage: { promptTokens: number; completionTokens: number; discardedTokens?: Record<string, number> };
  article: { wordCount: number };
};

async function engine(root: string): Promise<Engine> {
  const load = async <T>(file: string) => (await import(pathToFileURL(path.join(root, file)).href)) as T;
  const { ModelRuntime } = await load<{ ModelRuntime: { load(o: object): Promise<Engine["runtime"]> } }>("src/model/runtime.ts");
  const { writeArticle } = await load<{ writeArticle: Engine["writeArticle"] }>("src/article/article.ts");
  const { GenerateRequestSchema } = await load<{
    GenerateRequestSchema: { "~standard": { validate(v: unknown): { value?: unknown; issues?: unknown } } };
    // The contract's folder: src/contract/ since it left the engine, src/article/wire/ before.
  }>(existsSync(path.join(root, "src/contract/request.ts")) ? "src/contract/request.ts" : "src/article/wire/request.ts");
  const runtime = await ModelRuntime.load({ modelPath, threads: 1, sequences: 1, queueSize: 0, window: 512 });
  const validate = (value: unknown) => {
    const parsed = GenerateRequestSchema["~standard"].validate(value);
    if (parsed.issues) throw new Error(`${root}: the bench request is not valid`);
    return parsed.value;
  };
  return { name: root === ROOT ? "today" : path.basename(root), runtime, writeArticle, validate };
}

/** One article on an engine, timed. */
async function engineRun(e: Engine, seed: number) {
  const none = () => ({ ms: 0, cpuMs: 0, tokens: 0, calls: 0 });
  const split: Split = { outline: none(), body: none(), engineMs: 0, firsts: [], pieces: [] };
  const backend: Backend = Object.create(e.runtime) as Backend;
  let lent: Writer | undefined;
  backend.writer = async (signal) => (lent = timed(await e.runtime.writer(signal), split));
  const [t0, c0] = [performance.now(), cpuMs()];
  const { response } = await e.writeArticle(e.validate(article(seed, length)), { backend });
  if (VERBOSE) console.error(lent?.text);
  return { wallMs: performance.now() - t0, cpuMs: cpuMs() - c0, usage: response.usage, words: response.article.wordCount, split };
}

/** The writer's wait per piece: each step's first, the steady pieces, the pieces after a refused token. */
function pieceSplit({ firsts, pieces }: Split): string {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const steady = pieces.filter((x) => x <= BREAK_MS);
  const broken = pieces.filter((x) => x > BREAK_MS);
  const piece = median(steady);
  return [
    `first pieces ${firsts.length}: ${f(sum(firsts), 0)} ms (${f(sum(firsts) - firsts.length * piece, 0)} ms above a steady piece each)`,
    `steady pieces ${steady.length}: ${f(sum(steady), 0)} ms (median ${f(piece, 1)} ms)`,
    `after a refused token ${broken.length}: ${f(sum(broken), 0)} ms (${f(sum(broken) - broken.length * piece, 0)} ms above a steady piece each)`,
  ].join("; ");
}

const phase = (name: string, p: Phase) =>
  `${name} ${p.calls} steps, ${p.tokens} tokens: ${f(p.ms, 0)} ms, CPU ${f(p.cpuMs, 0)} ms (${f(p.cpuMs / Math.max(1, p.tokens))} ms a token)`;

const engines = [await engine(ROOT)];
for (const root of (process.env.PROFILE_AGAINST ?? "").split(",").filter(Boolean)) engines.push(await engine(path.resolve(root)));
const raw = await RawDecoder.load(modelPath);
const ratios = new Map<string, { wall: number[]; cpu: number[] }>(engines.map((e) => [e.name, { wall: [], cpu: [] }]));
try {
  for (const e of engines) await engineRun(e, 99); // warm-up
  for (const [i, seed] of seeds.entries()) {
    const runs = new Map<string, Awaited<ReturnType<typeof engineRun>>>();
    for (const e of i % 2 ? [...engines].reverse() : engines) runs.set(e.name, await engineRun(e, seed));
    const tokens = runs.get("today")!.usage.completionTokens;
    const rawRunFull = await raw.run(article(seed, length), tokens);
    console.log(
      `seed ${seed}: raw decoding of ${rawRunFull.prompt} prompt + ${tokens} tokens: ${f(rawRunFull.wallMs, 0)} ms, CPU ${f(rawRunFull.cpuMs, 0)} ms`,
    );
    for (const e of engines) {
      const r = runs.get(e.name)!;
      const { outline, body, engineMs } = r.split;
      ratios.get(e.name)!.wall.push(r.wallMs / rawRunFull.wallMs);
      ratios.get(e.name)!.cpu.push(r.cpuMs / rawRunFull.cpuMs);
      console.log(
        [
          `  ${e.name}: wall ${f(r.wallMs, 0)} ms (${f(r.wallMs / rawRunFull.wallMs)}× raw), CPU ${f(r.cpuMs, 0)} ms (${f(r.cpuMs / rawRunFull.cpuMs)}× raw)`,
          `    ${r.words} words, prompt ${r.usage.promptTokens}, completion ${r.usage.completionTokens}, cut ${JSON.stringify(r.usage.discardedTokens ?? {})}`,
          `    ${phase("outline", outline)}; ${phase("body", body)}; engine between pieces ${f(engineMs, 0)} ms`,
          `    the writer's wait: ${pieceSplit(r.split)}`,
        ].join("\n"),
      );
    }
  }
  for (const [name, r] of ratios) console.log(`${name}: median ÷ raw decoding, wall ${f(median(r.wall))}×, CPU ${f(median(r.cpu))}×`);
} finally {
  for (const e of engines) await e.runtime.dispose();
  await raw.dispose();
}
