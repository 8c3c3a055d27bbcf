import { ConfigError } from "../config.js";
import { InkpressError } from "../errors.js";
import { KeyStoreError } from "../keys/store.js";
import { ModelLoadError, ModelPullError } from "../model/errors.js";

/** A command given with wrong arguments; its message says which and why. */
export class UsageError extends Error {}

/** Problems the user can fix: their message is the whole story. */
const EXPLAINED = [InkpressError, ConfigError, KeyStoreError, ModelLoadError, ModelPullError, UsageError];

/** End a command on a problem: one line on stderr and exit code 1, never a stack trace. */
export function fail(error: unknown): never {
  const known = EXPLAINED.some((type) => error instanceof type);
  process.stderr.write(`inkpress: ${known ? (error as Error).message : `failed: ${(error as Error)?.message ?? String(error)}`}\n`);
  process.exit(1);
}
