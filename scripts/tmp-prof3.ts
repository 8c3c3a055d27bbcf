import { fills, mulberry32, writeGguf } from "./gguf.js";
const N = 50_000_000;
for (const [label, fill] of [["uniform", fills.uniform(0.05)], ["const", fills.constant(0.01)], ["index", (_r: () => number, i: number) => ((i * 7919) % 255 - 127) / 1000]] as const) {
  for (const type of ["Q8_0", "F16", "F32"] as const) {
    const t0 = Date.now();
    await writeGguf("/dev/null", { metadata: [], tensors: [{ name: "a", shape: [N], type, fill }] });
    console.log(label, type, (Date.now() - t0) / N * 1e6, "ns/value");
  }
}
const r = mulberry32(1); let x = 0; let t0 = Date.now();
for (let i = 0; i < N; i++) x += r();
console.log("mulberry", (Date.now() - t0) / N * 1e6, x > 0);
