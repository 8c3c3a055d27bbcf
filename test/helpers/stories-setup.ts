import { appendFileSync, closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { API_KEY, HAS_STORIES_MODEL, ROOT, STORIES_MODEL, spawnCli } from "./server.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** The log file of the e2e tier's one `inkpress serve` on stories260K (test/helpers/stories.ts reads it). */
    storiesLog: string;
  }
}

/**
 * The e2e tier's global setup: one real `inkpress serve` on stories260K for all its files,
 * started without waiting (its files wait for it, in test/helpers/stories.ts), stopped at the end.
 * A server start costs about 6 s of CPU; one per file was a fifth of the tier.
 */
export default function setup(project: TestProject): (() => Promise<void>) | undefined {
  if (!HAS_STORIES_MODEL) return undefined;
  const log = path.join(mkdtempSync(path.join(tmpdir(), "inkpress-e2e-")), "serve.log");
  const out = openSync(log, "a");
  const child = spawnCli(["serve", "--model", STORIES_MODEL, "--port", "0", "--threads", "1"], { INKPRESS_API_KEYS: API_KEY }, ROOT);
  child.stdout!.on("data", (d) => appendFileSync(out, d));
  child.stderr!.on("data", (d) => appendFileSync(out, d));
  const exited = new Promise<void>((resolve) =>
    child.on("exit", (code, signal) => {
      appendFileSync(out, `\nserver exited with ${code ?? signal}\n`);
      resolve();
    }),
  );
  project.provide("storiesLog", log);
  return async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    closeSync(out);
    rmSync(path.dirname(log), { recursive: true, force: true });
  };
}
