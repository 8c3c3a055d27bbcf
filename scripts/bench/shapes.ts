/**
 * Random-weight GGUF files with the exact tensor shapes, architecture and quantisation
 * of two real instruct models, for `npm run bench`. Decode speed depends on the bytes
 * and the arithmetic per token, not on what the weights mean, so these run as fast as
 * the real files would, and need no download.
 *
 * - SmolLM2-135M-Instruct, Q8_0: llama architecture, n_embd 576, 30 layers, 9 heads,
 *   3 KV heads (head size 64), n_ff 1536, vocab 49152, tied embeddings (no output.weight),
 *   rope theta 100000, RMS eps 1e-5, context 8192.
 * - Qwen2.5-0.5B-Instruct, Q8_0: qwen2 architecture (biases on q, k and v), n_embd 896,
 *   24 layers, 14 heads, 2 KV heads (head size 64), n_ff 4864, vocab 151936, tied
 *   embeddings, rope theta 1e6, RMS eps 1e-6, context 32768.
 *
 * Every 2-D weight is Q8_0 (as llama-quantize's Q8_0 preset writes them, token_embd
 * included); norms and biases are F32. The tokenizer is a SentencePiece-style "llama"
 * vocabulary of the exact size, with ChatML control tokens and each model's chat template,
 * so the server prompts them through the chat path like the real instruct models. Like a
 * real vocabulary it holds common words whole: nearly half of it is the English words and
 * punctuation runs README prose in node_modules uses most. The rest is pseudo-words, some
 * ending in a comma or a full stop (followed by a capitalised word), so sampled text forms
 * sentences of about 17 words that the engine's sentence handling treats like real prose.
 * Every token comes with its prefixes, so text tokenizes into the tokens it was sampled as:
 * a title the model wrote costs as many tokens when code forces it again, as with a real
 * tokenizer. Only the pseudo-words and the test model's words are sampled: every other
 * embedding row is zero (tied embeddings: its logit is always 0), so top-k never picks it.
 *
 * Until format 2 (2026-11-29) the vocabulary held only the test model's 405 words whole:
 * the prompt's other words, JSON's labels and every word the model wrote cost a token a
 * character when evaluated as text (the 158-token prompt was 99 tokens on format 2).
 *
 * Files are written once into `os.tmpdir()/inkpress-bench` and reused (about 140 MB and 530 MB;
 * never committed).
 *
 * Usage: tsx scripts/bench/shapes.ts   (writes the files if missing, prints their paths)
 */
import { existsSync } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { fills, gguf, mulberry32, writeGguf, type GgufTensor, type GgufValue } from "../gguf.js";
import { BYTE, CONTROL, NORMAL, QWEN25_CHAT_TEMPLATE, SPACE, UNKNOWN, WORDS, type Vocabulary } from "../make-test-model.js";
import { readme, readmePackages } from "../fixtures/readmes.js";
import { BENCH_DIR } from "./common.js";

/** Bump when the generated files change, so stale caches are not reused. */
const FORMAT_VERSION = 2;

/** The shape of a real model, as in its config.json. */
export interface ModelSpec {
  /** File-name stem; node-llama-cpp reads hints from it like it would from the real file's name. */
  id: string;
  /** `general.name`, as the real GGUF has it. */
  name: string;
  arch: "llama" | "qwen2";
  embedding: number;
  blocks: number;
  heads: number;
  headsKv: number;
  feedForward: number;
  vocab: number;
  contextLength: number;
  ropeTheta: number;
  rmsEps: number;
  /** Biases on the q, k and v projections (Qwen2). */
  qkvBias: boolean;
  chatTemplate: string;
}

/** A benchmark model on disk. */
export interface BenchModel {
  label: string;
  path: string;
  bytes: number;
}

/** SmolLM2-135M-Instruct's chat template (tokenizer_config.json), verbatim. */
const SMOLLM2_TEMPLATE =
  "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\n" +
  "You are a helpful AI assistant named SmolLM, trained by Hugging Face<|im_end|>\n' }}{% endif %}" +
  "{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}";

