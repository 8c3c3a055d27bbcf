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
  const models = v.safeParse(Models, await upstream.json("/v1/models"));
  const size = models.success ? models.output.data[0]?.meta?.n_vocab : undefined;
  if (size === undefined) {
    throw new ModelLoadError(
      `${upstream.base.origin} does not report its vocabulary size (meta.n_vocab in /v1/models), which inkpress needs to keep request text from becoming control tokens`,
    );
  }
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

/** llama-server's `logit_bias` (in `/completion` and `/v1/completions` alike) that bans the step's control tokens (false: never sampled); nothing where it bans none. */
export function banned(step: CompletionStep): { logit_bias?: [number, false][] } {
  return step.banned && step.banned.length > 0 ? { logit_bias: step.banned.map((id) => [id, false]) } : {};
}
