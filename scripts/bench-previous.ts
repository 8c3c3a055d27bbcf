/**
 * The comparison with the previous engine (commit PREVIOUS, one call per passage) in the
 * same bench run: that commit checked out and installed beside this one
 * (scripts/bench-baseline.ts), both servers up at once (`inkpress serve`, one thread, one
 * sequence, no probe in either), a warm-up article on each, then the same requests and seeds
 * sent to one and then the other, request by request. Per engine: the client's wall per
 * article, completion and prompt tokens, body words, and today's `usage.discardedTokens`.
 */
import { baselineFolder, serveCheckout, type CheckoutServer } from "./bench-baseline.js";
import { benchArticle, type BenchModel } from "./bench-models.js";
import { API_KEY, coreReserve, log, ms, now, QUICK, remainingMs, ROOT, warmArticle } from "./bench-settings.js";
import type { EngineAnswer, EngineComparison, PreviousRun } from "./bench-types.js";

/** The previous engine: one model call per passage, before the one continuing generation. */
export const PREVIOUS = "d5f32b6";

/** What issue 21 compares: stories260K at 800 words, the SmolLM2 shape at 300. */
const CASES: Array<{ match: RegExp; length: number }> = [
  { match: /stories/i, length: 800 },
  { match: /smollm/i, length: 300 },
];
/** Whether the comparison runs on this model. */
export const compared = (label: string) => CASES.some(({ match }) => match.test(label));

/** Seeds per case: three, one in quick mode. */
const SEEDS = QUICK ? [1] : [1, 2, 3];

/** One article as JSON, timed by the client. */
async function generate(server: CheckoutServer, body: { seed: number }): Promise<EngineAnswer> {
  const t0 = now();
  const response = await fetch(`${server.url}/api/v1/generate`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "x-api-key": API_KEY },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const wallMs = now() - t0;
  if (response.status !== 200) throw new Error(`generate answered ${response.status}: ${text.slice(0, 500)}\n${server.output().slice(-2000)}`);
  const json = JSON.parse(text) as { usage: EngineAnswer["usage"]; article: { wordCount: number } };
  return { seed: body.seed, wallMs, usage: json.usage, words: json.article.wordCount };
}

/** What the rest of the run still needs: the models' core rows when they run after this section. */
interface PreviousOptions {
  models: BenchModel[];
  /** The models whose core rows run after this section. @default none */
  later?: BenchModel[];
}

/** Both engines on one model: warm-up on each, then every seed to today's and then to the previous one. */
async function compare(model: BenchModel, length: number, previousRoot: string, reserveMs: () => number): Promise<EngineComparison> {
  const servers = await Promise.all([ROOT, previousRoot].map((root) => serveCheckout({ root, model: model.path, apiKey: API_KEY })));
  const [today, previous] = servers as [CheckoutServer, CheckoutServer];
  const result: EngineComparison = { model: model.label, length, seeds: [], today: [], previous: [] };
  try {
    await generate(today, warmArticle(7));
    await generate(previous, warmArticle(7));
    let pairMs = 0;
    for (const [i, seed] of SEEDS.entries()) {
      // The first pair always runs; a later one only while the budget covers it and what follows.
      if (i > 0 && remainingMs() - reserveMs() < pairMs) {
        result.skipped = `seeds ${SEEDS.slice(i).join(", ")} of ${SEEDS.join(", ")} (a pair takes about ${ms(pairMs)}; the time budget was spent)`;
        break;
      }
      const t0 = now();
      const request = benchArticle(seed, length);
      result.today.push(await generate(today, request));
      result.previous.push(await generate(previous, request));
      result.seeds.push(seed);
      pairMs = Math.max(pairMs, now() - t0);
      log(`${model.label}: seed ${seed}: today ${ms(result.today.at(-1)!.wallMs)}, ${PREVIOUS} ${ms(result.previous.at(-1)!.wallMs)}`);
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  return result;
}

/** The comparison with {@link PREVIOUS} on the models issue 21 names, those of `models` that are among them. */
export async function previousEngine({ models, later = [] }: PreviousOptions): Promise<PreviousRun> {
  const started = now();
  const run: PreviousRun = { commit: PREVIOUS, cases: [], ms: 0, skipped: [] };
  const picked = CASES.flatMap(({ match, length }) => {
    const model = models.find((m) => match.test(m.label));
    if (!model) run.skipped.push(`${match.source}: not among the models of this run`);
    return model ? [{ model, length }] : [];
  });
  try {
    const root = picked.length ? baselineFolder(PREVIOUS, log) : "";
    const reserveMs = () => (QUICK ? 0 : later.reduce((n, m) => n + coreReserve(m.label), 0));
    for (const { model, length } of picked) {
      log(`${model.label}: today against ${PREVIOUS}, ${length}-word articles, seeds ${SEEDS.join(", ")}, interleaved`);
      run.cases.push(await compare(model, length, root, reserveMs));
    }
  } catch (error) {
    // The rest of the bench still runs and the report names what stopped this section.
    const reason = error instanceof Error ? error.message : String(error);
    log(`the comparison with ${PREVIOUS} failed: ${reason}`);
    run.skipped.push(`failed: ${reason.split("\n")[0]}`);
  }
  run.ms = now() - started;
  return run;
}
