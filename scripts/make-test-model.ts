/**
 * Writes a tiny random-weight llama GGUF (~1 MB) that node-llama-cpp loads and
 * runs, for tests that need a real model without downloading one.
 *
 * Usage: tsx scripts/make-test-model.ts OUT.gguf [--chat]
 */
import { mkdir } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { fills, gguf, writeGguf, type GgufTensor, type GgufValue } from "./gguf.js";

/** Options of `writeTestModel`. */
export interface TestModelOptions {
  path: string;
  /** "chat" adds ChatML control tokens and Qwen2.5-Instruct's chat template. */
  variant: "plain" | "chat";
  /** PRNG seed for the weights. @default 42 */
  seed?: number;
}

/** Writes the test model and resolves to its absolute path. */
export async function writeTestModel(options: TestModelOptions): Promise<string> {
  const path = resolve(options.path);
  const chat = options.variant === "chat";
  const vocabulary = buildVocabulary(chat);
  await mkdir(dirname(path), { recursive: true });
  await writeGguf(path, {
    metadata: [
      ["general.architecture", gguf.string("llama")],
      ["general.name", gguf.string(chat ? "inkpress-test-tiny-chat" : "inkpress-test-tiny")],
      ["general.alignment", gguf.uint32(32)],
      ["general.file_type", gguf.uint32(0)], // all F32
      ["llama.vocab_size", gguf.uint32(vocabulary.tokens.length)],
      ["llama.context_length", gguf.uint32(2048)],
      ["llama.embedding_length", gguf.uint32(EMBEDDING)],
      ["llama.block_count", gguf.uint32(BLOCKS)],
      ["llama.feed_forward_length", gguf.uint32(FEED_FORWARD)],
      ["llama.attention.head_count", gguf.uint32(HEADS)],
      ["llama.attention.head_count_kv", gguf.uint32(HEADS)],
      ["llama.rope.dimension_count", gguf.uint32(EMBEDDING / HEADS)],
      ["llama.attention.layer_norm_rms_epsilon", gguf.float32(1e-5)],
      ["llama.rope.freq_base", gguf.float32(10000)],
      ...tokenizerMetadata(vocabulary, chat),
    ],
    tensors: tensors(vocabulary),
    seed: options.seed ?? 42,
  });
  return path;
}

const EMBEDDING = 64;
const BLOCKS = 2;
const FEED_FORWARD = 128;
const HEADS = 4;
// Output logits then have a standard deviation of ~2.3: varied words under sampling, no junk tokens.
const OUTPUT_SCALE = 0.5;

/** llama.cpp token attribute types (llama_token_type); the bench's model shapes share them. */
export const NORMAL = 1;
/** See {@link NORMAL}. */
export const UNKNOWN = 2;
/** See {@link NORMAL}. */
export const CONTROL = 3;
/** See {@link NORMAL}. */
export const BYTE = 6;

/** SentencePiece's visible space, prefixed to word-initial pieces. */
export const SPACE = "\u2581";

/** A SentencePiece-style vocabulary of a test model. */
export interface Vocabulary {
  tokens: string[];
  types: number[];
  /** Per token: whether generation should produce it (whole words and punctuation). */
  emitted: boolean[];
}

function buildVocabulary(chat: boolean): Vocabulary {
  const tokens = ["<unk>", "<s>", "</s>"];
  const types = [UNKNOWN, CONTROL, CONTROL];
  for (let byte = 0; byte < 256; byte++) {
    tokens.push(`<0x${byte.toString(16).toUpperCase().padStart(2, "0")}>`);
    types.push(BYTE);
  }
  const pieces = new Set([SPACE, ...LETTERS, ...PUNCTUATION, `${SPACE}.`]);
  // llama.cpp's SPM tokenizer only merges two adjacent pieces when the merged text is itself a
  // token, so every "▁word" needs its prefixes ("▁w", "▁wo", ...) to be reachable.
  for (const word of WORDS) for (let end = 1; end <= word.length; end++) pieces.add(SPACE + word.slice(0, end));
  for (const piece of pieces) {
    tokens.push(piece);
    types.push(NORMAL);
  }
  if (chat) {
    // Appended last, like Qwen's added tokens, so the shared ids match the plain variant.
    tokens.push("<|im_start|>", "<|im_end|>");
    types.push(CONTROL, CONTROL);
  }
  const emitted = new Set([...WORDS.map((word) => SPACE + word), ...PUNCTUATION]);
  return { tokens, types, emitted: tokens.map((token) => emitted.has(token)) };
}

function tokenizerMetadata({ tokens, types }: Vocabulary, chat: boolean): Array<[string, GgufValue]> {
  return [
    ["tokenizer.ggml.model", gguf.string("llama")],
    ["tokenizer.ggml.tokens", gguf.strings(tokens)],
    // SPM merges the highest-scoring pair first; earlier (shorter) pieces win.
    ["tokenizer.ggml.scores", gguf.float32s(tokens.map((_, index) => -index))],
    ["tokenizer.ggml.token_type", gguf.int32s(types)],
    ["tokenizer.ggml.unknown_token_id", gguf.uint32(0)],
    ["tokenizer.ggml.bos_token_id", gguf.uint32(1)],
    ["tokenizer.ggml.eos_token_id", gguf.uint32(chat ? tokens.indexOf("<|im_end|>") : 2)],
    ["tokenizer.ggml.add_bos_token", gguf.bool(true)],
    ["tokenizer.ggml.add_eos_token", gguf.bool(false)],
    ...(chat ? [["tokenizer.chat_template", gguf.string(QWEN25_CHAT_TEMPLATE)] as [string, GgufValue]] : []),
  ];
}

