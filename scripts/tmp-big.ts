import { writeGguf, fills, type GgufTensor } from "./gguf.js";
const E = 896, V = 151936, F = 4864, KV = 128;
const w = fills.uniform(0.05), n = fills.constant(1);
const t: GgufTensor[] = [{ name: "token_embd.weight", shape: [E, V], type: "Q8_0", fill: w }];
for (let i = 0; i < 24; i++) t.push(
  { name: `blk.${i}.attn_norm.weight`, shape: [E], type: "F32", fill: n },
  { name: `blk.${i}.attn_q.weight`, shape: [E, E], type: "Q8_0", fill: w },
  { name: `blk.${i}.attn_q.bias`, shape: [E], type: "F32", fill: w },
  { name: `blk.${i}.attn_k.weight`, shape: [E, KV], type: "Q8_0", fill: w },
  { name: `blk.${i}.attn_v.weight`, shape: [E, KV], type: "Q8_0", fill: w },
  { name: `blk.${i}.attn_output.weight`, shape: [E, E], type: "Q8_0", fill: w },
  { name: `blk.${i}.ffn_gate.weight`, shape: [E, F], type: "Q8_0", fill: w },
  { name: `blk.${i}.ffn_up.weight`, shape: [E, F], type: "Q8_0", fill: w },
  { name: `blk.${i}.ffn_down.weight`, shape: [F, E], type: "Q8_0", fill: w },
);
const t0 = Date.now();
const size = await writeGguf("/tmp/tm/big.gguf", { metadata: [], tensors: t });
console.log(size, Date.now() - t0, "ms", Math.round(process.memoryUsage().rss / 1e6), "MB rss");
