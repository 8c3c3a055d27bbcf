/**
 * Minimal GGUF v3 writer for synthetic models (tests and benchmarks).
 *
 * Tensor data is generated and written chunk by chunk, so files of hundreds of
 * MB with real-model shapes can be produced without holding them in memory.
 * Spec: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md
 */
import { open, type FileHandle } from "node:fs/promises";

/** Metadata scalar types, named as in the GGUF spec. */
export type GgufScalarType =
  | "uint8"
  | "int8"
  | "uint16"
  | "int16"
  | "uint32"
  | "int32"
  | "uint64"
  | "int64"
  | "float32"
  | "float64"
  | "bool"
  | "string";

type ScalarValue<T extends GgufScalarType> = T extends "bool"
  ? boolean
  : T extends "string"
    ? string
    : T extends "uint64" | "int64"
      ? number | bigint
      : number;

/** A typed metadata value: a scalar or a flat array of one scalar type. */
export type GgufValue =
  | { [T in GgufScalarType]: { type: T; value: ScalarValue<T> } }[GgufScalarType]
  | { [T in GgufScalarType]: { type: "array"; itemType: T; value: readonly ScalarValue<T>[] } }[GgufScalarType];

/** Shorthand constructors for the metadata values models commonly use. */
export const gguf = {
  string: (value: string): GgufValue => ({ type: "string", value }),
  bool: (value: boolean): GgufValue => ({ type: "bool", value }),
  uint32: (value: number): GgufValue => ({ type: "uint32", value }),
  int32: (value: number): GgufValue => ({ type: "int32", value }),
  uint64: (value: number | bigint): GgufValue => ({ type: "uint64", value }),
  float32: (value: number): GgufValue => ({ type: "float32", value }),
  strings: (value: readonly string[]): GgufValue => ({ type: "array", itemType: "string", value }),
  int32s: (value: readonly number[]): GgufValue => ({ type: "array", itemType: "int32", value }),
  float32s: (value: readonly number[]): GgufValue => ({ type: "array", itemType: "float32", value }),
};

/** Supported tensor storage types. */
export type GgufTensorType = "F32" | "F16" | "Q8_0";

/**
 * Produces the value of element `index` (in storage order, row-major over the ggml shape);
 * called once per element, in order. `random` is the file's seeded uniform [0, 1) source.
 */
export type TensorFill = (random: () => number, index: number) => number;

/** Common fills: norm weights use `constant(1)`, matrices a small `uniform` or `normal`. */
export const fills = {
  constant:
    (value: number): TensorFill =>
    () =>
      value,
  uniform:
    (scale: number): TensorFill =>
    (random) =>
      (random() * 2 - 1) * scale,
  normal(std: number): TensorFill {
    // Box–Muller yields pairs; keep the second value for the next call.
    let spare: number | undefined;
    return (random) => {
      if (spare !== undefined) {
        const value = spare;
        spare = undefined;
        return value;
      }
      const radius = Math.sqrt(-2 * Math.log(1 - random())) * std;
      const angle = 2 * Math.PI * random();
      spare = radius * Math.sin(angle);
      return radius * Math.cos(angle);
    };
  },
};

/** One tensor to write. */
export interface GgufTensor {
  name: string;
  /** ggml order: `shape[0]` is the row length (innermost, contiguous dimension). */
  shape: readonly number[];
  type: GgufTensorType;
  fill: TensorFill;
}

/** What `writeGguf` writes. */
export interface GgufWriteOptions {
  /** Written in order; `general.alignment` (uint32), if present, sets the data alignment. */
  metadata: ReadonlyArray<readonly [string, GgufValue]>;
  tensors: readonly GgufTensor[];
  /** Seed of the PRNG passed to every fill, so output is deterministic. @default 0 */
  seed?: number;
}

/** Seeded uniform [0, 1) PRNG (mulberry32): fast and good enough for random weights. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Writes a GGUF v3 file and resolves to its size in bytes.
 * Tensor data is generated and written in chunks of 2^18 values, so memory use stays flat.
 */
export async function writeGguf(path: string, options: GgufWriteOptions): Promise<number> {
  const alignment = resolveAlignment(options.metadata);
  const plan = planTensors(options.tensors, alignment);
  const random = mulberry32(options.seed ?? 0);
  const values = new Float32Array(CHUNK_VALUES);
  const bytes = Buffer.alloc(CHUNK_VALUES * 4);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);

  const file = await open(path, "w");
  try {
    const header = encodeHeader(options.metadata, plan);
    const dataStart = alignUp(header.length, alignment);
    await writeFully(file, header);
    await writeFully(file, Buffer.alloc(dataStart - header.length));
    let written = 0;
    for (const { tensor, offset, elements } of plan) {
      await writeFully(file, Buffer.alloc(offset - written));
      written = offset;
      for (let done = 0; done < elements; done += CHUNK_VALUES) {
        const count = Math.min(CHUNK_VALUES, elements - done);
        for (let i = 0; i < count; i++) values[i] = tensor.fill(random, done + i);
        const size = TENSOR_TYPES[tensor.type].encode(values.subarray(0, count), view);
        await writeFully(file, bytes.subarray(0, size));
        written += size;
      }
    }
    return dataStart + written;
  } finally {
    await file.close();
  }
}

