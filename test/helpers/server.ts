import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { writeTestModel } from "../../scripts/make-test-model.js";

/** The project root, where the CLI lives. */
export const ROOT = path.resolve(import.meta.dirname, "../..");

/** The real pretrained fixture shared with every developer, when present. */
export const STORIES_MODEL = path.resolve(ROOT, "../shared/models/stories260K.gguf");
export const HAS_STORIES_MODEL = existsSync(STORIES_MODEL);

/** A key file that does not exist: tests that want stored keys pass INKPRESS_KEYS_FILE themselves. */
const NO_KEYS_FILE = path.join(tmpdir(), `inkpress-no-keys-${process.pid}`, "keys.json");

/**
 * What every CLI run in a test starts without: the developer's keys and model, colour, and
 * npm's name for the running script (vitest under `npx` would make hints say `npx inkpress`).
 * A test may set any of them again.
 */
export const CLEAN_ENV: Record<string, string | undefined> = {
  INKPRESS_API_KEYS: undefined,
  INKPRESS_MODEL: undefined,
  NO_COLOR: "1",
  npm_lifecycle_event: undefined,
};

/** The API key every test server accepts. */
export const API_KEY = "test-key-0123456789";

/** Write one of the project's random-weight test models into a fresh temp folder. */
export async function testModel(variant: "plain" | "chat"): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "inkpress-model-"));
  return writeTestModel({ path: path.join(dir, `tiny-${variant}.gguf`), variant });
}

/** What a CLI run printed and how it ended. */
export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the real CLI to completion (for start-up failures). */
export function runCli(args: string[], env: Record<string, string | undefined> = {}, cwd: string = ROOT): Promise<CliResult> {
  const child = spawnCli(args, env, cwd);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (d) => (stdout += d));
  child.stderr!.on("data", (d) => (stderr += d));
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

/** A real server process on an ephemeral port. */
export interface TestServer {
  url: string;
  process: ChildProcess;
  /** Everything the process printed so far. */
  output(): string;
  /** POST JSON to the generate endpoint with the test key. */
  generate(body: unknown, headers?: Record<string, string>): Promise<Response>;
  stop(): Promise<void>;
}

/** Start `inkpress serve` with a model and wait until it listens and (unless told not to) has loaded the model. */
export async function startServer(
  modelPath: string | undefined,
  env: Record<string, string | undefined> = {},
  options: { waitForModel?: boolean; args?: string[]; cwd?: string } = {},
): Promise<TestServer> {
  const model = modelPath ? ["--model", modelPath] : [];
  const args = ["serve", ...model, "--port", "0", "--threads", "1", ...(options.args ?? [])];
  const child = spawnCli(args, { INKPRESS_API_KEYS: API_KEY, ...env }, options.cwd ?? ROOT);
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d;
      const match = output.match(/listening on (http:\/\/\S+)/);
      if (match && (options.waitForModel === false || /model .* loaded/.test(output))) resolve(match[1]!);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${output}`)));
  });
  return {
    url,
    process: child,
    output: () => output,
    generate: (body, headers = {}) =>
      fetch(`${url}/api/v1/generate`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": API_KEY, ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** Spawn the CLI from the project's source with a clean environment, a key file and a data folder of its own. */
export function spawnCli(args: string[], env: Record<string, string | undefined>, cwd: string): ChildProcess {
  // tsx is named by URL so the CLI also starts from a working directory outside the project.
  const tsx = pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
  return spawn(process.execPath, ["--import", tsx, path.join(ROOT, "src/cli/main.ts"), ...args], {
    cwd,
    env: Object.fromEntries(
      // A key file and a data folder of its own per run, so the developer's keys and jobs never leak into a test.
      Object.entries({
        ...process.env,
        ...CLEAN_ENV,
        INKPRESS_KEYS_FILE: NO_KEYS_FILE,
        INKPRESS_DATA_DIR: mkdtempSync(path.join(tmpdir(), "inkpress-data-")),
        ...env,
      }).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    stdio: ["ignore", "pipe", "pipe"],
  });
}

/**
 * A real `inkpress serve` on stories260K for the enclosing `describe`: started before its
 * tests, stopped after. Returns a getter, since the server exists only once they run.
 */
export function storiesServer(): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer(STORIES_MODEL);
  });
  afterAll(() => server?.stop());
  return () => server!;
}
