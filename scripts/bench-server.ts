/** The server processes the bench measures, and the concurrency levels run against one. */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { fetchSse } from "../src/http/pages/client/sse.js";
import { BENCH_DIR } from "./bench-models.js";
import type { Profile } from "./bench-probe.js";
import { batchStats } from "./bench-profile.js";
import { API_KEY, median, now, quantile, ROOT, shortArticle, sleep } from "./bench-settings.js";
import type { CpuProfile, HttpResult, Level, Rss, SseRun } from "./bench-types.js";

/**
 * An `inkpress serve` process with the timing probe preloaded: articles over JSON and SSE,
 * the probe's records and RSS read through IPC.
 */
export class BenchServer {
  private output = "";
  private nextId = 1;
  private readonly pending = new Map<number, (message: unknown) => void>();
  readonly articles = { completed: 0 };

  private constructor(
    readonly child: ChildProcess,
    readonly url: string,
    readonly loadMs: number,
  ) {
    child.on("message", (m: { id?: number }) => {
      if (m && typeof m.id === "number") {
        this.pending.get(m.id)?.(m);
        this.pending.delete(m.id);
      }
    });
  }

  /** Start a server on a free port and wait until its model is loaded. */
  static async start(modelPath: string, options: { sequences: number; threads: number }): Promise<BenchServer> {
    const tsx = pathToFileURL(path.join(ROOT, "node_modules/tsx/dist/loader.mjs")).href;
    const probe = pathToFileURL(path.join(ROOT, "scripts/bench-probe.ts")).href;
    const args = [
      "--import", tsx, "--import", probe, "--expose-gc",
      path.join(ROOT, "src/cli/main.ts"), "serve",
      "--model", modelPath, "--port", "0", "--threads", String(options.threads), "--sequences", String(options.sequences),
    ];
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("INKPRESS_"))) as Record<string, string>;
    const keysDir = path.join(BENCH_DIR, `keys-${process.pid}`);
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...env, INKPRESS_API_KEYS: API_KEY, INKPRESS_KEYS_FILE: path.join(keysDir, "keys.json"), BENCH_PROBE: "1", NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe", "ipc"],
    });
    const t0 = now();
    let output = "";
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output = (output + d).slice(-20_000);
        const match = output.match(/listening on (http:\/\/\S+)/);
        if (match && /model .* loaded/.test(output)) resolve(match[1]!);
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", onData);
      child.once("exit", (code) => reject(new Error(`server exited with ${code}: ${output}`)));
    });
    const server = new BenchServer(child, url, now() - t0);
    const keep = (d: Buffer) => (server.output = (server.output + d).slice(-20_000));
    child.stdout!.removeAllListeners("data").on("data", keep);
    child.stderr!.removeAllListeners("data").on("data", keep);
    server.output = output;
    return server;
  }

  /** RSS after a full garbage collection: live memory, not garbage V8 has yet to collect. */
  async rssAfterGc(): Promise<Rss> {
    await this.ask("bench:gc");
    await sleep(100);
    return this.rss();
  }

  /** RSS now, garbage and all. */
  rss(): Rss {
    const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s*(\\d+)`, "m").exec(status)?.[1] ?? NaN) * 1024;
    return { vmRss: kb("VmRSS"), rssAnon: kb("RssAnon"), rssFile: kb("RssFile") };
  }

  private ask<T>(type: string): Promise<T> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${type}`)), 30_000);
      this.pending.set(id, (m) => {
        clearTimeout(timer);
        resolve(m as T);
      });
      this.child.send({ type, id });
    });
  }

  /** The probe's records since the last reset. */
  async profile(): Promise<Profile> {
    return (await this.ask<{ profile: Profile }>("bench:profile")).profile;
  }

  /** Clear the probe's records. */
  async reset(): Promise<void> {
    await this.ask("bench:reset");
  }

  /** Start the V8 CPU profiler in the server. */
  async cpuStart(): Promise<void> {
    await this.ask("bench:cpu-start");
  }

  /** Stop the profiler and take its profile. */
  async cpuStop(): Promise<CpuProfile> {
    return (await this.ask<{ profile: CpuProfile }>("bench:cpu-stop")).profile;
  }

  /** The server's /healthz answer. */
  async health(): Promise<{ queue?: { running: number; waiting: number }; prompting?: string; model?: string }> {
    return (await fetch(`${this.url}/healthz`)).json() as Promise<{ queue?: { running: number; waiting: number } }>;
  }

  /** Wait until nothing runs or waits (an aborted generation stops at its next checkpoint). */
  async waitIdle(timeoutMs = 300_000): Promise<void> {
    const until = now() + timeoutMs;
    while (now() < until) {
      const { queue } = await this.health();
      if (queue && queue.running === 0 && queue.waiting === 0) return;
      await sleep(10);
    }
    throw new Error("server did not become idle");
  }

  /** One article as JSON. */
  async generate(body: unknown): Promise<HttpResult> {
    const t0 = now();
    const response = await fetch(`${this.url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY, accept: "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as HttpResult["json"];
    const wallMs = now() - t0;
    if (response.status !== 200) throw new Error(`generate answered ${response.status}: ${JSON.stringify(json).slice(0, 500)}\n${this.output.slice(-2000)}`);
    this.articles.completed++;
    return { wallMs, json };
  }

  /**
   * One article over SSE, nothing queued: the times of `meta`, `outline`, the first `delta`
   * and `done` from the request's start. With `leaveAfter` the client leaves after the first
   * event, or after the first delta (then waits until the server is idle again).
   */
  async stream(body: unknown, leaveAfter?: "first" | "delta"): Promise<SseRun> {
    await this.waitIdle();
    await this.reset();
    const t0 = now();
    const sse = await fetchSse(`${this.url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY, accept: "text/event-stream" },
      body: JSON.stringify(body),
    });
    const run: SseRun = { headersMs: now() - t0, firstEvent: "", firstEventMs: NaN, metaMs: NaN, outlineMs: NaN, firstDeltaMs: NaN, wallMs: NaN, deltas: 0, words: 0, usage: { promptTokens: 0, completionTokens: 0, durationMs: 0 }, profile: undefined };
    for await (const e of sse.events) {
      const at = e.receivedAt - t0;
      if (!run.firstEvent) {
        run.firstEvent = e.event;
        run.firstEventMs = at;
        if (leaveAfter === "first") break;
      }
      if (e.event === "meta") run.metaMs = at;
      else if (e.event === "outline") run.outlineMs = at;
      else if (e.event === "delta") {
        if (run.deltas++ === 0) run.firstDeltaMs = at;
        if (leaveAfter === "delta") break;
      } else if (e.event === "done") {
        run.wallMs = at;
        const done = JSON.parse(e.data) as { usage: SseRun["usage"]; article: { wordCount: number } };
        run.usage = done.usage;
        run.words = done.article.wordCount;
      } else if (e.event === "error") throw new Error(`stream error: ${e.data}\n${this.output.slice(-2000)}`);
    }
    sse.abort();
    if (leaveAfter) {
      await this.waitIdle();
      return run;
    }
    if (!Number.isFinite(run.wallMs)) throw new Error(`stream ended without done\n${this.output.slice(-2000)}`);
    this.articles.completed++;
    run.profile = await this.profile();
    return run;
  }

  /** SIGTERM, then SIGKILL after 30 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 30_000);
    await exited;
    clearTimeout(timer);
  }
}

/** How many clients send how many short articles each, at once. */
export interface ConcurrencyOptions {
  /** The server's --sequences, for the report. */
  sequences: number;
  clients: number;
  perClient: number;
}

/** Aggregate throughput and latency of clients writing short articles at once. */
export async function concurrency(server: BenchServer, { sequences, clients, perClient }: ConcurrencyOptions): Promise<Level> {
  await server.waitIdle();
  await server.reset();
  const latencies: number[] = [];
  let tokens = 0;
  const t0 = now();
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      for (let k = 0; k < perClient; k++) {
        const r = await server.generate(shortArticle(1000 + c * perClient + k));
        latencies.push(r.wallMs);
        tokens += r.json.usage!.completionTokens;
      }
    }),
  );
  const wallMs = now() - t0;
  const b = batchStats(await server.profile());
  return {
    sequences,
    clients,
    requests: clients * perClient,
    tokens,
    wallMs,
    aggregate: tokens / (wallMs / 1000),
    p50: median(latencies),
    p95: quantile(latencies, 0.95),
    tokensPerStep: b.stepTokens / Math.max(1, b.stepCalls),
    busy: b.allMs / wallMs,
  };
}
