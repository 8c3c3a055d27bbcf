/**
 * `node --max-semi-space-size=64 --import tsx scripts/bench/analyse-growth.ts` (the young
 * generation the analyse route's workers get): CPU time of one analysis (validation and
 * `analyseExisting`, as a worker runs them) per input size, for plain
 * text, nested quotes (`> ` × n) and nested HTML (`<blockquote>` × n), and for the same
 * nesting kept within the limit. Each figure is the quickest of a few runs after a warm-up;
 * growth per doubling is (time at 240 k ÷ time at 40 k) ^ (1 / log2 6). Prints a Markdown
 * table for docs/performance.md.
 */
import * as v from "valibot";
import { analyseExisting } from "../../src/article/answer.js";
import { MAX_NESTING } from "../../src/contract/nesting.js";
import { AnalyseRequestSchema } from "../../src/contract/analyse.js";

const SIZES = [10_000, 40_000, 80_000, 160_000, 240_000];
const RUNS = 3;
const WORDS = "the quick brown fox jumps over a lazy dog while the garden compost bin turns kitchen scraps into soil".split(" ");

/** Text of `n` characters made by `unit(i)` repeated. */
const fill = (n: number, unit: (i: number) => string) => {
  let text = "";
  for (let i = 0; text.length < n; i++) text += unit(i);
  return text.slice(0, n);
};

const INPUTS: Record<string, (n: number) => { markdown: string } | { html: string }> = {
  "plain text, one paragraph": (n) => ({ markdown: fill(n, (i) => WORDS[i % WORDS.length]! + (i % 13 === 12 ? ". " : " ")) }),
  "plain text, paragraphs of 91 words": (n) => ({
    markdown: fill(n, (i) => WORDS[i % WORDS.length]! + (i % 91 === 90 ? ".\n\n" : i % 13 === 12 ? ". " : " ")),
  }),
  "nested quotes (`> ` × n)": (n) => ({ markdown: `${"> ".repeat(n / 2 - 1)}x` }),
  "nested HTML (`<blockquote>` × n)": (n) => ({ html: "<blockquote>".repeat(n / 12) }),
  [`quotes ${MAX_NESTING} deep, line after line`]: (n) => ({
    markdown: fill(n, (i) => `${"> ".repeat(MAX_NESTING)}${WORDS[i % WORDS.length]} words here.\n`),
  }),
  [`HTML ${MAX_NESTING} deep, block after block`]: (n) => ({
    html: fill(
      n,
      (i) =>
        `${"<blockquote>".repeat(MAX_NESTING - 2)}<p>${WORDS[i % WORDS.length]} words here.</p>${"</blockquote>".repeat(MAX_NESTING - 2)}`,
    ),
  }),
};

/** CPU seconds of one analysis, and how it was answered. */
function analyseOnce(body: unknown): { seconds: number; status: number } {
  const started = process.cpuUsage();
  let status = 200;
  const parsed = v.safeParse(AnalyseRequestSchema, body);
  if (!parsed.success) status = 422;
  else {
    try {
      analyseExisting(parsed.output);
    } catch {
      status = 422;
    }
  }
  const used = process.cpuUsage(started);
  return { seconds: (used.user + used.system) / 1e6, status };
}

const rows: string[] = [];
for (const [name, make] of Object.entries(INPUTS)) {
  analyseOnce(make(SIZES[0]!));
  const figures = SIZES.map((n) => {
    const body = make(n);
    const runs = Array.from({ length: RUNS }, () => analyseOnce(body));
    return { seconds: Math.min(...runs.map((r) => r.seconds)), status: runs[0]!.status };
  });
  const growth = (figures.at(-1)!.seconds / figures[1]!.seconds) ** (1 / Math.log2(SIZES.at(-1)! / SIZES[1]!));
  rows.push(`| ${name} | ${figures.map((f) => `${f.seconds.toFixed(3)} (${f.status})`).join(" | ")} | ${growth.toFixed(2)}× |`);
}
console.log(`| input | ${SIZES.map((n) => `${n / 1000} k`).join(" | ")} | per doubling, 40 k→240 k |`);
console.log(`|---|${SIZES.map(() => "--:").join("|")}|--:|`);
for (const row of rows) console.log(row);
