/**
 * The `inkpress keys` commands, run as the real CLI against a key file of the test's own.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { CLEAN_ENV, ROOT, runCli, type CliResult } from "./server.js";

/** A fresh folder and the key file path inside it (the file is not created). */
export async function tempKeysFile(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "inkpress-keys-"));
  return path.join(dir, "keys.json");
}

/** Run `inkpress keys …` to completion with INKPRESS_KEYS_FILE set. */
export function keysCli(keysFile: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(["keys", ...args], { INKPRESS_KEYS_FILE: keysFile, ...env });
}

/** Create a key with the CLI; returns the key it printed. Fails loudly when the CLI does. */
export async function createKey(keysFile: string, name: string, flags: string[] = []): Promise<string> {
  return (await createKeyWithSecret(keysFile, name, flags)).key;
}

/** Create a key with the CLI; returns the two lines it printed: the key and its webhook secret. */
export async function createKeyWithSecret(keysFile: string, name: string, flags: string[] = []): Promise<{ key: string; secret: string }> {
  const result = await keysCli(keysFile, ["create", "--name", name, ...flags]);
  if (result.code !== 0) throw new Error(`keys create ${name} failed (${result.code}): ${result.stderr}`);
  const [key = "", secret = ""] = result.stdout.trimEnd().split("\n");
  if (!/^ink_[A-Za-z0-9_-]{32}$/.test(key) || !/^whsec_[A-Za-z0-9+/]{32}$/.test(secret)) {
    throw new Error(`keys create printed ${JSON.stringify(result.stdout)}, not a key and a webhook secret`);
  }
  return { key, secret };
}

/** Revoke a key with the CLI. */
export async function revokeKey(keysFile: string, name: string): Promise<void> {
  const result = await keysCli(keysFile, ["revoke", name]);
  if (result.code !== 0) throw new Error(`keys revoke ${name} failed (${result.code}): ${result.stderr}`);
}

/** Spawn `inkpress keys …` without waiting (to kill it mid-way), with INKPRESS_KEYS_FILE set. */
export function spawnKeysCli(keysFile: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  return spawnInkpress(["keys", ...args], { ...env, INKPRESS_KEYS_FILE: keysFile });
}

/** Spawn the CLI with the same environment hygiene as the server helper (no keys or model of the developer's). */
export function spawnInkpress(args: string[], env: Record<string, string | undefined> = {}): ChildProcess {
  return spawn(process.execPath, cliCommandLine(args), { cwd: ROOT, env: cliEnvironment(env), stdio: ["ignore", "pipe", "pipe"] });
}

/**
 * Run the CLI to completion on a pseudo-terminal (util-linux `script`), as a person at a
 * terminal runs it: stdout and stderr are a TTY, and `output` is what the screen received
 * from both, escape sequences included.
 */
export async function runInTerminal(
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<{ code: number | null; output: string }> {
  const quote = (word: string) => `'${word.replace(/'/g, "'\\''")}'`;
  const command = [process.execPath, ...cliCommandLine(args)].map(quote).join(" ");
  const child = spawn("script", ["--quiet", "--return", "--flush", "--command", command, "/dev/null"], {
    cwd: ROOT,
    // A person's terminal: not a CI job (where the CLI keeps to plain lines even on a TTY).
    env: cliEnvironment({ TERM: "xterm-256color", CI: undefined, ...env }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, output };
}

function cliCommandLine(args: string[]): string[] {
  const tsx = pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
  return ["--import", tsx, path.join(ROOT, "src/cli/main.ts"), ...args];
}

function cliEnvironment(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries<string | undefined>({ ...process.env, ...CLEAN_ENV, INKPRESS_KEYS_FILE: undefined, ...env }).filter(
      (entry): entry is [string, string] => entry[1] !== undefined,
    ),
  );
}

/** Run the CLI to completion, or kill it after `timeoutMs` (for commands that should fail but might serve instead). */
export async function runInkpress(
  args: string[],
  env: Record<string, string | undefined>,
  timeoutMs: number,
): Promise<CliResult & { killed: boolean }> {
  const child = spawnInkpress(args, env);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  let killed = false;
  const timer = setTimeout(() => {
    killed = true;
    child.kill("SIGKILL");
  }, timeoutMs);
  // "close", not "exit": the pipes are drained by then.
  await new Promise((resolve) => child.once("close", resolve));
  clearTimeout(timer);
  return { code: child.exitCode, stdout, stderr, killed };
}

/** Resolves once the process has exited. */
export function exited(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
}