/** SmolLM2-135M-Instruct's shape: a 49,152-token vocabulary, the small end of what users run. */
const SMOLLM2_135M: ModelSpec = {
  id: "SmolLM2-135M-Instruct-Q8_0",
  name: "SmolLM2 135M Instruct",
  arch: "llama",
  embedding: 576,
  blocks: 30,
  heads: 9,
  headsKv: 3,
  feedForward: 1536,
  vocab: 49152,
  contextLength: 8192,
  ropeTheta: 100_000,
  rmsEps: 1e-5,
  qkvBias: false,
  chatTemplate: SMOLLM2_TEMPLATE,
};

/** Qwen2.5-0.5B-Instruct's shape: a 151,936-token vocabulary. */
const QWEN25_05B: ModelSpec = {
  id: "Qwen2.5-0.5B-Instruct-Q8_0",
  name: "Qwen2.5 0.5B Instruct",
  arch: "qwen2",
  embedding: 896,
  blocks: 24,
  heads: 14,
  headsKv: 2,
  feedForward: 4864,
  vocab: 151936,
  contextLength: 32768,
  ropeTheta: 1_000_000,
  rmsEps: 1e-6,
  qkvBias: true,
  chatTemplate: QWEN25_CHAT_TEMPLATE,
};

/** Every shape the bench can write, by the name `BENCH_SHAPES` takes. */
export const BENCH_SPECS = { smollm2: SMOLLM2_135M, qwen: QWEN25_05B } as const;