/** Tensor shapes in ggml order ([row length, rows]), as llama.cpp's llama loader expects. */
function tensors({ tokens, emitted }: Vocabulary): GgufTensor[] {
  const weight = fills.uniform(0.05);
  const norm = fills.constant(1);
  const matrix = (name: string, shape: number[]): GgufTensor => ({ name, shape, type: "F32", fill: weight });
  const vector = (name: string): GgufTensor => ({ name, shape: [EMBEDDING], type: "F32", fill: norm });
  const blocks = Array.from({ length: BLOCKS }, (_, index) => {
    const prefix = `blk.${index}`;
    return [
      vector(`${prefix}.attn_norm.weight`),
      matrix(`${prefix}.attn_q.weight`, [EMBEDDING, EMBEDDING]),
      matrix(`${prefix}.attn_k.weight`, [EMBEDDING, EMBEDDING]),
      matrix(`${prefix}.attn_v.weight`, [EMBEDDING, EMBEDDING]),
      matrix(`${prefix}.attn_output.weight`, [EMBEDDING, EMBEDDING]),
      vector(`${prefix}.ffn_norm.weight`),
      matrix(`${prefix}.ffn_gate.weight`, [EMBEDDING, FEED_FORWARD]),
      matrix(`${prefix}.ffn_up.weight`, [EMBEDDING, FEED_FORWARD]),
      matrix(`${prefix}.ffn_down.weight`, [FEED_FORWARD, EMBEDDING]),
    ];
  });
  // Output rows (one per token) are large for words and punctuation and zero otherwise, so that
  // sampling yields random words rather than word prefixes, raw bytes or an early end of text.
  const output = fills.uniform(OUTPUT_SCALE);
  return [
    matrix("token_embd.weight", [EMBEDDING, tokens.length]),
    ...blocks.flat(),
    vector("output_norm.weight"),
    {
      name: "output.weight",
      shape: [EMBEDDING, tokens.length],
      type: "F32",
      fill: (random, index) => (emitted[Math.floor(index / EMBEDDING)] ? output(random, index) : 0),
    },
  ];
}

const LETTERS = Array.from("abcdefghijklmnopqrstuvwxyz");
const PUNCTUATION = [".", ",", "!", "?"];

/** Common English words and those the engine's prompts use: the test models' vocabulary (the bench's shapes emit them too). */
export const WORDS = `
the of and to in is that for it as was with be by on not he this are or his from at which but
have an they you were her she there been one all we their has would when if so no will more can
out up about who what some into them could time these two may then do first any my now such like
our over man me even most made after also did many before must through back years where much your
way well down should because each just those people how too little state good very make world
still own see men work long get here between both life being under never day same another know
while last might us great old year off come since against go came right used take three small
large new high different public every important early young few bad able part place case week
company system program question government number night point home water room mother area money
story fact month lot study book eye job word business issue side kind head house service friend
father power hour game line end member law car city community name president team minute idea kid
body information school face others level office door health person art war history party result
change morning reason research girl guy moment air teacher force education find give tell ask seem
feel try leave call keep let begin help talk turn start show hear play run move live believe hold
bring happen write provide sit stand lose pay meet include continue set learn lead understand
watch follow stop create speak read allow add spend grow open walk win offer remember love
consider appear buy wait serve die send expect build stay fall cut reach kill remain suggest raise
pass sell require report decide pull best better guide tips simple easy quick fast free full real
sure clear local social national human whole strong possible political hard major economic true
special late hot dark black white red blue green brown fox dog lazy jump light article content
search page website online data market price product customer value design quality brand plan
step process again always often sometimes today tomorrow together almost enough already however
perhaps quite rather really usually sun moon tree river mountain sea street road family child
children food music color garden season summer winter spring ocean forest bird
`
  .trim()
  .split(/\s+/);

/** The ChatML template Qwen2.5-Instruct ships in tokenizer_config.json, verbatim. */
export const QWEN25_CHAT_TEMPLATE = String.raw`{%- if tools %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}
    {%- endif %}
    {{- "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>" }}
    {%- for tool in tools %}
        {{- "\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}
    {%- else %}
        {{- '<|im_start|>system\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant" and not message.tool_calls) %}
        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}
    {%- elif message.role == "assistant" %}
        {{- '<|im_start|>' + message.role }}
        {%- if message.content %}
            {{- '\n' + message.content }}
        {%- endif %}
        {%- for tool_call in message.tool_calls %}
            {%- if tool_call.function is defined %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '\n<tool_call>\n{"name": "' }}
            {{- tool_call.name }}
            {{- '", "arguments": ' }}
            {{- tool_call.arguments | tojson }}
            {{- '}\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\n' }}
    {%- elif message.role == "tool" %}
        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\n<tool_response>\n' }}
        {{- message.content }}
        {{- '\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %}
`;

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { chat: { type: "boolean" } } });
  if (positionals.length !== 1) {
    console.error("usage: tsx scripts/make-test-model.ts OUT.gguf [--chat]");
    process.exit(1);
  }
  console.log(await writeTestModel({ path: positionals[0]!, variant: values.chat ? "chat" : "plain" }));
}
