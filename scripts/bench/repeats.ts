/**
 * What the sentence gate's near-duplicate refusal costs while writing (part of `npm run bench`).
 * Its lookup: CPU per sentence of the gate's repeat memory asked whether a sentence says a kept
 * one again, whole or nearly (plan/limits.ts LOOPS.near), against the same memory asked for
 * whole repeats only, with 100 and 400 sentences kept (an article of about 1,500 and 6,000
 * words), over README prose of node_modules, each sentence read once before (as the gate
 * gets it: its words were counted already); the model's share, the tokens cut as
 * near-duplicates, is read from the bench's stories260K articles (main.ts).
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { countBlocks, readPage } from "../../src/article/existing/page.js";
import { LOOPS } from "../../src/article/plan/limits.js";
import { RepeatMemory } from "../../src/article/text/repeats.js";
import { countWords } from "../../src/article/text/text.js";
import { f, median, ROOT, type Verdict } from "./common.js";

/** Sentences kept before the lookups, and the lookups timed per run. */
const KEPT = [100, 400];
const LOOKUPS = 200;
const RUNS = 25;
/** Most CPU a lookup may take: a stories260K token takes about 1 ms on one thread, a sentence 10 to 20 of them. */
const GOAL_US = 50;

/** One lookup cost: CPU µs per sentence, whole and near, and whole only. */
export interface LookupCost {
  kept: number;
  nearUs: number;
  wholeUs: number;
}

/** Prose sentences of 5 words or more from the READMEs of node_modules, in a fixed order. */
function proseSentences(count: number): string[] {
  const modules = path.join(ROOT, "node_modules");
  const sentences: string[] = [];
  for (const name of readdirSync(modules).sort()) {
    if (name.startsWith(".") || name.startsWith("@")) continue;
    const file = readdirSync(path.join(modules, name)).find((entry) => /^readme\.md$/iu.test(entry));
    if (!file) continue;
    for (const block of countBlocks(readPage({ markdown: readFileSync(path.join(modules, name, file), "utf8") }).blocks, "en"))
      if (block.kind === "prose") sentences.push(...block.sentences.filter((s) => countWords(s, "en") >= LOOPS.words));
    if (sentences.length >= count) return sentences.slice(0, count);
  }
  return sentences;
}

/** CPU µs per lookup, the median of the runs, of a memory holding `kept` sentences. */
function perLookup(sentences: readonly string[], kept: number, near: boolean): number {
  const limits = near ? LOOPS : { ...LOOPS, near: { ...LOOPS.near, changes: 0 } };
  const memory = new RepeatMemory("en", limits);
  for (const sentence of sentences.slice(0, kept)) memory.remember(sentence);
  const asked = sentences.slice(kept, kept + LOOKUPS);
  const runs: number[] = [];
  for (let run = 0; run < RUNS + 3; run++) {
    const start = process.cpuUsage();
    for (const sentence of asked) memory.echo(sentence);
    const { user, system } = process.cpuUsage(start);
    if (run >= 3) runs.push((user + system) / asked.length);
  }
  return median(runs);
}

/** The gate's lookup, whole and near against whole only, at each count of kept sentences. */
export function lookupCosts(): LookupCost[] {
  const sentences = proseSentences(Math.max(...KEPT) + LOOKUPS);
  return KEPT.map((kept) => ({ kept, nearUs: perLookup(sentences, kept, true), wholeUs: perLookup(sentences, kept, false) }));
}

/** The lookup costs as verdicts: each under its goal, and what the near repeats add. */
export function lookupVerdicts(costs: readonly LookupCost[]): Verdict[] {
  return costs.map(({ kept, nearUs, wholeUs }) => ({
    target: `sentence gate's repeat lookup, whole or nearly, per sentence, ${kept} sentences kept`,
    goal: `< ${GOAL_US} µs`,
    value: `${f(nearUs, 1)} µs`,
    met: nearUs < GOAL_US,
    why: `CPU, median of ${RUNS} runs of ${LOOKUPS} README sentences; whole repeats alone ${f(wholeUs, 1)} µs, so near repeats add ${f(nearUs - wholeUs, 1)} µs`,
  }));
}

/** The tokens cut as near-duplicates in a model's articles, as a verdict beside the lookup's. */
export function cutVerdict(model: string, cut: ReadonlyArray<readonly [string, number]>, completion: number): Verdict {
  const near = cut.find(([reason]) => reason === "near-duplicate")?.[1] ?? 0;
  const share = completion === 0 ? Number.NaN : (100 * near) / completion;
  return {
    target: `completion tokens cut as near-duplicate sentences, ${model}`,
    goal: "≤ 5 %",
    value: `${f(share, 1)} %`,
    met: Number.isFinite(share) ? share <= 5 : undefined,
    why: `${near} of today's ${completion} completion tokens: what the model wrote again with a word or two changed, refused and written anew`,
  };
}
