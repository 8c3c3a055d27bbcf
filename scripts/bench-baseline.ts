/**
 * An older engine beside today's, for the benches that compare them in one run: a commit
 * checked out into a temporary git worktree with its own install (reused between runs), and
 * `inkpress serve` of any checkout on a free port, one thread, one sequence, its own key
 * store and data folder.
 *
 * The install runs `npm ci --ignore-scripts`: node-llama-cpp's prebuilt binaries come as
 * optional platform packages (`@node-llama-cpp/linux-x64` …), which npm installs without
 * any script, and its postinstall would only try to download or build llama.cpp. Before the
 * install is marked done, the checkout loads node-llama-cpp's CPU binding once, so a broken
 * install is named at once rather than as a server that never starts.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

/** The repository the worktrees are added to. */
const ROOT = path.resolve(import.meta.dirname, "..");
/** Written into a checkout once its install loaded the binding: a later run reuses it. */
const INSTALLED = ".bench-installed";

/**
 * A worktree of `commit` with its own `node_modules`, in the system's temporary folder,
 * made and installed on first use and reused after that. Progress lines go to `log`
 * (@default console.error).
 */
export function baselineFolder(commit: string, log: (line: string) => void = console.error): string {
  const dir = path.join(os.tmpdir(), `inkpress-baseline-${commit}`);
  if (existsSync(path.join(dir, INSTALLED))) return dir;
  if (!existsSync(path.join(dir, "package.json"))) {
    log(`checking ${commit} out into ${dir}`);
    // A worktree whose folder was deleted is still registered until pruned.
    execFileSync("git", ["worktree", "prune"], { cwd: ROOT });
    execFileSync("git", ["worktree", "add", "--force", "--detach", dir, commit], { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"] });
  }
  log(`installing ${commit} (npm ci)`);
  execFileSync("npm", ["ci", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: dir, stdio: ["ignore", "ignore", "inherit"] });
  // From a file: node-llama-cpp tests its binary in a child process started with the parent's
  // arguments, which an `-e` script does not survive.
  const probe = path.join(dir, ".bench-load-check.mjs");
  writeFileSync(probe, 'import { getLlama } from "node-llama-cpp";\nawait (await getLlama({ gpu: false, build: "never" })).dispose();\n');
  try {
    execFileSync(process.execPath, [probe], { cwd: dir, stdio: ["ignore", "ignore", "pipe"] });
  } catch (error) {
    throw new Error(`${commit}'s install cannot load node-llama-cpp's prebuilt CPU binding: ${String((error as { stderr?: Buffer }).stderr ?? error)}`);
  } finally {
    rmSync(probe, { force: true });
  }
  writeFileSync(path.join(dir, INSTALLED), `${new Date().toISOString()}\n`);
  return dir;
}

/** How a checkout's server runs. */
export interface ServeOptions {
  /** The checkout: the repository itself or a {@link baselineFolder}. */
  root: string;
  model: string;
  /** The key requests carry (INKPRESS_API_KEYS). */
  apiKey: string;
  /** Decode threads. @default 1 */
  threads?: number;
}

/** A checkout's `inkpress serve`, ready for requests. */
export interface CheckoutServer {
  url: string;
  child: ChildProcess;
  /** The server's last output, for errors. */
  output: () => string;
  /** SIGTERM (SIGKILL after 10 s), then its key store and data folder go. */
  stop: () => Promise<void>;
}

/**
 * `inkpress serve` of a checkout on a free port, one sequence, its key store and data folder
 * in a fresh temporary folder, until its model is loaded. Only flags and variables every
 * engine since d5f32b6 reads are set (`--model --port --threads --sequences`,
 * INKPRESS_API_KEYS, INKPRESS_KEYS_FILE; INKPRESS_DATA_DIR for the later ones); other
 * INKPRESS_* variables of the caller are not passed on.
 */
export async function serveCheckout({ root, model, apiKey, threads = 1 }: ServeOptions): Promise<CheckoutServer> {
  const tsx = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href;
  const data = mkdtempSync(path.join(os.tmpdir(), "inkpress-bench-serve-"));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("INKPRESS_")));
  const args = ["--import", tsx, path.join(root, "src/cli/main.ts"), "serve", "--model", model, "--port", "0", "--threads", String(threads), "--sequences", "1"];
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...env, INKPRESS_API_KEYS: apiKey, INKPRESS_KEYS_FILE: path.join(data, "keys.json"), INKPRESS_DATA_DIR: data, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const keep = (d: Buffer) => (output = (output + d).slice(-20_000));
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match && /model .* loaded/.test(output)) resolve(match[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", (code) => reject(new Error(`${root}: server exited with ${code}: ${output}`)));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return rmSync(data, { recursive: true, force: true });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
    rmSync(data, { recursive: true, force: true });
  };
  return { url, child, output: () => output, stop };
}
