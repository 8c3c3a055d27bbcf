/**
 * The `inkpress keys` commands run inside the test's own process: the CLI's own citty command,
 * argument parsing, validation and key file writes, without a process start. Starting the CLI
 * (`node --import tsx src/cli/main.ts`) costs about 4 s of CPU; the in-process tiers (test/http)
 * created a dozen keys that way. The CLI as a process is tested in test/integration (helpers/cli.ts).
 */
import { runCommand } from "citty";
import { keysCommand } from "../../src/cli/keys.js";

type Write = typeof process.stdout.write;

/** One command at a time: each reads back what it printed. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * Run `inkpress keys <args> --keys-file <keysFile>` in-process; returns what it printed. Only the
 * command's own lines are taken (`ink_…`/`whsec_…`, `key "…"`, `inkpress: …`): anything else
 * written meanwhile (an app's request log) goes where it went before.
 */
function keysInProcess(keysFile: string, args: string[]): Promise<{ stdout: string; stderr: string }> {
  const run = queue.then(async () => {
    const printed = { stdout: "", stderr: "" };
    const take = (stream: NodeJS.WriteStream, name: keyof typeof printed, ours: RegExp): Write => {
      const before = stream.write;
      stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        const text = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
        if (!ours.test(text)) return (before as (...a: unknown[]) => boolean).call(stream, chunk, ...rest);
        printed[name] += text;
        rest.find((r): r is () => void => typeof r === "function")?.();
        return true;
      }) as Write;
      return before;
    };
    const stdout = take(process.stdout, "stdout", /^ink_[A-Za-z0-9_-]+\nwhsec_/);
    const stderr = take(process.stderr, "stderr", /^(?:key "|inkpress: )/);
    try {
      await runCommand(keysCommand, { rawArgs: [...args, "--keys-file", keysFile] });
    } catch (error) {
      // The command ends a failure with process.exit(1), which vitest turns into this throw: say what it printed.
      throw new Error(`inkpress keys ${args.join(" ")} failed: ${printed.stderr || (error as Error).message}`);
    } finally {
      process.stdout.write = stdout;
      process.stderr.write = stderr;
    }
    return printed;
  });
  queue = run.catch(() => undefined);
  return run;
}

/** Create a key as `inkpress keys create` does; returns the key it printed. */
export async function createKey(keysFile: string, name: string, flags: string[] = []): Promise<string> {
  return (await createKeyWithSecret(keysFile, name, flags)).key;
}

/** Create a key as `inkpress keys create` does; returns the two lines it printed: the key and its webhook secret. */
export async function createKeyWithSecret(keysFile: string, name: string, flags: string[] = []): Promise<{ key: string; secret: string }> {
  const { stdout, stderr } = await keysInProcess(keysFile, ["create", "--name", name, ...flags]);
  const [key = "", secret = ""] = stdout.trimEnd().split("\n");
  if (!/^ink_[A-Za-z0-9_-]{32}$/.test(key) || !/^whsec_[A-Za-z0-9+/]{32}$/.test(secret))
    throw new Error(`keys create ${name} printed ${JSON.stringify(stdout)}, not a key and a webhook secret: ${stderr}`);
  return { key, secret };
}

/** Revoke a key as `inkpress keys revoke` does. */
export async function revokeKey(keysFile: string, name: string): Promise<void> {
  const { stderr } = await keysInProcess(keysFile, ["revoke", name]);
  if (stderr !== `key "${name}" revoked\n`) throw new Error(`keys revoke ${name} failed: ${stderr}`);
}
