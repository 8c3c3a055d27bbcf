/**
 * What the on-topic check costs (part of `npm run bench`): loading the word-vector cache, once per
 * process and per analysis worker (a fresh process runs `npm run vectors`'s script, which prints
 * the load), and the check's own CPU per 1,000 words on the articles of test/fixtures/articles/ and
 * on a 240 k-character article (the composting fixture's body said over and over, as
 * docs/performance.md measures the whole analyse), the vectors already loaded.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { countBlocks, readPage } from "../../src/article/existing/page.js";
import { measureArticle } from "../../src/article/report/checks/article.js";
import { onTopicCheck } from "../../src/article/report/checks/on-topic.js";
import { wordVectors } from "../../src/article/text/vectors.js";
import { humanArticles } from "../fixtures/articles.js";
import { f, median, ROOT, sum, type Verdict } from "./common.js";

/** Fresh processes timed loading the cache, and runs of the check per article. */
const LOADS = 3;
const RUNS = 15;
/**
 * Goals: the cache loads well under a second; the check, which matches each distinct word of a part
 * with about 1,000 words (the subject's and the background's), costs under 200 ms per 1,000 words,
 * so an article's report takes a fraction of a second and a 240 k-character analyse stays inside its 10 s.
 */
const GOAL = { loadMs: 1000, perThousandMs: 200 } as const;
/** The long article's size in characters. */
const LONG = 240_000;

/** What the check costs: the cache's load in a fresh process, and CPU ms per 1,000 words on short and long articles. */
export interface OnTopicCost {
  loadMs: number;
  shortMs: number;
  shortWords: number;
  longMs: number;
  longWords: number;
}

/** A Markdown article as the check reads it, under its subject and keyword. */
function articleOf(markdown: string, topic: string, keywords: string) {
  const blocks = countBlocks(readPage({ markdown }).blocks, "en");
  return measureArticle({
    blocks,
    hasTitle: true,
    title: "",
    metaDescription: "",
    slug: "",
    keywords: [keywords],
    about: [topic],
    language: "en",
    headingTags: true,
    preset: "sections",
    targetLength: 0,
  });
}

/** CPU ms of one on-topic verdict on an article, the median of the runs, and its words. */
function perArticle(article: ReturnType<typeof articleOf>): { ms: number; words: number } {
  const runs: number[] = [];
  for (let run = 0; run < RUNS + 2; run++) {
    const start = process.cpuUsage();
    onTopicCheck["on-topic"](article);
    const { user, system } = process.cpuUsage(start);
    if (run >= 2) runs.push((user + system) / 1000);
  }
  return { ms: median(runs), words: article.wordCount };
}

/** The cache's load time in a fresh process, as `npm run vectors` prints it (the cache built first if missing). */
function loadMs(): number {
  const tsx = pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
  const script = path.join(ROOT, "scripts/build-vectors.ts");
  const out = execFileSync(process.execPath, ["--import", tsx, script], { cwd: ROOT, encoding: "utf8" });
  return Number(/loaded in (\d+) ms/u.exec(out)?.[1] ?? Number.NaN);
}

/** The check's costs. */
export function onTopicCosts(): OnTopicCost {
  const load = median(Array.from({ length: LOADS }, loadMs));
  wordVectors();
  const articles = humanArticles();
  const short = articles.map((a) => perArticle(articleOf(a.markdown, a.topic, a.keywords)));
  const composting = articles.find((a) => a.name === "composting")!;
  const body = composting.markdown.replace(/^# .*\n/u, "");
  const long = perArticle(articleOf(body.repeat(Math.ceil(LONG / body.length)).slice(0, LONG), composting.topic, composting.keywords));
  return {
    loadMs: load,
    shortMs: sum(short.map((s) => s.ms)),
    shortWords: sum(short.map((s) => s.words)),
    longMs: long.ms,
    longWords: long.words,
  };
}

/** The costs as verdicts: the load, and the check per 1,000 words on short articles and on a long one. */
export function onTopicVerdicts(c: OnTopicCost): Verdict[] {
  const per = (ms: number, words: number) => (ms * 1000) / Math.max(1, words);
  return [
    {
      target: "on-topic word-vector cache, load in a fresh process",
      goal: `< ${GOAL.loadMs} ms`,
      value: `${f(c.loadMs, 0)} ms`,
      met: c.loadMs < GOAL.loadMs,
      why: `wall, median of ${LOADS} processes (\`npm run vectors\` prints it); once per process and per analysis worker`,
    },
    {
      target: "on-topic check, CPU per 1,000 words, the articles of test/fixtures/articles/",
      goal: `< ${GOAL.perThousandMs} ms`,
      value: `${f(per(c.shortMs, c.shortWords), 2)} ms`,
      met: per(c.shortMs, c.shortWords) < GOAL.perThousandMs,
      why: `median of ${RUNS} runs each, ${c.shortWords} words in all, vectors loaded`,
    },
    {
      target: `on-topic check, CPU per 1,000 words, one ${LONG / 1000} k-character article`,
      goal: `< ${GOAL.perThousandMs} ms`,
      value: `${f(per(c.longMs, c.longWords), 2)} ms`,
      met: per(c.longMs, c.longWords) < GOAL.perThousandMs,
      why: `${f(c.longMs, 0)} ms for its ${c.longWords} words (median of ${RUNS} runs), within the 10 s analyse limit`,
    },
  ];
}
