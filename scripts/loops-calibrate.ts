/**
 * `npx tsx scripts/loops-calibrate.ts [--pairs]`: the figures behind the repetition thresholds
 * (plan/limits.ts LOOPS, docs/guarantees.md). Human text: every README in node_modules, read as
 * analyse reads it (code, URLs and versions are not prose; a list's items and a reference entry's
 * sentences are compared within their own list or entry), those of 20 sentences and more, and
 * this project's docs. Looping text: each such README with one of its paragraphs said 4 times, or
 * 3 times, in its middle, and with one of its sentences said 5 times, a word changed each time.
 * Prints, for each, the share of sentences that repeat, of runs of words said again, how many
 * fail no-loops and duplicate-sentences; `--pairs` prints every near repeat found in human text.
 */
import { readdirSync, readFileSync, existsSync } from "node:fs";
import path from "node:path";
import type { Block } from "../src/article/body/document.js";
import { countBlocks, readPage } from "../src/article/existing/page.js";
import { LOOPS } from "../src/article/plan/limits.js";
import { isLabel, loops, repetition, type RepeatBlock } from "../src/article/text/repeats.js";
import { normaliseSentence, wordSpans } from "../src/article/text/text.js";
import { ROOT } from "./bench/common.js";

type Prose = Extract<Block, { kind: "prose" }>;

/** Every README of node_modules, scoped packages included, then this project's docs. */
function texts(): string[] {
  const modules = path.join(ROOT, "node_modules");
  const folders = readdirSync(modules).flatMap((name) =>
    name.startsWith("@") ? readdirSync(path.join(modules, name)).map((sub) => path.join(name, sub)) : [name],
  );
  const readmes = folders.flatMap((folder) =>
    ["README.md", "readme.md", "Readme.md"]
      .map((file) => path.join(modules, folder, file))
      .filter(existsSync)
      .slice(0, 1),
  );
  const docs = readdirSync(path.join(ROOT, "docs"))
    .filter((file) => file.endsWith(".md"))
    .map((file) => path.join(ROOT, "docs", file));
  return [...readmes, ...docs];
}

/** A text's prose blocks, as analyse reads them. */
function proseOf(file: string): Prose[] {
  return countBlocks(readPage({ markdown: readFileSync(file, "utf8") }).blocks, "en").filter(
    (block): block is Prose => block.kind === "prose",
  );
}

/** What the repetition checks find in a text. */
function measure(blocks: readonly RepeatBlock[]) {
  const measured = repetition(blocks, { language: "en", ...LOOPS, share: LOOPS.sentenceShare });
  return {
    sentences: (100 * measured.repeats.length) / Math.max(1, measured.sentences),
    grams: (100 * measured.repeatedGrams) / Math.max(1, measured.grams),
    run: measured.longestRun,
    said: measured.burst,
    loops: loops(measured, LOOPS),
    echoes: measured.echoes,
  };
}
type Measured = ReturnType<typeof measure> & { name: string };

/** The paragraph of most sentences in a text's middle half, and where it stands. */
function middleParagraph(paras: readonly Prose[]): number {
  const middle = paras.slice(Math.floor(paras.length / 4), Math.ceil((3 * paras.length) / 4)).filter((p) => p.group === undefined);
  const loop = middle.reduce<Prose | undefined>((a, b) => (a === undefined || b.sentences.length > a.sentences.length ? b : a), undefined);
  return loop ? paras.indexOf(loop) : Math.floor(paras.length / 2);
}

/** A paragraph of the middle said `times` times where it stands. */
function plantParagraph(paras: readonly Prose[], times: number): Prose[] {
  const at = middleParagraph(paras);
  return [...paras.slice(0, at), ...Array<Prose>(times).fill(paras[at]!), ...paras.slice(at + 1)];
}

/** The longest sentence of the middle paragraph said 5 times as a paragraph after it, its middle word changed each time. */
function plantVariants(paras: readonly Prose[]): Prose[] | undefined {
  const at = middleParagraph(paras);
  const sentence = paras[at]!.sentences.filter((s) => !isLabel(s, "en", LOOPS.label)).sort((a, b) => b.length - a.length)[0];
  const spans = sentence === undefined ? [] : wordSpans(sentence, "en");
  if (sentence === undefined || spans.length < 8) return undefined;
  const span = spans[Math.floor(spans.length / 2)]!;
  const variants = [span.word, "garden", "plot", "yard", "border"].map(
    (word) => `${sentence.slice(0, span.index)}${word}${sentence.slice(span.index + span.word.length)}`,
  );
  const planted: Prose = { kind: "prose", text: variants.join(" "), words: 0, sentences: variants };
  return [...paras.slice(0, at + 1), planted, ...paras.slice(at + 1)];
}

