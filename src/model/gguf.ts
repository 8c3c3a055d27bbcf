/**
 * The one check that a file is a GGUF model llama.cpp reads, for loading and downloading
 * alike: node-llama-cpp's own reader parses the header, the metadata and the tensor list,
 * then the version and the end of that header are held against the file.
 */
import { open, stat } from "node:fs/promises";
import path from "node:path";
import { UnsupportedError, readGgufFileInfo } from "node-llama-cpp";

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
  let gguf: Awaited<ReturnType<typeof readGgufFileInfo>>;
  try {
    gguf = await readGgufFileInfo(file, { sourceType: "filesystem", spliceSplitFiles: false, logWarnings: false });
  } catch (error) {
    const start = await firstBytes(file, 16);
    if (start.toString("latin1", 0, 4) !== "GGUF") return `not a GGUF model file (it starts with ${JSON.stringify(printable(start))}): ${name}`;
    if (error instanceof UnsupportedError) return `${error.message}: ${name}`;
    return `damaged GGUF file (${(error as Error).message}): ${name}`;
  }
  // The reader reads past the end as zeros: a header that ends beyond the file is a cut-off file.
  if ((gguf.infoEndOffset ?? 0) > info.size) return `truncated GGUF file (${info.size} bytes): ${name}`;
  if (gguf.version !== 2 && gguf.version !== 3) return `unsupported GGUF version ${gguf.version} (llama.cpp reads 2 and 3): ${name}`;
  return undefined;
}

async function firstBytes(file: string, count: number): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const bytes = Buffer.alloc(count);
    const { bytesRead } = await handle.read(bytes, 0, count, 0);
    return bytes.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

function printable(bytes: Buffer): string {
  return bytes.toString("latin1").replace(/[^\x20-\x7e]/g, ".");
}
