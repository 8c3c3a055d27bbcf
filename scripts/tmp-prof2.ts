import { fills, writeGguf } from "./gguf.js";
const N = 100_000_000;
const t0 = Date.now();
await writeGguf("/tmp/tm/p.gguf", { metadata: [], tensors: [{ name: "a", shape: [N], type: "Q8_0", fill: fills.uniform(0.05) }] });
console.log("q8 uniform", (Date.now() - t0) / N * 1e6, "ns/value");