const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
const line = (name: string, values: number[]) =>
  `${name}: median ${quantile(values, 0.5).toFixed(1)} %, 90th ${quantile(values, 0.9).toFixed(1)} %, 99th ${quantile(values, 0.99).toFixed(1)} %, max ${Math.max(...values).toFixed(1)} %`;
const failing = (set: Measured[], fails: (m: Measured) => boolean) => {
  const names = set.filter(fails).map((m) => m.name);
  return `${names.length} of ${set.length}${names.length && names.length <= 12 ? `: ${names.join(", ")}` : ""}`;
};

function report(title: string, set: Measured[]): void {
  console.log(`${title} (${set.length})`);
  console.log(
    `  ${line(
      "repeated sentences",
      set.map((m) => m.sentences),
    )}`,
  );
  console.log(
    `  ${line(
      "repeated runs",
      set.map((m) => m.grams),
    )}`,
  );
  console.log(`  longest run of repeating sentences: ${[2, 4, 6].map((r) => `${r}+: ${set.filter((m) => m.run >= r).length}`).join(", ")}`);
  console.log(
    `  most times one sentence is said among ${LOOPS.window + 1} in a row: ${[2, 3, 4, 5].map((r) => `${r}+: ${set.filter((m) => m.said >= r).length}`).join(", ")}`,
  );
  console.log(`  failing no-loops: ${failing(set, (m) => m.loops)}`);
  console.log(`  failing duplicate-sentences: ${failing(set, (m) => m.echoes.length > 0)}`);
  console.log(
    `    of them by a near repeat alone: ${failing(set, (m) => m.echoes.length > 0 && m.echoes.every((e) => e.how === "nearly"))}`,
  );
}

/** Whether a text says a sentence twice as duplicate-sentences read it before labels, lists and entries were told apart: every sentence, whole. */
function saysTwice(paras: readonly Prose[]): boolean {
  const keys = paras.flatMap((p) => p.sentences).map((s) => normaliseSentence(s, "en"));
  return new Set(keys).size < keys.length;
}

const human: Measured[] = [];
let before = 0;
const planted = { four: [] as Measured[], three: [] as Measured[], variants: [] as Measured[] };
for (const file of texts()) {
  const paras = proseOf(file);
  if (paras.flatMap((p) => p.sentences).length < 20) continue;
  const name = file.includes("node_modules")
    ? path.relative(path.join(ROOT, "node_modules"), path.dirname(file))
    : path.relative(ROOT, file);
  human.push({ name, ...measure(paras) });
  if (saysTwice(paras)) before++;
  planted.four.push({ name, ...measure(plantParagraph(paras, 4)) });
  planted.three.push({ name, ...measure(plantParagraph(paras, 3)) });
  const variants = plantVariants(paras);
  if (variants) planted.variants.push({ name, ...measure(variants) });
}
console.log(
  `runs of ${LOOPS.n} words; a sentence repeats at ${LOOPS.sentenceShare * 100} % of its runs said before, or nearly: ` +
    `at most ${LOOPS.near.changes} words changed and ${LOOPS.near.share} % of the shorter, from ${LOOPS.near.words} words; labels of ${LOOPS.label} words or fewer or ending in a colon apart`,
);
report("human READMEs and docs, 20 sentences and more", human);
console.log(`  failing duplicate-sentences as it read them before (every sentence, whole repeats only): ${before} of ${human.length}`);
report("the same with their middle's longest paragraph said 4 times", planted.four);
report("said 3 times", planted.three);
report("with one sentence of 8 words or more said 5 times, its middle word changed each time", planted.variants);
if (process.argv.includes("--pairs"))
  for (const m of human)
    for (const echo of m.echoes) if (echo.how === "nearly") console.log(`${m.name}: “${echo.sentence}” ~ “${echo.of}”`);
