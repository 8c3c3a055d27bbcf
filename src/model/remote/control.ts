import * as v from "valibot";
import { ModelLoadError } from "../errors.js";
import type { CompletionStep } from "./server.js";
import type { Upstream } from "./upstream.js";

const Models = v.object({ data: v.array(v.object({ meta: v.optional(v.object({ n_vocab: v.number() })) })) });
const Tokens = v.object({ tokens: v.array(v.number()) });
const Text = v.object({ content: v.string() });

/** Candidates checked at once: a few requests each, on a server that also serves articles. */
const BATCH = 16;

/**
 * The ids of a llama-server model's control tokens, end of generation excepted: every
 * grammar-constrained step bans them. A grammar built from request text may hold `<|im_start|>`
 * as characters, and llama.cpp's grammar sampler accepts the control token whose text matches
 * them: request text would become a control token in the answer, and in every later prompt.
 * End of generation stays: the grammar lets it through only where it may end.
 *
 * llama-server names no token's kind, so its tokenizer tells, once per connection: the whole
 * vocabulary detokenized into one text holds every control token's text; tokenized again with
 * control tokens parsed, it gives ids that the same text tokenized without does not. Each such id
 * is a control token where its own text gives it back with control tokens parsed, and not without.
 */
export async function controlTokenIds(upstream: Upstream, eos: string | undefined): Promise<number[]> {
  const size = await vocabularySize(upstream);
  const tokenize = async (content: string, special: boolean) =>
    v.parse(Tokens, await upstream.json("/tokenize", { content, add_special: false, parse_special: special })).tokens;
  const detokenize = async (tokens: number[]) => v.parse(Text, await upstream.json("/detokenize", { tokens })).content;
  const vocabulary = await detokenize(Array.from({ length: size }, (_, id) => id));
  const [parsed, plain] = await Promise.all([tokenize(vocabulary, true), tokenize(vocabulary, false)]);
  const seen = new Set(plain);
  const candidates = [...new Set(parsed.filter((id) => !seen.has(id)))];
  const [end] = eos ? await tokenize(eos, true) : [];
  const isControl = async (id: number) => {
    const text = await detokenize([id]);
    const [special, literal] = await Promise.all([tokenize(text, true), tokenize(text, false)]);
    return special.length === 1 && special[0] === id && !(literal.length === 1 && literal[0] === id);
  };
  const control: number[] = [];
  for (let i = 0; i < candidates.length; i += BATCH) {
    const batch = candidates.slice(i, i + BATCH);
    const verdicts = await Promise.all(batch.map(isControl));
    control.push(...batch.filter((id, j) => verdicts[j] && id !== end));
  }
  return control.sort((a, b) => a - b);
}

/** The separator between tokens' texts: a control character that neither prose nor any grammar step's text holds. */
const MARK = "\u0001";

/** The model's vocabulary size, which llama-server reports in `/v1/models`. */
async function vocabularySize(upstream: Upstream, signal?: AbortSignal): Promise<number> {
  const models = v.safeParse(Models, await upstream.json("/v1/models", undefined, signal));
  const size = models.success ? models.output.data[0]?.meta?.n_vocab : undefined;
  if (size === undefined) {
    throw new ModelLoadError(
      `${upstream.base.origin} does not report its vocabulary size (meta.n_vocab in /v1/models), which inkpress needs to keep request text from becoming ` +
        `control tokens`,
    );
  }
  return size;
}

/**
 * The ids of a grammar step's bans on a llama-server model, by the step's `impossible` pattern: its
 * control tokens, and every token whose text matches the pattern. Every token's text comes in one
 * request, once per connection: the vocabulary detokenized with the token of a control character
 * no text holds ({@link MARK}) between each two, split on it. Where that cannot be read back (the
 * character is no one token, or a token's own text holds it), the bans are the control tokens alone.
 * End of generation (`eos`, its text) is never banned.
 */
export function stepBans(
  upstream: Upstream,
  controlIds: readonly number[],
  eos: string | undefined,
): (impossible?: RegExp, signal?: AbortSignal) => Promise<readonly number[]> {
  let texts: Promise<string[] | undefined> | undefined;
  const bans = new Map<string, readonly number[]>();
  const read = async (signal?: AbortSignal): Promise<string[] | undefined> => {
    const detokenize = async (tokens: number[]) => v.parse(Text, await upstream.json("/detokenize", { tokens }, signal)).content;
    // A SentencePiece tokenizer puts a space before the character: its own token is the last.
    const marked = v.parse(Tokens, await upstream.json("/tokenize", { content: MARK, add_special: false, parse_special: false }, signal));
    const separator = marked.tokens.at(-1);
    if (separator === undefined || (await detokenize([separator])) !== MARK) return undefined;
    // Every other token, each followed by the separator; the separator's own text is the mark.
    const ids = Array.from({ length: await vocabularySize(upstream, signal) }, (_, id) => id).filter((id) => id !== separator);
    const parts = (await detokenize(ids.flatMap((id) => [id, separator]))).split(MARK);
    if (parts.length !== ids.length + 1) return undefined;
    const texts: string[] = [];
    for (const [i, id] of ids.entries()) texts[id] = parts[i]!;
    texts[separator] = MARK;
    return texts;
  };
  return async (impossible, signal) => {
    if (!impossible) return controlIds;
    const found = bans.get(impossible.source);
    if (found) return found;
    texts ??= read(signal).catch((error: unknown) => {
      texts = undefined;
      throw error;
    });
    const all = await texts;
    // End of generation stays, whatever its text: where a grammar is complete it is the only token left.
    const banned = (text: string, id: number) => text !== eos && impossible.test(text) && !controlIds.includes(id);
    const ids = all ? [...controlIds, ...all.flatMap((text, id) => (banned(text, id) ? [id] : []))] : controlIds;
    bans.set(impossible.source, ids);
    return ids;
  };
}

/**
 * llama-server's `logit_bias` (in `/completion` and `/v1/completions` alike) that bans the step's control tokens (false: never sampled);
 * nothing where it bans none.
 */
export function banned(step: CompletionStep): { logit_bias?: [number, false][] } {
  return step.banned && step.banned.length > 0 ? { logit_bias: step.banned.map((id) => [id, false]) } : {};
}
