/**
 * What a house voice costs (part of `npm run bench`; alone: `npx tsx scripts/bench/voice.ts`): the
 * same articles with and without the en-GB voice of test/fixtures/voices/short-you, interleaved,
 * on today's `inkpress serve` with the bench's model (stories260K: no chat template, so the voice's
 * note is not in its prompt), with the ChatML test model (the note in the system message) and,
 * but with BENCH_QUICK, with the random-weight SmolLM2-135M shape (a real 49,152-token vocabulary):
 * the prompt tokens the voice adds per article, and the wall per article with it ÷ without.
 */
import { readdirSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { learnVoiceFiles } from "../../src/voice/files.js";
import { writeTestModel } from "../make-test-model.js";
import { generate, serve, type Answer } from "./checkout.js";
import { article, atMost, countAtMost, f, median, MODEL, ms, QUICK, ROOT, sum, type Verdict } from "./common.js";
import { BENCH_SPECS, ensureBenchModel } from "./shapes.js";

/** Seeds, and rounds of each request (its quickest counting), per model. */
const S = QUICK ? { seeds: [1], rounds: 1, length: 150 } : { seeds: [1, 2, 3], rounds: 2, length: 300 };
/**
 * Goals: the voice's note (at most 480 characters) adds at most 250 prompt tokens, about 2 characters
 * a token in the test model's small vocabulary (about 120 on a 32k-token one); its grammars and
 * sentence-length steering cost at most half again the article's wall.
 */
const GOAL = { promptTokens: 250, wall: 1.5 } as const;

/** One model's articles with and without the voice. */
export interface VoiceCost {
  model: string;
  plain: Answer[];
  voiced: Answer[];
}

/** The quickest of `rounds` answers to one request. */
async function quickest(run: () => Promise<Answer>): Promise<Answer> {
  const answers: Answer[] = [];
  for (let round = 0; round < S.rounds; round++) answers.push(await run());
  return answers.reduce((a, b) => (b.wallMs < a.wallMs ? b : a));
}

/** Each model's articles with and without the voice, the two interleaved request by request. */
export async function voiceCosts(): Promise<VoiceCost[]> {
  const dir = path.join(ROOT, "test/fixtures/voices/short-you");
  const { profile } = await learnVoiceFiles(
    readdirSync(dir)
      .sort()
      .map((file) => path.join(dir, file)),
    "house",
  );
  const chat = await writeTestModel({
    path: path.join(await mkdtemp(path.join(os.tmpdir(), "inkpress-bench-voice-")), "chat.gguf"),
    variant: "chat",
  });
  const shapes = QUICK ? [] : [(await ensureBenchModel(BENCH_SPECS.smollm2)).path];
  const costs: VoiceCost[] = [];
  for (const model of [MODEL, chat, ...shapes]) {
    const server = await serve(ROOT, ["--model", model, "--threads", "1", "--sequences", "1"]);
    const cost: VoiceCost = { model: path.basename(model, ".gguf"), plain: [], voiced: [] };
    try {
      for (const seed of S.seeds) {
        cost.plain.push(await quickest(() => generate(server, article(seed, S.length))));
        cost.voiced.push(await quickest(() => generate(server, article(seed, S.length, { style: { voice: profile } }))));
      }
    } finally {
      await server.stop();
    }
    costs.push(cost);
  }
  return costs;
}

/** The voice's prompt tokens and wall against its goals, per model. */
export function voiceVerdicts(costs: VoiceCost[]): Verdict[] {
  return costs.flatMap(({ model, plain, voiced }) => {
    const added = voiced.map((a, i) => a.promptTokens - plain[i]!.promptTokens);
    const wall = median(voiced.map((a, i) => a.wallMs / plain[i]!.wallMs));
    const each = (xs: Answer[]) => xs.map((a) => ms(a.wallMs)).join(", ");
    return [
      countAtMost(
        `prompt tokens a house voice adds per ${S.length}-word article, ${model}`,
        median(added),
        GOAL.promptTokens,
        `median; each ${added.join(", ")} (${plain.map((a) => a.promptTokens).join(", ")} without)`,
      ),
      atMost(
        `wall per ${S.length}-word article with a house voice ÷ without, ${model}`,
        wall,
        GOAL.wall,
        `median of ${voiced.length}; with ${each(voiced)}, without ${each(plain)}; ${sum(voiced.map((a) => a.discarded["sentence-length"] ?? 0))} tokens cut to the voice's sentence length`,
      ),
    ];
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const costs = await voiceCosts();
  for (const v of voiceVerdicts(costs)) console.log(`${v.target}: ${v.value} (goal ${v.goal}) ${v.met ? "met" : "not met"}; ${v.why}`);
  for (const { model, plain, voiced } of costs)
    console.log(
      `${model}: body words ${plain.map((a) => a.words).join(", ")} without, ${voiced.map((a) => a.words).join(", ")} with; completion tokens per word ${f(sum(plain.map((a) => a.completionTokens)) / sum(plain.map((a) => a.words)))} without, ${f(sum(voiced.map((a) => a.completionTokens)) / sum(voiced.map((a) => a.words)))} with`,
    );
  console.log(
    `machine: ${os.availableParallelism()} cores; load average ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")}`,
  );
}
