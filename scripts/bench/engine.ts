/**
 * The engine's own time per token, without a model: each engine's `writeArticle` on its
 * scripted fake backend, in a child process of its own (scripts/bench/engine-child.ts), the
 * fake model writing distinct sentences of 5 words or of 30. Per run, the CPU time of the body
 * pass (from the outline to the writer given back) over the tokens generated in it, and the
 * whole article's CPU time. Each sentence length is a phase of its own: warm-up runs, then the
 * measured ones, the engines taking turns and the one that goes first rotating.
 *
 * Each child runs with one thread and a fixed young generation ({@link CHILD_FLAGS}): with V8's
 * helper threads and a young generation that grows as it likes, the same engine measured
 * against itself read 0.94×–1.07× on 2 cores, too wide to judge a 5 % goal; so flagged, it
 * reads 0.99×–1.02×. The bench runs today's engine twice to show that figure.
 */
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { f, median, ROOT, table } from "./common.js";
import type { Engine } from "./compare.js";

/** Words per sentence the fake model writes: where per-sentence work dominates, and where per-token work does. */
export const SENTENCE_WORDS = [5, 30] as const;

/** Runs per engine and length before the measured ones: the JIT settles in them. */
const WARM_UPS = 5;

/** No compiler or GC threads beside the engine's, and a young generation that does not resize between runs. */
const CHILD_FLAGS = ["--single-threaded", "--min-semi-space-size=16", "--max-semi-space-size=16"];

/** One engine at one sentence length. */
export interface EngineCost {
  engine: string;
  words: number;
  /** The body pass's CPU µs per generated token, each run. */
  usPerToken: number[];
  /** The whole article's CPU ms, each run. */
  articleMs: number[];
  /** Body tokens per article (the median). */
  tokens: number;
}

/** What one run reports. */
type Reply = { bodyMs: number; bodyTokens: number; articleMs: number; error?: string; ready?: boolean };

/** The child of one checkout, ready for runs. */
async function start(root: string): Promise<ChildProcess> {
  const tsx = pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
  const child = fork(path.join(import.meta.dirname, "engine-child.ts"), [root], {
    cwd: root,
    execArgv: ["--import", tsx, "--expose-gc", ...CHILD_FLAGS],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  await next(child);
  return child;
}

/** The child's next message; a reported error throws. */
function next(child: ChildProcess): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`the engine child exited with ${code}`));
    child.once("exit", onExit);
    child.once("message", (reply: Reply) => {
      child.off("exit", onExit);
      if (reply.error) reject(new Error(reply.error));
      else resolve(reply);
    });
  });
}

/** What {@link engineCost} runs. */
export interface EngineCostOptions {
  engines: Engine[];
  /** Measured runs per engine and length. */
  runs: number;
  /** The article's length in words. */
  length: number;
}

/** Every engine at every sentence length, interleaved. */
export async function engineCost({ engines, runs, length }: EngineCostOptions): Promise<EngineCost[]> {
  const children = await Promise.all(engines.map((e) => start(e.root)));
  const costs = engines.flatMap((e) =>
    SENTENCE_WORDS.map((words): EngineCost => ({ engine: e.name, words, usPerToken: [], articleMs: [], tokens: 0 })),
  );
  const tokens = new Map<EngineCost, number[]>(costs.map((c) => [c, []]));
  try {
    for (const words of SENTENCE_WORDS) {
      for (let i = -WARM_UPS; i < runs; i++) {
        for (let j = 0; j < children.length; j++) {
          const k = (i + WARM_UPS + j) % children.length;
          const child = children[k]!;
          child.send({ words, length });
          const reply = await next(child);
          if (i < 0) continue; // warm-up
          const cost = costs.find((c) => c.engine === engines[k]!.name && c.words === words)!;
          cost.usPerToken.push((reply.bodyMs * 1000) / reply.bodyTokens);
          cost.articleMs.push(reply.articleMs);
          tokens.get(cost)!.push(reply.bodyTokens);
        }
      }
    }
  } finally {
    for (const child of children) child.kill();
  }
  for (const c of costs) c.tokens = median(tokens.get(c)!);
  return costs;
}

/** The runs as a table. */
export function engineTable(costs: EngineCost[]): string {
  const spread = (xs: number[], digits: number) => `${f(Math.min(...xs), digits)}–${f(Math.max(...xs), digits)}`;
  return table(
    ["engine", "sentence words", "body tokens", "body CPU µs per token (median)", "runs", "article CPU ms (median)", "runs"],
    costs.map((c) => [
      c.engine,
      String(c.words),
      String(c.tokens),
      f(median(c.usPerToken)),
      spread(c.usPerToken, 1),
      f(median(c.articleMs), 1),
      spread(c.articleMs, 1),
    ]),
  );
}
