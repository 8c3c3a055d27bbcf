/**
 * The one check that a file is a GGUF model llama.cpp reads, for loading and downloading
 * alike. A walk of the header of our own comes first: the magic, the version, and every
 * count and length held against the file's size. Only a header that lies wholly inside the
 * file goes on to node-llama-cpp's reader, which parses the metadata and the tensor list:
 * that reader reads zeros past the end of a file, so an absurd count in a broken or cut-off
 * header would keep it reading and allocating forever.
 */
import { type FileHandle, open, stat } from "node:fs/promises";
import path from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";
import { InkpressError } from "../errors.js";

/** Options of {@link ggufProblem}. */
export interface GgufCheckOptions {
  /**
   * How messages name the file (a missing file is always named by its path).
   * @default the file's base name
   */
  name?: string;
}

/** Why a file is not a GGUF model that llama.cpp reads, in one line; undefined when it is one. */
export async function ggufProblem(file: string, options: GgufCheckOptions = {}): Promise<string | undefined> {
  const name = options.name ?? path.basename(file);
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return `model file not found: ${file}`;
  const header = await headerProblem(file, info.size);
  if (header) return `${header}: ${name}`;
  let gguf: Awaited<ReturnType<typeof readGgufFileInfo>>;
  try {
    gguf = await readGgufFileInfo(file, { sourceType: "filesystem", spliceSplitFiles: false, logWarnings: false });
  } catch (error) {
    return `damaged GGUF file (${(error as Error).message}): ${name}`;
  }
  // The tensor data starts at the next alignment boundary after the header: past the end, the file was cut there.
  if ((gguf.infoEndOffset ?? 0) > info.size) return `truncated GGUF file (${info.size} bytes): ${name}`;
  return undefined;
}

/**
 * GGUF versions count up from 1 (3 is current): four bytes after the magic that read as a
 * larger number are text or other data, not a version.
 */
const HIGHEST_PLAUSIBLE_VERSION = 0xff;

/** What is wrong with a file's GGUF header, without the file's name; undefined when it is whole. */
async function headerProblem(file: string, size: number): Promise<string | undefined> {
  const handle = await open(file, "r");
  try {
    const start = Buffer.alloc(16);
    const { bytesRead } = await handle.read(start, 0, start.length, 0);
    const shown = `it starts with ${JSON.stringify(printable(start.subarray(0, bytesRead)))}`;
    if (start.toString("latin1", 0, 4) !== "GGUF") return `not a GGUF model file (${shown})`;
    if (bytesRead < 8) return `truncated GGUF file (${size} bytes)`;
    const version = start.readUInt32LE(4);
    if (version > HIGHEST_PLAUSIBLE_VERSION) return `not a GGUF model file (${shown})`;
    if (version !== 2 && version !== 3) return `unsupported GGUF version ${version} (llama.cpp reads 2 and 3)`;
    await walkHeader(new Cursor(handle, size));
    return undefined;
  } catch (error) {
    if (error instanceof PastEnd) return `truncated GGUF file (${size} bytes)`;
    if (error instanceof Damaged) return `damaged GGUF file (${error.message})`;
    throw error;
  } finally {
    await handle.close();
  }
}

/** Bytes of each fixed-size metadata value type, by GGUF type id; strings and arrays vary. */
const VALUE_SIZES: Partial<Record<number, number>> = { 0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8 };
const STRING = 8;
const ARRAY = 9;

/**
 * Follows a version 2 or 3 header from its counts to the end of the tensor list, reading
 * only lengths and types and skipping the rest, so that its cost grows with the header's
 * entries and never with what a broken count claims.
 */
async function walkHeader(cursor: Cursor): Promise<void> {
  cursor.skip(8); // magic and version, read already
  const tensors = await cursor.u64();
  const entries = await cursor.u64();
  // A metadata entry takes at least 13 bytes (key length, type, a one-byte value), a tensor 24
  // (name length, dimension count, type, offset): counts the rest of the file cannot hold are refused at once.
  if (entries * 13n + tensors * 24n > BigInt(cursor.size - cursor.offset)) throw new PastEnd();
  for (let entry = 0n; entry < entries; entry++) {
    cursor.skip(await cursor.u64()); // the key
    await skipValue(cursor, await cursor.u32());
  }
  for (let tensor = 0n; tensor < tensors; tensor++) {
    cursor.skip(await cursor.u64()); // the name
    cursor.skip(BigInt(await cursor.u32()) * 8n); // the dimensions
    cursor.skip(12); // the type and the offset of its data
  }
}

async function skipValue(cursor: Cursor, type: number): Promise<void> {
  const size = VALUE_SIZES[type];
  if (size) return cursor.skip(size);
  if (type === STRING) return cursor.skip(await cursor.u64());
  if (type !== ARRAY) throw new Damaged(`unknown metadata value type ${type}`);
  const itemType = await cursor.u32();
  const length = await cursor.u64();
  const itemSize = VALUE_SIZES[itemType];
  if (itemSize) return cursor.skip(length * BigInt(itemSize));
  if (itemType !== STRING) throw new Damaged(`a metadata array of value type ${itemType}`);
  // Each string takes at least its 8-byte length, so this loop ends within the file.
  for (let item = 0n; item < length; item++) cursor.skip(await cursor.u64());
}

/** The header claims more bytes than the file has. */
class PastEnd extends InkpressError {
  constructor() {
    super("truncated GGUF file");
  }
}

/** The header holds something no GGUF writer writes; the message says what. */
class Damaged extends InkpressError {}

/** How much of the file a {@link Cursor} reads at once. */
const CHUNK = 1 << 20;

/** Reads a file forward in chunks and refuses to move past its end. */
class Cursor {
  #chunk = Buffer.alloc(0);
  #chunkAt = 0;
  offset = 0;

  constructor(
    private readonly handle: FileHandle,
    readonly size: number,
  ) {}

  /** Moves on by a count of bytes, unread; past the end of the file throws {@link PastEnd}. */
  skip(count: number | bigint): void {
    if (BigInt(count) > BigInt(this.size - this.offset)) throw new PastEnd();
    this.offset += Number(count);
  }

  async u32(): Promise<number> {
    return (await this.#bytes(4)).readUInt32LE(0);
  }

  async u64(): Promise<bigint> {
    return (await this.#bytes(8)).readBigUInt64LE(0);
  }

  async #bytes(count: number): Promise<Buffer> {
    const start = this.offset;
    this.skip(count);
    if (this.offset > this.#chunkAt + this.#chunk.length) {
      const chunk = Buffer.alloc(CHUNK);
      const { bytesRead } = await this.handle.read(chunk, 0, chunk.length, start);
      this.#chunk = chunk.subarray(0, bytesRead);
      this.#chunkAt = start;
    }
    return this.#chunk.subarray(start - this.#chunkAt, this.offset - this.#chunkAt);
  }
}

function printable(bytes: Buffer): string {
  return bytes.toString("latin1").replace(/[^\x20-\x7e]/g, ".");
}
