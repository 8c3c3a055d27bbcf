/**
 * What a finished download must be before it is kept: every part complete, the pinned
 * SHA-256 when there is one, and a GGUF model llama.cpp reads. A bad download is deleted; a
 * bad file that was already there is reported and left alone.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Target } from "./download-source.js";
import { ModelPullError } from "./errors.js";
import { ggufProblem } from "./gguf.js";

/** How {@link verifyFiles} checks and what it does with a bad file. */
export interface VerifyOptions {
  /** Delete the files when they fail (a fresh download), or keep them (a file that was already there). */
  deleteOnFailure: boolean;
  /** The sizes the server announced, per file. @default not checked */
  expectedSizes?: number[];
}

/** Hex SHA-256 of a file, streamed. */
async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** Why the files are not the model asked for; the pinned checksum before the parse, since a corrupt file may parse. */
async function problemOf(files: string[], target: Target, expectedSizes: number[] | undefined): Promise<ModelPullError | undefined> {
  for (const [index, file] of files.entries()) {
    const expected = expectedSizes?.[index];
    const actual = expected ? (await stat(file)).size : 0;
    if (expected && actual !== expected)
      return new ModelPullError("invalid", `incomplete download of ${path.basename(file)}: ${actual} of ${expected} bytes`);
  }
  if (target.sha256) {
    const actual = await sha256File(files[0]!);
    if (actual !== target.sha256)
      return new ModelPullError("checksum", `SHA-256 mismatch for ${path.basename(files[0]!)}: expected ${target.sha256}, got ${actual}`);
  }
  for (const file of files) {
    const problem = await ggufProblem(file);
    if (problem) return new ModelPullError("invalid", problem);
  }
  return undefined;
}

/** Throw a {@link ModelPullError} unless the files are the model asked for. */
export async function verifyFiles(files: string[], target: Target, options: VerifyOptions): Promise<void> {
  const failure = await problemOf(files, target, options.expectedSizes).catch(
    (error: unknown) => new ModelPullError("failed", `cannot check ${target.label}: ${(error as Error).message}`),
  );
  if (!failure) return;
  if (!options.deleteOnFailure) {
    throw new ModelPullError(
      "exists",
      `${failure.message}; ${path.dirname(files[0]!)} already has this file but it is not a valid model: delete it and pull again`,
    );
  }
  await Promise.all(files.flatMap((file) => [rm(file, { force: true }), rm(`${file}.ipull`, { force: true })]));
  throw new ModelPullError(failure.code, `${failure.message} (downloaded from ${target.label}; deleted)`);
}

/**
 * ipull 3.9 appends its JSON progress record after the data and truncates it away at the end,
 * but a record save that is still in flight can land after the truncation (seen on small
 * files: a finished model 63 bytes too long, `{"part":0,"chunks":[2],…}` at its end). Let late
 * writes settle, then cut such a record off; anything else that is too long fails verification.
 */
export async function removeProgressTrailers(files: string[], expectedSizes: number[], settleMs = 100): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  for (const [index, file] of files.entries()) {
    const expected = expectedSizes[index] ?? 0;
    const size = (await stat(file).catch(() => undefined))?.size ?? 0;
    if (!(expected > 0) || size <= expected || size - expected > 64 * 1024) continue;
    const handle = await open(file, "r+");
    try {
      const tail = Buffer.alloc(size - expected);
      await handle.read(tail, 0, tail.length, expected);
      if (isProgressRecord(tail.toString("utf8"))) await handle.truncate(expected);
    } finally {
      await handle.close();
    }
  }
}

function isProgressRecord(text: string): boolean {
  try {
    const record: unknown = JSON.parse(text);
    return Boolean(record && typeof record === "object" && Array.isArray((record as { chunks?: unknown }).chunks));
  } catch {
    return false;
  }
}

/** A URL without a `.gguf` name would be invisible to the server's models/ scan: give it the extension. */
export async function ensureGgufExtension(files: string[]): Promise<string[]> {
  if (files.length !== 1 || files[0]!.endsWith(".gguf")) return files;
  const renamed = `${files[0]!}.gguf`;
  await rename(files[0]!, renamed);
  return [renamed];
}

/** Whether every file exists. */
export async function allExist(files: string[]): Promise<boolean> {
  for (const file of files) {
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return false;
  }
  return true;
}
