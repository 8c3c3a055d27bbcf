/**
 * Ctrl-C and SIGTERM during a long command (`audit`, `plan`, `batch`): the first stops the
 * command's work through its signal, and the command ends as it ends when stopped. One that has
 * not ended within the shutdown grace, or a second Ctrl-C, exits at once: every file the CLI
 * writes is written atomically, so an exit at any moment leaves each file old or new, never half.
 */

/** The signals a command stops on. */
const SIGNALS = ["SIGINT", "SIGTERM"] as const;

/** A command's stop: its signal, and the end of listening once the command is done. */
export interface Interruption {
  /** Aborts at the first Ctrl-C or SIGTERM. */
  signal: AbortSignal;
  /** Stop listening (the command ended); a forced exit already under way still comes, should anything hold the process. */
  dispose(): void;
}

/** Listen for Ctrl-C and SIGTERM for a command that gets `graceS` seconds to end once stopped. */
export function interruption(graceS: number): Interruption {
  const stop = new AbortController();
  const exitNow = (why: string) => {
    process.stderr.write(`\ninkpress: stopped: ${why}\n`);
    process.exit(130);
  };
  const onSignal = (name: NodeJS.Signals) => {
    if (stop.signal.aborted) return exitNow(`a second ${name}`);
    stop.abort(new Error(`stopped by ${name}`));
    // Unref'd: a command that ends in time exits as it would have.
    setTimeout(() => exitNow(`it did not end within ${graceS} s of the ${name} (--shutdown-grace)`), graceS * 1000).unref();
  };
  for (const name of SIGNALS) process.on(name, onSignal);
  return {
    signal: stop.signal,
    dispose() {
      for (const name of SIGNALS) process.off(name, onSignal);
    },
  };
}
