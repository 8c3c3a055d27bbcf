/**
 * `npx tsx scripts/loops.ts [ROOT]`: how much stories260K repeats itself over 6 articles of
 * 800 words on unrelated topics, through `inkpress serve` of ROOT (this checkout by default;
 * give another checkout's files to measure it before a change). Prints each article's
 * repeated sentences, as the report's no-loops check counts them (plan/limits.ts LOOPS), those
 * said again with a word or two changed, the tokens the gate cut as near-duplicates, and the
 * share over all six.
 */
import { readPage, countBlocks } from "../src/article/existing/page.js";
import { LOOPS } from "../src/article/plan/limits.js";
import { repetition } from "../src/article/text/repeats.js";
import { API_KEY, MODEL, ROOT } from "./bench/common.js";
import { serve } from "./bench/checkout.js";

/** Six topics a children's-story model knows nothing of. */
export const UNRELATED_TOPICS = [
  "Home composting",
  "Tax returns for freelancers",
  "Choosing a mortgage",
  "Learning SQL joins",
  "Kubernetes autoscaling",
  "Sourdough baking",
];

const root = process.argv[2] ?? ROOT;
const server = await serve(root, ["--model", MODEL]);
let sentences = 0;
let repeats = 0;
let near = 0;
let refused = 0;
let generated = 0;
try {
  for (const [i, topic] of UNRELATED_TOPICS.entries()) {
    const response = await fetch(`${server.url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", "x-api-key": API_KEY },
      body: JSON.stringify({ topic, length: 800, seed: i + 1 }),
    });
    if (response.status !== 200) throw new Error(`generate answered ${response.status}: ${await response.text()}`);
    const { article, seo, usage } = (await response.json()) as {
      article: { markdown: string };
      usage: { completionTokens: number; discardedTokens: Record<string, number> };
      seo?: { score: number; checks: Array<{ id: string; passed: boolean | null; message: string }> };
    };
    const onTopic = seo?.checks.find((check) => check.id === "on-topic");
    if (onTopic) console.log(`${topic}: score ${seo!.score}, on-topic ${String(onTopic.passed)}: ${onTopic.message}`);
    const blocks = countBlocks(readPage({ markdown: article.markdown }).blocks, "en");
    const measured = repetition(
      blocks.flatMap((block) => (block.kind === "prose" ? [block] : [])),
      { language: "en", ...LOOPS, share: LOOPS.sentenceShare },
    );
    const nearly = measured.echoes.filter((echo) => echo.how === "nearly");
    sentences += measured.sentences;
    repeats += measured.repeats.length;
    near += nearly.length;
    refused += usage.discardedTokens["near-duplicate"] ?? 0;
    generated += usage.completionTokens;
    console.log(
      `${topic}: ${measured.repeats.length} of ${measured.sentences} sentences repeat (${((100 * measured.repeats.length) / measured.sentences).toFixed(1)} %), ` +
        `${nearly.length} nearly${nearly[0] ? ` (first: “${nearly[0].sentence}” ~ “${nearly[0].of}”)` : ""}; ` +
        `${usage.discardedTokens["near-duplicate"] ?? 0} of ${usage.completionTokens} tokens cut as near-duplicate`,
    );
  }
} finally {
  await server.stop();
}
console.log(
  `all six: ${repeats} of ${sentences} sentences repeat (${((100 * repeats) / sentences).toFixed(1)} %), ${near} nearly; ` +
    `${refused} of ${generated} generated tokens cut as near-duplicate`,
);
