import { execFile, spawn, type ChildProcess } from "node:child_process";
import { freePort } from "./port.js";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./server.js";

/** Minutes a first build of llama-server may take (about 7 on 2 cores); hooks that may build wait this long. */
export const BUILD_TIMEOUT_MS = 20 * 60_000;

/** The llama-server binary from the machine's cache, built by the project script on first use. */
export async function llamaServerBinary(): Promise<string> {
  const script = path.join(ROOT, "scripts/build-llama-server.sh");
  const { stdout } = await promisify(execFile)(script, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim().split("\n").at(-1)!;
}

/** How to start a test llama-server. */
export interface LlamaServerOptions {
  /** GGUF file to serve. */
  model: string;
  /**
   * Slots (`--parallel`).
   * @default 1
   */
  parallel?: number;
  /**
   * Context of all slots together (`-c`).
   * @default the server's default
   */
  contextSize?: number;
  /**
   * Make token 1 the end of generation. stories260K ends a story with BOS (id 1) and never
   * emits its EOS, so without this it writes story after story until the tokens run out.
   * @default true
   */
  endAtBos?: boolean;
  /**
   * More command-line arguments.
   * @default []
   */
  args?: string[];
}

/** A llama-server process on a free loopback port. */
export interface RunningLlamaServer {
  url: string;
  process: ChildProcess;
  /** Everything it printed so far. */
  output(): string;
  /** Whether each slot is working on a request (`/slots`). */
  processing(): Promise<boolean[]>;
  /** Kill it and wait until it is gone. */
  stop(): Promise<void>;
}

/** Start llama-server and wait until `/health` answers 200 (the model is loaded). */
export async function startLlamaServer(options: LlamaServerOptions): Promise<RunningLlamaServer> {
  const binary = await llamaServerBinary();
  const port = await freePort();
  const args = ["-m", options.model, "--host", "127.0.0.1", "--port", String(port), "--parallel", String(options.parallel ?? 1), "-t", "1"];
  if (options.contextSize) args.push("-c", String(options.contextSize));
  if (options.endAtBos ?? true) args.push("--override-kv", "tokenizer.ggml.eos_token_id=int:1");
  args.push(...(options.args ?? []));
  const child = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once("exit", () => resolve());
      child.kill("SIGKILL");
    });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`llama-server exited with ${child.exitCode}: ${output}`);
    const healthy = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (healthy) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    process: child,
    output: () => output,
    processing: async () => ((await (await fetch(`${url}/slots`)).json()) as { is_processing: boolean }[]).map((s) => s.is_processing),
    stop,
  };
}
