/**
 * Engines side by side: a commit's files copied into a temporary folder with their own
 * install (made once, reused by later runs), `inkpress serve` of any checkout on a free port,
 * and one article asked of it as JSON, timed by the client.
 *
 * The install runs `npm ci --ignore-scripts`: node-llama-cpp's prebuilt binaries come as
 * optional platform packages, and its postinstall would only try to download or build
 * llama.cpp. Before the install is marked done the checkout loads the CPU binding once, so a
 * broken install is named at once rather than as a server that never starts.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { API_KEY, log, ROOT } from "./common.js";

/** Written into a checkout once its install loaded the binding: a later run reuses it. */
const INSTALLED = ".bench-installed";

/** The files of `commit` with their own `node_modules`, in the system's temporary folder (no worktree: the repository stays as it was). */
export function checkout(commit: string): string {
  const dir = path.join(os.tmpdir(), `inkpress-baseline-${commit}`);
  if (existsSync(path.join(dir, INSTALLED))) return dir;
  if (!existsSync(path.join(dir, "package.json"))) {
    log(`copying ${commit}'s files into ${dir}`);
    mkdirSync(dir, { recursive: true });
    execFileSync("sh", ["-c", 'git archive "$0" | tar -x -C "$1"', commit, dir], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  }
  log(`installing ${commit} (npm ci)`);
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  // From a file: node-llama-cpp tests its binary in a child started with the parent's arguments, which `-e` does not survive.
  const probe = path.join(dir, ".bench-load-check.mjs");
  writeFileSync(probe, 'import { getLlama } from "node-llama-cpp";\nawait (await getLlama({ gpu: false, build: "never" })).dispose();\n');
  try {
    execFileSync(process.execPath, [probe], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  } catch (error) {
    throw new Error(
      `${commit}'s install cannot load node-llama-cpp's CPU binding: ${String((error as { stderr?: Buffer }).stderr ?? error)}`,
    );
  } finally {
    rmSync(probe, { force: true });
  }
  writeFileSync(path.join(dir, INSTALLED), `${new Date().toISOString()}\n`);
  return dir;
}

/** A server process, ready for requests. */
export interface Server {
  url: string;
  /** Its last output, for errors. */
  output: () => string;
  /** SIGTERM (SIGKILL after 10 s), then its temporary folder goes. */
  stop: () => Promise<void>;
}

/** What {@link spawnServer} starts. */
export interface SpawnOptions {
  command: string;
  args: string[];
  /** @default the caller's environment */
  env?: NodeJS.ProcessEnv;
  /** @default the repository */
  cwd?: string;
  /** Output that says it is ready, besides its address (`listening on http://…`). @default none */
  ready?: RegExp;
  /** A folder removed after it stops. @default none */
  scratch?: string;
}

/** A server on port 0, until it prints `listening on <url>` (and `ready`, when given). */
export async function spawnServer({ command, args, env = process.env, cwd = ROOT, ready, scratch }: SpawnOptions): Promise<Server> {
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output = (output + d).slice(-20_000);
      const match = /listening on (http:\/\/[\w.:[\]]+)/.exec(output);
      if (match && (!ready || ready.test(output))) resolve(match[1]!);
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${command} exited with ${code}: ${output}`)));
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  };
  return { url, output: () => output, stop };
}

/**
 * `inkpress serve` of a checkout on a free port with `args` (`--model …` or `--backend …`), its
 * key store and data folder in a fresh temporary folder, until its model is loaded. The
 * caller's INKPRESS_* variables are not passed on.
 */
export function serve(root: string, args: string[]): Promise<Server> {
  const tsx = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href;
  const data = mkdtempSync(path.join(os.tmpdir(), "inkpress-bench-serve-"));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("INKPRESS_")));
  return spawnServer({
    command: process.execPath,
    args: ["--import", tsx, path.join(root, "src/cli/main.ts"), "serve", "--port", "0", ...args],
    env: { ...env, INKPRESS_API_KEYS: API_KEY, INKPRESS_KEYS_FILE: path.join(data, "keys.json"), INKPRESS_DATA_DIR: data, NO_COLOR: "1" },
    cwd: root,
    ready: /model .* loaded/,
    scratch: data,
  });
}

/** One article as the client saw it. */
export interface Answer {
  /** Request to the whole JSON answer. */
  wallMs: number;
  completionTokens: number;
  promptTokens: number;
  /** `article.wordCount`. */
  words: number;
  /** Completion tokens generated and then cut, by why (engines that report it). */
  discarded: Record<string, number>;
}

/** One article as JSON from a server. */
export async function generate(server: Server, body: object): Promise<Answer> {
  const t0 = performance.now();
  const response = await fetch(`${server.url}/api/v1/generate`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "x-api-key": API_KEY },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const wallMs = performance.now() - t0;
  if (response.status !== 200)
    throw new Error(`generate answered ${response.status}: ${text.slice(0, 500)}\n${server.output().slice(-2000)}`);
  const { usage, article } = JSON.parse(text) as {
    usage: { completionTokens: number; promptTokens: number; discardedTokens?: Record<string, number> };
    article: { wordCount: number };
  };
  return {
    wallMs,
    completionTokens: usage.completionTokens,
    promptTokens: usage.promptTokens,
    words: article.wordCount,
    discarded: usage.discardedTokens ?? {},
  };
}
