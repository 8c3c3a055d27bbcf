/**
 * `npx tsx scripts/loops-calibrate.ts`: the figures behind the no-loops thresholds
 * (plan/limits.ts LOOPS, docs/guarantees.md). Human text: every README in node_modules, read as
 * analyse reads it (code, URLs and versions are not prose), those of 20 sentences and more.
 * Looping text: each such README with one of its paragraphs said 4 times in its middle.
 * Prints, for each, the share of sentences that repeat and of runs of words said again.
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import { LOOPS } from "../src/article/plan/limits.js";
import { countBlocks, readPage } from "../src/article/existing/page.js";
import { loops, repetition } from "../src/article/text/repeats.js";
import { ROOT } from "./bench/common.js";

/** Every README of node_modules, scoped packages included. */
function readmes(): string[] {
  const modules = path.join(ROOT, "node_modules");
  const folders = readdirSync(modules).flatMap((name) =>
    name.startsWith("@") ? readdirSync(path.join(modules, name)).map((sub) => path.join(name, sub)) : [name],
  );
  return folders.flatMap((folder) =>
    ["README.md", "readme.md", "Readme.md"]
      .map((file) => path.join(modules, folder, file))
      .filter(existsSync)
      .slice(0, 1),
  );
}

/** A README's paragraphs, each as its sentences. */
function paragraphs(file: string): string[][] {
  const blocks = countBlocks(readPage({ markdown: readFileSync(file, "utf8") }).blocks, "en");
  return blocks.flatMap((block) => (block.kind === "prose" ? [block.sentences] : []));
}

const shares = (sentences: string[]) => {
  const measured = repetition(sentences, { language: "en", ...LOOPS, share: LOOPS.sentenceShare });
  return {
    sentences: (100 * measured.repeats.length) / measured.sentences,
    grams: (100 * measured.repeatedGrams) / Math.max(1, measured.grams),
    run: measured.longestRun,
    loops: loops(measured, LOOPS),
  };
};
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const line = (name: string, values: number[]) =>
  `${name}: median ${quantile(values, 0.5).toFixed(1)} %, 90th ${quantile(values, 0.9).toFixed(1)} %, 99th ${quantile(values, 0.99).toFixed(1)} %, max ${Math.max(...values).toFixed(1)} %, min ${Math.min(...values).toFixed(1)} %`;

const human: Array<{ name: string; sentences: number; grams: number; run: number; loops: boolean }> = [];
const planted: Array<{ sentences: number; grams: number; run: number; loops: boolean }> = [];
for (const file of readmes()) {
  const paras = paragraphs(file);
  const sentences = paras.flat();
  if (sentences.length < 20) continue;
  human.push({ name: path.relative(path.join(ROOT, "node_modules"), file), ...shares(sentences) });
  // The paragraph of most sentences in the middle half, said 4 times where it stands.
  const middle = paras.slice(Math.floor(paras.length / 4), Math.ceil((3 * paras.length) / 4));
  const loop = middle.reduce((a, b) => (b.length > a.length ? b : a), []);
  const at = paras.indexOf(loop);
  planted.push(shares([...paras.slice(0, at), loop, loop, loop, loop, ...paras.slice(at + 1)].flat()));
}
console.log(`runs of ${LOOPS.n} words; a sentence repeats at ${LOOPS.sentenceShare * 100} % of its runs said before`);
console.log(`human READMEs (${human.length}, 20 sentences and more)`);
console.log(
  `  ${line(
    "repeated sentences",
    human.map((h) => h.sentences),
  )}`,
);
console.log(
  `  ${line(
    "repeated runs",
    human.map((h) => h.grams),
  )}`,
);
console.log(
  `  longest run of repeating sentences: ${[1, 2, 3, 4, 5, 6].map((r) => `${r}+: ${human.filter((h) => h.run >= r).length}`).join(", ")}`,
);
console.log(
  `  looping by the limits (a run of ${LOOPS.run}, over ${LOOPS.repeatedSentences} % sentences or ${LOOPS.repeatedGrams} % runs): ${human.filter((h) => h.loops).length}: ${
    human
      .filter((h) => h.loops)
      .map((h) => `${h.name} (${h.sentences.toFixed(1)} %, ${h.grams.toFixed(1)} %)`)
      .join(", ") || "none"
  }`,
);
console.log(`the same READMEs with one paragraph said 4 times (${planted.length})`);
console.log(
  `  ${line(
    "repeated sentences",
    planted.map((h) => h.sentences),
  )}`,
);
console.log(
  `  ${line(
    "repeated runs",
    planted.map((h) => h.grams),
  )}`,
);
console.log(
  `  longest run of repeating sentences: ${[1, 2, 3, 4, 5, 6].map((r) => `${r}+: ${planted.filter((h) => h.run >= r).length}`).join(", ")}`,
);
console.log(`  caught by the limits: ${planted.filter((h) => h.loops).length} of ${planted.length}`);