/** Write (or reuse) the file of one spec; resolves to where it is. */
export async function ensureBenchModel(spec: ModelSpec, dir = BENCH_DIR, log: (line: string) => void = () => {}): Promise<BenchModel> {
  await mkdir(dir, { recursive: true });
  const file = path.join(dir, `${spec.id}.random-v${FORMAT_VERSION}.gguf`);
  if (!existsSync(file)) {
    const started = performance.now();
    log(`writing ${file} (once; later runs reuse it)…`);
    const partial = `${file}.partial-${process.pid}`;
    try {
      await writeGguf(partial, { metadata: metadata(spec), tensors: tensors(spec), seed: 1234 });
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
    log(`  written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const bytes = (await stat(file)).size;
  return { label: spec.id, path: file, bytes };
}

// --- tensors --------------------------------------------------------------------------

/** Every tensor of a spec, Q8_0 matrices and F32 norms and biases. */
function tensors(spec: ModelSpec): GgufTensor[] {
  const { embedding: d, feedForward: ff, heads, headsKv } = spec;
  const kv = (d / heads) * headsKv;
  // Uniform weights of ~1/sqrt(n_embd): each layer adds an O(1) change to the residual stream.
  const weight = fills.uniform(1.2 / Math.sqrt(d));
  const bias = fills.uniform(0.02);
  const one = fills.constant(1);
  const matrix = (name: string, shape: number[]): GgufTensor => ({ name, shape, type: "Q8_0", fill: weight });
  const vector = (name: string, length: number, fill = one): GgufTensor => ({ name, shape: [length], type: "F32", fill });
  const blocks: GgufTensor[] = [];
  for (let i = 0; i < spec.blocks; i++) {
    const p = `blk.${i}`;
    blocks.push(
      vector(`${p}.attn_norm.weight`, d),
      matrix(`${p}.attn_q.weight`, [d, d]),
      ...(spec.qkvBias ? [vector(`${p}.attn_q.bias`, d, bias)] : []),
      matrix(`${p}.attn_k.weight`, [d, kv]),
      ...(spec.qkvBias ? [vector(`${p}.attn_k.bias`, kv, bias)] : []),
      matrix(`${p}.attn_v.weight`, [d, kv]),
      ...(spec.qkvBias ? [vector(`${p}.attn_v.bias`, kv, bias)] : []),
      matrix(`${p}.attn_output.weight`, [d, d]),
      vector(`${p}.ffn_norm.weight`, d),
      matrix(`${p}.ffn_gate.weight`, [d, ff]),
      matrix(`${p}.ffn_up.weight`, [d, ff]),
      matrix(`${p}.ffn_down.weight`, [ff, d]),
    );
  }
  // Tied embeddings: token_embd is also the output matrix. Logits are h·row with h of unit RMS,
  // so rows of RMS 2.3/sqrt(d) give logits of standard deviation ~2.3: a varied top-40.
  const { emitted } = vocabulary(spec);
  const embed = fills.uniform((2.3 * Math.sqrt(3)) / Math.sqrt(d));
  return [
    {
      name: "token_embd.weight",
      shape: [d, spec.vocab],
      type: "Q8_0",
      fill: (random, index) => (emitted[Math.floor(index / d)] ? embed(random, index) : 0),
    },
    ...blocks,
    vector("output_norm.weight", d),
  ];
}

// --- metadata and vocabulary ------------------------------------------------------------

function metadata(spec: ModelSpec): Array<[string, GgufValue]> {
  const a = spec.arch;
  const vocab = vocabulary(spec);
  const id = (token: string) => vocab.tokens.indexOf(token);
  return [
    ["general.architecture", gguf.string(a)],
    ["general.name", gguf.string(spec.name)],
    ["general.alignment", gguf.uint32(32)],
    ["general.file_type", gguf.uint32(7)], // LLAMA_FTYPE_MOSTLY_Q8_0
    ["general.quantization_version", gguf.uint32(2)],
    [`${a}.vocab_size`, gguf.uint32(spec.vocab)],
    [`${a}.context_length`, gguf.uint32(spec.contextLength)],
    [`${a}.embedding_length`, gguf.uint32(spec.embedding)],
    [`${a}.block_count`, gguf.uint32(spec.blocks)],
    [`${a}.feed_forward_length`, gguf.uint32(spec.feedForward)],
    [`${a}.attention.head_count`, gguf.uint32(spec.heads)],
    [`${a}.attention.head_count_kv`, gguf.uint32(spec.headsKv)],
    [`${a}.rope.dimension_count`, gguf.uint32(spec.embedding / spec.heads)],
    [`${a}.rope.freq_base`, gguf.float32(spec.ropeTheta)],
    [`${a}.attention.layer_norm_rms_epsilon`, gguf.float32(spec.rmsEps)],
    ["tokenizer.ggml.model", gguf.string("llama")],
    ["tokenizer.ggml.tokens", gguf.strings(vocab.tokens)],
    // SPM merges the pair that makes the highest-scoring token first: the longest, so a word grows from its start.
    ["tokenizer.ggml.scores", gguf.float32s(vocab.tokens.map((token) => [...token].length))],
    ["tokenizer.ggml.token_type", gguf.int32s(vocab.types)],
    ["tokenizer.ggml.unknown_token_id", gguf.uint32(id("<unk>"))],
    ["tokenizer.ggml.bos_token_id", gguf.uint32(id("<|endoftext|>"))],
    ["tokenizer.ggml.eos_token_id", gguf.uint32(id("<|im_end|>"))],
    ["tokenizer.ggml.padding_token_id", gguf.uint32(id("<|endoftext|>"))],
    // Neither real model adds a BOS token; the chat template opens with <|im_start|>.
    ["tokenizer.ggml.add_bos_token", gguf.bool(false)],
    ["tokenizer.ggml.add_eos_token", gguf.bool(false)],
    ["tokenizer.chat_template", gguf.string(spec.chatTemplate)],
  ];
}

const vocabularies = new Map<number, Vocabulary>();

function vocabulary(spec: ModelSpec): Vocabulary {
  let found = vocabularies.get(spec.vocab);
  if (found) return found;
  const tokens = ["<unk>", "<|endoftext|>", "<|im_start|>", "<|im_end|>"];
  const types = [UNKNOWN, CONTROL, CONTROL, CONTROL];
  const emitted = [false, false, false, false];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(BYTE);
    emitted.push(false);
  }
  const taken = new Set(tokens);
  const add = (piece: string, emit: boolean) => {
    if (taken.has(piece)) return;
    taken.add(piece);
    tokens.push(piece);
    types.push(NORMAL);
    emitted.push(emit);
  };
  // llama.cpp's SPM tokenizer merges two pieces only when the merged text is a token, so a token
  // needs its prefixes for text to tokenize into it again, as a real tokenizer's text does.
  const addWhole = (token: string, emit: boolean) => {
    for (let end = 2; end < token.length; end++) add(token.slice(0, end), false);
    add(token, emit);
  };
  const missing = (token: string) =>
    Array.from({ length: token.length - 1 }, (_, i) => token.slice(0, i + 2)).filter((t) => !taken.has(t)).length;
  for (const c of [SPACE, ...CHARACTERS]) add(c, false);
  // The test model's words, which stories use: prompts take about one token per word, like real tokenizers.
  for (const word of WORDS) {
    addWhole(SPACE + word, true);
    addWhole(SPACE + word[0]!.toUpperCase() + word.slice(1), false);
  }
  // Nearly half the vocabulary is what README prose in node_modules uses most, held whole (and never
  // sampled): English words, the commonest also capitalised and without their space (after a quotation
  // mark or a bracket), and runs of punctuation. A real 49k-token vocabulary spells "description",
  // "Conclusion" or `":` as one token, not character by character.
  const { words, punctuation } = readmeText();
  for (const run of ["\n", "\n\n", ...punctuation.slice(0, 200)]) add(run, false);
  for (const word of words.slice(0, 1000)) {
    addWhole(SPACE + word[0]!.toUpperCase() + word.slice(1), false);
    addWhole(word, false);
  }
  for (const word of words) if (tokens.length + missing(SPACE + word) <= spec.vocab * 0.45) addWhole(SPACE + word, false);
  // Pad to the exact size with pseudo-words: 7 % end in a comma, 6 % end a sentence.
  const random = mulberry32(spec.vocab);
  const pseudo = () => {
    let w = "";
    const syllables = 1 + Math.floor(random() * 3);
    for (let s = 0; s < syllables; s++) {
      w += CONSONANTS[Math.floor(random() * CONSONANTS.length)]! + VOWELS[Math.floor(random() * VOWELS.length)]!;
      if (random() < 0.3) w += CONSONANTS[Math.floor(random() * CONSONANTS.length)]!;
    }
    return w;
  };
  let filler = 0;
  while (tokens.length < spec.vocab) {
    const r = random();
    const word = pseudo();
    const next = pseudo();
    const token =
      r < 0.07 ? `${SPACE}${word},` : r < 0.13 ? `${SPACE}${word}.${SPACE}${next[0]!.toUpperCase()}${next.slice(1)}` : `${SPACE}${word}`;
    // The last few places, where a pseudo-word's prefixes no longer fit: tokens no text holds.
    if (tokens.length + missing(token) <= spec.vocab) addWhole(token, true);
    else add(`<fill ${filler++}>`, false);
  }
  if (tokens.length !== spec.vocab) throw new Error(`vocabulary of ${tokens.length}, want ${spec.vocab}`);
  found = { tokens, types, emitted };
  vocabularies.set(spec.vocab, found);
  return found;
}

/**
 * English words, and runs of two or three punctuation marks, by how often the README prose in
 * node_modules uses them, most used first (the lockfile fixes which READMEs there are).
 */
function readmeText(): { words: string[]; punctuation: string[] } {
  const words = new Map<string, number>();
  const punctuation = new Map<string, number>();
  const count = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const pkg of readmePackages(0)) {
    const text = readme(pkg);
    for (const word of text.toLowerCase().match(/\b[a-z]{2,14}\b/g) ?? []) count(words, word);
    for (const run of text.match(/[^\p{L}\p{N}\s]{2,3}/gu) ?? []) count(punctuation, run);
  }
  const ranked = (counts: Map<string, number>) =>
    [...counts]
      .filter(([, n]) => n >= 3)
      .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
      .map(([key]) => key);
  return { words: ranked(words), punctuation: ranked(punctuation) };
}

const CONSONANTS = "bcdfghjklmnprstvwz";
const VOWELS = "aeiou";
const CHARACTERS = Array.from("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,!?:;'\"()-/%&+=#*_`<>[]{}|\\@$^~");

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  for (const spec of Object.values(BENCH_SPECS)) {
    const model = await ensureBenchModel(spec, BENCH_DIR, (line) => console.error(line));
    console.log(`${model.path}\t${(model.bytes / 1e6).toFixed(1)} MB`);
  }
}
