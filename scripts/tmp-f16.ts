import { readFileSync, writeFileSync } from "node:fs";
import { writeGguf, mulberry32 } from "./gguf.js";
const r = mulberry32(7);
const vals: number[] = [0, -0, 1, -1, 0.1, 65504, 65519, 65520, 1e6, -1e6, 5.96e-8, 2.98e-8, 2.99e-8, 1e-8, 6.1e-5, 6.0e-5, 3e-5, Infinity, -Infinity, NaN, 0.33325195, 1.00048828125, 1.00146484375];
while (vals.length < 100000) { const e = Math.floor(r() * 40) - 28; vals.push((r() * 2 - 1) * 2 ** e); }
const size = await writeGguf("/tmp/tm/f16.gguf", { metadata: [], tensors: [
  { name: "a", shape: [vals.length], type: "F16", fill: (_r, i) => vals[i]! },
  { name: "b", shape: [vals.length], type: "F32", fill: (_r, i) => vals[i]! },
  { name: "q", shape: [64, 3], type: "Q8_0", fill: (_r, i) => (i < 32 ? 0 : i < 64 ? (i - 32) / 10 : -(i % 7)) },
] });
writeFileSync("/tmp/tm/f16.json", JSON.stringify(vals.map(String)));
console.log("size", size, readFileSync("/tmp/tm/f16.gguf").length);
