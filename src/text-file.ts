import { readFile } from "node:fs/promises";
import { InkpressError } from "./errors.js";

/** A text file as read: its text, and its exact bytes (what a backup of it must hold). */
export interface TextFile {
  text: string;
  bytes: Buffer;
}

/** A file that is not UTF-8 text: its message says why, without the file's name (each command names it its own way). */
export class NotTextError extends InkpressError {
  /**
   * The line (1-based) of the first byte that is not text, for a command that names lines.
   * @default undefined: not known (a malformed UTF-8 sequence)
   */
  readonly line?: number;

  constructor(message: string, line?: number) {
    super(message);
    if (line !== undefined) this.line = line;
  }
}

/** UTF-8 that refuses a malformed byte instead of turning it into U+FFFD; a byte order mark stays in the text, as the file has it. */
const UTF8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Read a page file as UTF-8 text: a file in another encoding (Latin-1) or a binary one is a
 * {@link NotTextError}, since read anyway it would hold U+FFFD in place of its bytes, and a
 * file written back from that text would lose them. Errors of the file system (ENOENT) reject as they are.
 */
export async function readTextFile(file: string): Promise<TextFile> {
  const bytes = await readFile(file);
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    const line = bytes.subarray(0, nul).filter((byte) => byte === 0x0a).length + 1;
    throw new NotTextError("a binary file (it holds NUL bytes), not a page; nothing was written for it", line);
  }
  try {
    return { text: UTF8.decode(bytes), bytes };
  } catch {
    throw new NotTextError("not UTF-8 text; nothing was written for it (convert it to UTF-8 first, for example with iconv)");
  }
}
