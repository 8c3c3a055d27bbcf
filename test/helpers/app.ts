import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { H3 } from "h3";
import { resolveServeConfig } from "../../src/config.js";
import { log } from "../../src/log.js";
import type { ReportingBackend } from "../../src/model/report.js";
import { composeServer } from "../../src/server.js";
import { FakeBackend } from "../../scripts/fixtures/fake-backend.js";
import type { ProseItem } from "../../scripts/fixtures/fake-writer.js";
import { API_KEY, ROOT } from "./server.js";

/**
 * The real HTTP app (routes, auth, limits, jobs, problem answers) served in-process with
 * `app.request()`: no socket, no child process. For suites where the process boundary is
 * not the point; what Node's HTTP parser or a real process does is tested over real HTTP
 * (test/helpers/server.ts).
 */
export interface TestApp {
  /** The origin requests are addressed to; `fetch` accepts a path or a URL under it. */
  url: string;
  app: H3;
  /** A request to the app, as `fetch` would send it; a Host header given here sets the URL's origin, as on a socket. */
  fetch(input: string, init?: RequestInit): Promise<Response>;
  /** POST JSON to the generate endpoint with the test key. */
  generate(body: unknown, headers?: Record<string, string>): Promise<Response>;
  /** Everything logged since the app started, one line per entry, as the process would print it. */
  output(): string;
  /** Let running work finish (as on SIGTERM), then close the stores and the backend. */
  stop(): Promise<void>;
}

/** What {@link startApp} serves with. */
export interface TestAppOptions {
  /** A GGUF model loaded in-process instead of the scripted backend. @default the scripted {@link FakeBackend} */
  model?: string;
  /** Loads what writes the articles, as `composeServer`'s `load` (a wrapper around a model, say); wins over `model`. */
  load?: () => Promise<ReportingBackend>;
  /** Settings as environment variables (INKPRESS_…), over the test defaults. @default {} */
  env?: Record<string, string | undefined>;
  /** The sentences the scripted backend writes each body from. @default endless distinct sentences */
  prose?: () => Iterator<ProseItem>;
}

/** The origin in-process requests are addressed to. */
const ORIGIN = "http://inkpress.test";

/**
 * Compose the server as `inkpress serve` does (src/server.ts), with the test key, a key file
 * and a data folder of its own, and the scripted backend unless a model is named; start its
 * jobs and key watching; never listen.
 */
export async function startApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = await mkdtemp(path.join(tmpdir(), "inkpress-app-"));
  const env = {
    INKPRESS_API_KEYS: API_KEY,
    INKPRESS_KEYS_FILE: path.join(dir, "keys.json"),
    INKPRESS_DATA_DIR: path.join(dir, "data"),
    INKPRESS_MODEL: options.model ?? path.join(dir, "scripted.gguf"),
    INKPRESS_THREADS: "1",
    ...options.env,
  };
  const config = resolveServeConfig({
    env: Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined)),
    cwd: ROOT,
  });
  const from = logged.length;
  const server = await composeServer(config, {
    // A named model loads as the server loads it; otherwise the scripted backend writes.
    ...(options.load
      ? { load: options.load }
      : options.model
        ? {}
        : { load: async () => new FakeBackend({ queueSize: config.queueSize, ...(options.prose ? { prose: options.prose } : {}) }) }),
    // A process would exit; the test's worker says so in the output and goes on (the store has stopped its jobs).
    onDataFolderLost: (error) => logged.push(`inkpress: the data folder ${config.dataDir} is no longer this server's (${error.message})`),
  });
  server.start();
  const request = async (input: string, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    // A server reads its URL's origin from the Host header, as Node's adapter does.
    const url = new URL(input, headers.has("host") ? `http://${headers.get("host")}` : ORIGIN);
    if (!headers.has("host")) headers.set("host", url.host);
    const client = new AbortController();
    init?.signal?.addEventListener("abort", () => client.abort(init.signal!.reason), { once: true });
    return hangUpOnCancel(await server.app.request(url.href, { ...init, headers, signal: client.signal }), client);
  };
  return {
    url: ORIGIN,
    app: server.app,
    fetch: request,
    generate: (body, headers = {}) =>
      request("/api/v1/generate", {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": API_KEY, ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    output: () => logged.slice(from).join("\n"),
    async stop() {
      await server.drain(config.shutdownGraceS * 1000);
      await server.close();
    },
  };
}

/**
 * What the server wrote in this test file, kept (not printed) line by line as a server process
 * prints it: the logger's lines as consola's basic reporter writes them, and what goes to
 * stdout directly (the request log). Apps started in one file share it; vitest's own output
 * does not pass through the worker's stdout.
 */
const logged: string[] = [];
log.setReporters([
  {
    log: (entry) =>
      logged.push(`[${entry.type}] ${entry.args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(" ")}`),
  },
]);
process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
  logged.push(...(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8")).split("\n").filter(Boolean));
  const done = rest.find((r): r is () => void => typeof r === "function");
  done?.();
  return true;
}) as typeof process.stdout.write;

/**
 * The response, its body wired to the request's signal as a socket is: a client that cancels
 * the body (or stops reading) has hung up, and the app sees its request aborted.
 */
function hangUpOnCancel(response: Response, client: AbortController): Response {
  if (!response.body) return response;
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel(reason) {
      client.abort(reason);
      await reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
