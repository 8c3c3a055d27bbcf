/**
 * The engine's own time per token, in-process and without a model: `writeArticle` on the
 * scripted fake backend (scripts/fixtures/fake-backend.ts), whose writer yields one token-sized
 * piece (a word with the space before it) at a time, once writing 30-word sentences and
 * once 5-word ones. The body pass's CPU time (the process's, so other work on a shared
 * machine does not count) from the outline to the last sentence, less what the fake writer
 * itself costs per piece, over the tokens generated in between: whether the engine's work
 * per token grows with the length of the sentence being written.
 */
import type { Writer } from "../src/model/backend.js";
import { writeArticle } from "../src/article/article.js";
import { FakeBackend } from "./fixtures/fake-backend.js";
import { FakeWriter, scripted, tokens } from "./fixtures/fake-writer.js";
import { median, normalised, QUICK } from "./bench-settings.js";
import type { TokenCost } from "./bench-types.js";

/** Sentence lengths compared, in words. */
const LENGTHS = [5, 30] as const;
const OPENERS = ["Often", "Usually", "Sometimes", "Later", "Today", "Meanwhile", "Ideally", "Naturally", "Eventually", "Clearly", "Typically"];
const WORDS = (
  "home gardeners city growers careful beginners busy families school groups allotment keepers patient farmers weekend helpers " +
  "add turn check water cover sort gather dry leaves coffee grounds grass clippings vegetable peelings shredded cardboard eggshell " +
  "pieces straw bundles wood chips near the garden shed before first frost after heavy rain early morning steady hand"
).split(" ");

/**
 * Endless distinct sentences of `words` words: the openers and the word list have coprime
 * lengths, so no sentence repeats within an article and neighbours never open alike.
 */
function* sentencesOf(words: number): Generator<string> {
  for (let n = 0; ; n++) {
    const rest = Array.from({ length: words - 1 }, (_, j) => WORDS[(n * 7 + j * 13) % WORDS.length]!);
    yield `${OPENERS[n % OPENERS.length]} ${rest.join(" ")}.`;
  }
}

/** The article both lengths write: the bench's request shape, body only steered by its keywords. */
const request = () => normalised({ topic: "Home composting for beginners", length: QUICK ? 600 : 1500, structure: "sections", seed: 1, seo: { keywords: "compost bin, garden waste" } });

/** The process's CPU time, ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** One article: body CPU time and generated tokens from the outline to the last sentence kept. */
async function bodyRun(words: number): Promise<{ ms: number; tokens: number }> {
  const backend = new FakeBackend({ prose: () => sentencesOf(words) });
  let writer: Writer | undefined;
  const borrow = backend.writer.bind(backend);
  backend.writer = async (signal) => (writer = await borrow(signal));
  let start = { t: 0, tokens: 0 };
  let end = start;
  const mark = () => ({ t: cpuMs(), tokens: writer!.usage.completionTokens });
  await writeArticle(request(), { backend, onOutline: () => (start = end = mark()), onWords: () => (end = mark()) });
  await backend.dispose();
  return { ms: end.t - start.t, tokens: end.tokens - start.tokens };
}

/** What the fake writer alone costs per piece, in ms: the same sentences yielded and read, no engine. */
async function writerAlone(words: number, pieces: number): Promise<number> {
  const source = sentencesOf(words);
  const text: string[] = [];
  while (text.length < pieces) text.push(...tokens(` ${source.next().value!}`));
  const writer = new FakeWriter(scripted([{ pieces: text }]));
  const t0 = cpuMs();
  let n = 0;
  for await (const _ of writer.generate({ maxTokens: pieces, seed: 1 })) n++;
  return (cpuMs() - t0) / Math.max(1, n);
}

/** The engine's own µs per token with 5-word and with 30-word sentences, the runs interleaved, after a warm-up of each. */
export async function engineTokenCost(): Promise<TokenCost[]> {
  const runs = QUICK ? 3 : 7;
  for (const words of LENGTHS) await bodyRun(words);
  const samples = new Map<number, Array<{ ms: number; tokens: number }>>(LENGTHS.map((w) => [w, []]));
  for (let i = 0; i < runs; i++) for (const words of LENGTHS) samples.get(words)!.push(await bodyRun(words));
  const costs: TokenCost[] = [];
  for (const words of LENGTHS) {
    const list = samples.get(words)!;
    const tokens = median(list.map((r) => r.tokens));
    const alone: number[] = [];
    for (let i = 0; i < 3; i++) alone.push(await writerAlone(words, tokens));
    const writerMs = median(alone);
    const perToken = list.map((r) => (r.ms / r.tokens - writerMs) * 1000);
    costs.push({ words, tokens, usPerToken: median(perToken), runs: perToken, writerUsPerToken: writerMs * 1000 });
  }
  return costs;
}