// A multiple of the Q8_0 block size, so chunks never split a block.
const CHUNK_VALUES = 1 << 18;
const DEFAULT_ALIGNMENT = 32;
// ggml's GGML_MAX_NAME is 64 bytes including the terminating NUL.
const MAX_NAME_BYTES = 63;
const MAX_DIMS = 4;

interface TensorTypeInfo {
  id: number;
  blockValues: number;
  blockBytes: number;
  /** Encodes `values` (a whole number of blocks) into `out`, returns bytes used. */
  encode(values: Float32Array, out: DataView): number;
}

// DataView setters take explicit endianness (GGUF is little-endian) and are much faster than Buffer's.
const TENSOR_TYPES: Record<GgufTensorType, TensorTypeInfo> = {
  F32: {
    id: 0,
    blockValues: 1,
    blockBytes: 4,
    encode(values, out) {
      for (let i = 0; i < values.length; i++) out.setFloat32(i * 4, values[i]!, true);
      return values.length * 4;
    },
  },
  F16: {
    id: 1,
    blockValues: 1,
    blockBytes: 2,
    encode(values, out) {
      for (let i = 0; i < values.length; i++) out.setUint16(i * 2, toFloat16Bits(values[i]!), true);
      return values.length * 2;
    },
  },
  Q8_0: {
    // Block: f16 scale d, then 32 int8 q with value ≈ d * q (ggml quantize_row_q8_0_ref).
    id: 8,
    blockValues: 32,
    blockBytes: 34,
    encode(values, out) {
      let pos = 0;
      for (let start = 0; start < values.length; start += 32) {
        let absMax = 0;
        for (let i = start; i < start + 32; i++) absMax = Math.max(absMax, Math.abs(values[i]!));
        const scale = absMax / 127;
        const inverse = scale === 0 ? 0 : 1 / scale;
        out.setUint16(pos, toFloat16Bits(scale), true);
        // Math.floor(x + 0.5) rather than Math.round, which V8 runs several times slower.
        for (let i = 0; i < 32; i++) out.setInt8(pos + 2 + i, Math.floor(values[start + i]! * inverse + 0.5));
        pos += 34;
      }
      return pos;
    },
  },
};

interface PlannedTensor {
  tensor: GgufTensor;
  elements: number;
  /** Relative to the start of the data section. */
  offset: number;
}

function resolveAlignment(metadata: GgufWriteOptions["metadata"]): number {
  const entry = metadata.find(([key]) => key === "general.alignment");
  if (entry === undefined) return DEFAULT_ALIGNMENT;
  const value = entry[1];
  if (value.type !== "uint32" || value.value <= 0 || (value.value & (value.value - 1)) !== 0)
    throw new Error("general.alignment must be a uint32 power of two");
  return value.value;
}

function planTensors(tensors: readonly GgufTensor[], alignment: number): PlannedTensor[] {
  const names = new Set<string>();
  let offset = 0;
  return tensors.map((tensor) => {
    const { name, shape, type } = tensor;
    if (names.has(name)) throw new Error(`duplicate tensor name ${name}`);
    names.add(name);
    if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw new Error(`tensor name too long: ${name}`);
    if (shape.length < 1 || shape.length > MAX_DIMS || !shape.every((d) => Number.isSafeInteger(d) && d > 0))
      throw new Error(`tensor ${name}: shape must be 1-${MAX_DIMS} positive integers, got [${shape.join(", ")}]`);
    const info = TENSOR_TYPES[type];
    if (shape[0]! % info.blockValues !== 0)
      throw new Error(`tensor ${name}: ${type} needs a row length that is a multiple of ${info.blockValues}`);
    const elements = shape.reduce((a, b) => a * b, 1);
    const planned = { tensor, elements, offset: alignUp(offset, alignment) };
    offset = planned.offset + (elements / info.blockValues) * info.blockBytes;
    return planned;
  });
}

function encodeHeader(metadata: GgufWriteOptions["metadata"], plan: readonly PlannedTensor[]): Buffer {
  const out = new ByteWriter();
  out.raw(Buffer.from("GGUF", "ascii"));
  out.uint32(3);
  out.uint64(plan.length);
  out.uint64(metadata.length);
  const keys = new Set<string>();
  for (const [key, value] of metadata) {
    if (keys.has(key)) throw new Error(`duplicate metadata key ${key}`);
    keys.add(key);
    out.string(key);
    if (value.type === "array") {
      out.uint32(VALUE_TYPE_IDS.array);
      out.uint32(VALUE_TYPE_IDS[value.itemType]);
      out.uint64(value.value.length);
      for (const item of value.value) out.scalar(value.itemType, item);
    } else {
      out.uint32(VALUE_TYPE_IDS[value.type]);
      out.scalar(value.type, value.value);
    }
  }
  for (const { tensor, offset } of plan) {
    out.string(tensor.name);
    out.uint32(tensor.shape.length);
    for (const dim of tensor.shape) out.uint64(dim);
    out.uint32(TENSOR_TYPES[tensor.type].id);
    out.uint64(offset);
  }
  return out.toBuffer();
}

