/**
 * The same requests written by several engines (today's checkout and a previous commit's),
 * each behind its own `inkpress serve` (one thread, one sequence), all up at once and the
 * requests interleaved: for every request, every round, every variant, one engine and then
 * the next, which engine goes first alternating. Machine noise then falls on all of them
 * alike. Each request keeps the quickest of its rounds: the same seed writes the same
 * article, so the rest is noise.
 */
import { generate, serve, type Answer, type Server } from "./checkout.js";
import { f, log, ms, sum, table } from "./common.js";
import type { RawDecoder } from "./raw.js";

/** An engine: a name for the report and the checkout it runs from. */
export interface Engine {
  name: string;
  root: string;
}

/** A variant of every request: its name and the fields it adds. */
export interface Variant {
  name: string;
  fields: object;
}

/** What {@link compare} runs. */
export interface CompareOptions {
  engines: Engine[];
  model: string;
  requests: object[];
  variants: Variant[];
  rounds: number;
  /** Raw decoding of as many tokens as today's engine generated, after each of its answers, as one more row ({@link RAW}). @default none */
  raw?: RawDecoder;
}

/** The row of raw decoding: the prompt, then as many tokens as today's article, no grammar, nothing forced or cut. */
export const RAW = "raw decoding";

/** An answer (its quickest round) and the slowest round's wall over the quickest's: the machine's noise on that request. */
export type Kept = Answer & { spread: number };

/** The answers by engine and variant, one per request (its quickest round), in request order. */
export type Answers = Map<string, Map<string, Kept[]>>;

/** Every request, round and variant on every engine, interleaved, after a warm-up article on each. */
export async function compare({ engines, model, requests, variants, rounds, raw }: CompareOptions): Promise<Answers> {
  const servers: Server[] = await Promise.all(engines.map((e) => serve(e.root, ["--model", model, "--threads", "1", "--sequences", "1"])));
  const rows = raw ? [...engines, { name: RAW, root: "" }] : engines;
  const answers: Answers = new Map(rows.map((e) => [e.name, new Map(variants.map((v) => [v.name, []]))]));
  try {
    for (const server of servers) await generate(server, { ...requests[0], length: 100 });
    for (const [i, request] of requests.entries()) {
      const best = new Map<string, Kept>();
      for (let round = 0; round < rounds; round++) {
        // The engines take turns going first, so an effect of going first falls on each alike.
        const order = (i * rounds + round) % 2 ? [...engines.entries()].reverse() : [...engines.entries()];
        for (const variant of variants) {
          const keep = (name: string, answer: Answer) => {
            const key = `${name}\n${variant.name}`;
            const kept = best.get(key);
            if (!kept) best.set(key, { ...answer, spread: 1 });
            else {
              const [quick, slow] = [Math.min(kept.wallMs, answer.wallMs), Math.max(kept.wallMs * kept.spread, answer.wallMs)];
              best.set(key, { ...(answer.wallMs < kept.wallMs ? answer : kept), spread: slow / quick });
            }
          };
          for (const [k, engine] of order) {
            const answer = await generate(servers[k]!, { ...request, ...variant.fields });
            keep(engine.name, answer);
            if (raw && k === 0) {
              // Today's engine is first in the list: the same tokens, decoded raw, while every server waits.
              const run = await raw.run({ ...request, ...variant.fields }, answer.completionTokens);
              keep(RAW, { ...answer, wallMs: run.wallMs, promptTokens: run.prompt, discarded: {} });
            }
          }
        }
      }
      for (const e of rows)
        for (const v of variants)
          answers
            .get(e.name)!
            .get(v.name)!
            .push(best.get(`${e.name}\n${v.name}`)!);
      log(
        `request ${i + 1} of ${requests.length}: ${rows.map((e) => `${e.name} ${variants.map((v) => ms(best.get(`${e.name}\n${v.name}`)!.wallMs)).join(" / ")}`).join(", ")}`,
      );
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
  }
  return answers;
}

/** A series' figures: wall per article, tokens, words, and what was cut. */
export function totals(answers: Answer[]) {
  const completion = sum(answers.map((a) => a.completionTokens));
  const words = sum(answers.map((a) => a.words));
  const wall = sum(answers.map((a) => a.wallMs));
  const cut = new Map<string, number>();
  for (const a of answers) for (const [reason, n] of Object.entries(a.discarded)) cut.set(reason, (cut.get(reason) ?? 0) + n);
  return {
    articles: answers.length,
    wallPerArticle: wall / answers.length,
    completion,
    prompt: sum(answers.map((a) => a.promptTokens)),
    words,
    perWord: completion / words,
    msPerToken: wall / completion,
    /** Completion tokens cut, by reason, most first. */
    cut: [...cut].sort((a, b) => b[1] - a[1]),
  };
}

/** Two series as ratios (`a` ÷ `b`): wall per article, completion tokens, wall per completion token. */
export function ratios(a: Answer[], b: Answer[]) {
  const [x, y] = [totals(a), totals(b)];
  return {
    wall: x.wallPerArticle / y.wallPerArticle,
    tokens: x.completion / y.completion,
    perToken: x.msPerToken / y.msPerToken,
    perWord: x.perWord / y.perWord,
  };
}

/** The line that says where a wall ratio comes from: tokens, and time per token. */
export function wallWhy(r: ReturnType<typeof ratios>): string {
  return `${f(r.tokens)}× the completion tokens at ${f(r.perToken)}× the wall per token`;
}

/** A row per engine and variant, and today's cut tokens by reason. */
export function answersTable(answers: Answers): string {
  const rows = [...answers].flatMap(([engine, byVariant]) =>
    [...byVariant].map(([variant, list]) => {
      const t = totals(list);
      const cut = sum(t.cut.map(([, n]) => n));
      return [
        engine,
        variant,
        String(t.articles),
        ms(t.wallPerArticle),
        list.map((a) => ms(a.wallMs)).join(", "),
        String(t.completion),
        String(t.words),
        f(t.perWord),
        f(t.msPerToken, 3),
        String(t.prompt),
        `${cut}${
          t.cut.length
            ? ` (${t.cut
                .slice(0, 4)
                .map(([r, n]) => `${r} ${n}`)
                .join(", ")})`
            : ""
        }`,
      ];
    }),
  );
  return table(
    [
      "engine",
      "variant",
      "articles",
      "wall per article",
      "each (quickest round)",
      "completion tokens",
      "body words",
      "completion tokens per body word",
      "ms per completion token",
      "prompt tokens",
      "completion tokens cut (by why)",
    ],
    rows,
  );
}
