import { mulberry32, fills } from "./gguf.js";
const N = 50_000_000; const r = mulberry32(1); const w = fills.uniform(0.05);
const v = new Float32Array(1 << 18);
let t0 = Date.now();
for (let done = 0; done < N; done += v.length) for (let i = 0; i < v.length; i++) v[i] = w(r, done + i);
console.log("fill", (Date.now() - t0) / N * 1e6, "ns/value");
const out = Buffer.alloc(v.length * 4);
t0 = Date.now();
for (let done = 0; done < N; done += v.length) for (let s = 0; s < v.length; s += 32) { for (let i = s; i < s + 32; i++) out.writeInt8(Math.round(v[i]! * 2000), i); }
console.log("writeInt8", (Date.now() - t0) / N * 1e6, "ns/value");
const q = new Int8Array(out.buffer, out.byteOffset, out.length);
t0 = Date.now();
for (let done = 0; done < N; done += v.length) for (let s = 0; s < v.length; s += 32) { for (let i = s; i < s + 32; i++) q[i] = Math.round(v[i]! * 2000); }
console.log("Int8Array", (Date.now() - t0) / N * 1e6, "ns/value");
t0 = Date.now();
for (let done = 0; done < N; done += v.length) for (let i = 0; i < v.length; i++) out.writeFloatLE(v[i]!, i * 4);
console.log("writeFloatLE", (Date.now() - t0) / N * 1e6, "ns/value");
const dv = new DataView(out.buffer, out.byteOffset, out.length);
t0 = Date.now();
for (let done = 0; done < N; done += v.length) for (let i = 0; i < v.length; i++) dv.setFloat32(i * 4, v[i]!, true);
console.log("DataView", (Date.now() - t0) / N * 1e6, "ns/value");