const VALUE_TYPE_IDS: Record<GgufScalarType | "array", number> = {
  uint8: 0,
  int8: 1,
  uint16: 2,
  int16: 3,
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
  uint64: 10,
  int64: 11,
  float64: 12,
};

/** Growable little-endian buffer for the header (a few MB at most, even with large vocabularies). */
class ByteWriter {
  private buffer = Buffer.alloc(1 << 16);
  private length = 0;

  raw(bytes: Uint8Array): void {
    this.reserve(bytes.length).set(bytes, this.length - bytes.length);
  }

  uint32(value: number): void {
    this.reserve(4).writeUInt32LE(value, this.length - 4);
  }

  uint64(value: number | bigint): void {
    this.reserve(8).writeBigUInt64LE(BigInt(value), this.length - 8);
  }

  string(value: string): void {
    const bytes = Buffer.from(value, "utf8");
    this.uint64(bytes.length);
    this.raw(bytes);
  }

  scalar(type: GgufScalarType, value: number | bigint | boolean | string): void {
    switch (type) {
      case "string":
        return void this.string(value as string);
      case "bool":
        return void this.reserve(1).writeUInt8(value ? 1 : 0, this.length - 1);
      case "uint8":
        return void this.reserve(1).writeUInt8(value as number, this.length - 1);
      case "int8":
        return void this.reserve(1).writeInt8(value as number, this.length - 1);
      case "uint16":
        return void this.reserve(2).writeUInt16LE(value as number, this.length - 2);
      case "int16":
        return void this.reserve(2).writeInt16LE(value as number, this.length - 2);
      case "uint32":
        return void this.uint32(value as number);
      case "int32":
        return void this.reserve(4).writeInt32LE(value as number, this.length - 4);
      case "float32":
        return void this.reserve(4).writeFloatLE(value as number, this.length - 4);
      case "uint64":
        return void this.uint64(value as number | bigint);
      case "int64":
        return void this.reserve(8).writeBigInt64LE(BigInt(value as number | bigint), this.length - 8);
      case "float64":
        return void this.reserve(8).writeDoubleLE(value as number, this.length - 8);
    }
  }

  toBuffer(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  /** Grows the buffer for `size` more bytes and advances past them; returns the buffer to write into. */
  private reserve(size: number): Buffer {
    if (this.length + size > this.buffer.length) {
      const grown = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + size));
      this.buffer.copy(grown, 0, 0, this.length);
      this.buffer = grown;
    }
    this.length += size;
    return this.buffer;
  }
}

function alignUp(value: number, alignment: number): number {
  return Math.ceil(value / alignment) * alignment;
}

// FileHandle.write may write fewer bytes than asked, so loop until done.
async function writeFully(file: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let done = 0; done < bytes.length; ) done += (await file.write(bytes, done, bytes.length - done)).bytesWritten;
}

const float32Scratch = new Float32Array(1);
const float32Bits = new Uint32Array(float32Scratch.buffer);

/** IEEE 754 half-precision bits of `value`, rounded to nearest even (Node 20 has no Float16Array). */
function toFloat16Bits(value: number): number {
  float32Scratch[0] = value;
  const bits = float32Bits[0]!;
  const sign = (bits >>> 16) & 0x8000;
  const magnitude = bits & 0x7fffffff;
  if (magnitude >= 0x7f800000) return sign | 0x7c00 | (magnitude > 0x7f800000 ? 0x200 : 0); // Inf / NaN
  if (magnitude >= 0x47800000) return sign | 0x7c00; // ≥ 2^16: overflow to Inf
  if (magnitude < 0x38800000) {
    // Below 2^-14 the half is subnormal: shift the full 24-bit significand into place.
    if (magnitude < 0x33000000) return sign; // below 2^-25 rounds to zero
    return sign | roundShift((magnitude & 0x7fffff) | 0x800000, 126 - (magnitude >>> 23));
  }
  // Rebias the exponent (127 → 15) and round the mantissa to 10 bits branch-free (random
  // weights make a rounding branch unpredictable); a carry correctly bumps the exponent, up to Inf.
  const rebased = magnitude - ((127 - 15) << 23);
  return sign | ((rebased + 0x0fff + ((rebased >>> 13) & 1)) >>> 13);
}

/** `value >> shift`, rounded to nearest, ties to even. */
function roundShift(value: number, shift: number): number {
  const result = value >>> shift;
  const remainder = value & ((1 << shift) - 1);
  const half = 1 << (shift - 1);
  return remainder > half || (remainder === half && (result & 1) === 1) ? result + 1 : result;
}
