import { InkpressError } from "../errors.js";

/** A command given with wrong arguments; its message says which and why. */
export class UsageError extends InkpressError {
  constructor(message: string) {
    super(message, { status: 400 });
  }
}

/** The `--format` a command was given, when it is one of `formats`; else a {@link UsageError} listing them. */
export function chosenFormat<const F extends readonly string[]>(value: string, formats: F): F[number] {
  if (!formats.includes(value)) throw new UsageError(`format must be one of ${formats.join(", ")}, got "${value}"`);
  return value;
}

/**
 * End a command on a problem: one line on stderr and exit code 1, never a stack trace. An
 * {@link InkpressError}'s message is the whole story; anything else was not expected, so it says "failed".
 */
export function fail(error: unknown): never {
  const message = error instanceof InkpressError ? error.message : `failed: ${(error as Error)?.message ?? String(error)}`;
  process.stderr.write(`inkpress: ${message.replace(/\s*\n\s*/g, " ")}\n`);
  process.exit(1);
}
