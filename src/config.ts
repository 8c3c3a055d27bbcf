import { existsSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { cliCommand } from "./invocation.js";
import { GPU_CHOICES, type GpuChoice, type GpuLayers } from "./model/gpu.js";

/** A configuration problem, reported as one line before anything starts. */
export class ConfigError extends Error {}

/** No model configured and none in `models/`: `serve` pulls the default one, other commands stop. */
export class NoModelError extends ConfigError {
  constructor(
    message: string,
    /** The folder that was searched, where a pulled model goes. */
    readonly modelsDir: string,
  ) {
    super(message);
  }
}

/** Settings given on the command line; each falls back to its INKPRESS_* variable, then to a default. */
export interface ServeFlags {
  host?: string;
  port?: string;
  model?: string;
  threads?: string;
  sequences?: string;
  "queue-size"?: string;
  timeout?: string;
  "shutdown-grace"?: string;
  "keys-file"?: string;
  "cors-origins"?: string;
  "headers-timeout"?: string;
  "body-timeout"?: string;
  gpu?: string;
  "gpu-layers"?: string;
  backend?: string;
  "data-dir"?: string;
  redis?: string;
  "webhook-allow"?: string;
  "jobs-queue-size"?: string;
  "jobs-retention"?: string;
  "jobs-page-size"?: string;
}

/** A GGUF model loaded in-process. */
export interface ModelConfig {
  modelPath: string;
  threads: number;
  /** Where the model runs. */
  gpu: GpuChoice;
  /** Layers to offload to the GPU. */
  gpuLayers: GpuLayers;
}

/** What writes the articles: a local model, with its sequences. */
export interface ModelSource extends ModelConfig {
  kind: "model";
  sequences: number;
}

/** What writes the articles: an inference server (llama-server, vLLM) instead of a local model. */
export interface BackendSource {
  kind: "backend";
  url: string;
  /** Sent as a Bearer token. */
  key: string | undefined;
  /** Articles in flight upstream; undefined: the server's slot count. */
  sequences: number | undefined;
}

/** Everything the server needs to start. */
export interface ServeConfig {
  host: string;
  port: number;
  /** What writes the articles. */
  source: ModelSource | BackendSource;
  queueSize: number;
  /** Per-request deadline, in seconds. */
  timeoutS: number;
  /** Seconds running generations get to finish on SIGTERM. */
  shutdownGraceS: number;
  /** Keys from INKPRESS_API_KEYS, for quick starts. */
  apiKeys: string[];
  /** The hashed key store the `keys` commands manage. */
  keysFile: string;
  /** Origins allowed by CORS; empty means CORS is off. */
  corsOrigins: string[];
  /** Seconds a client has to send its request headers. */
  headersTimeoutS: number;
  /** Seconds a client has to send its request body. */
  bodyTimeoutS: number;
  /** Where jobs, results, usage and idempotency records live without Redis. */
  dataDir: string;
  /** Redis shared by every replica: jobs, limits, quotas, idempotency records. Undefined: this process alone, under dataDir. */
  redisUrl: string | undefined;
  /** Hosts and CIDR ranges webhooks may reach although they are private. */
  webhookAllow: string[];
  jobs: JobsConfig;
}

/** Bounds of the jobs API. */
export interface JobsConfig {
  /** Jobs that may wait (queued) at once, across all keys. */
  queueSize: number;
  /** Seconds a finished job and its result are kept before they are purged. */
  retentionS: number;
  /** Most jobs one page of `GET /api/v1/jobs` lists. */
  pageSize: number;
}

/** Where jobs, usage and the key store live unless configured. */
export const DEFAULT_DATA_DIR = "data";

/** Where the key store lives unless configured. */
export const DEFAULT_KEYS_FILE = "data/keys.json";

/** Folder searched for a model when none is configured. */
export const MODELS_DIR = "models";

/**
 * Decode threads by default: half the cores, at least one. Token generation is bound by
 * memory bandwidth, and on a 2-core machine one thread measured fastest.
 */
export function defaultThreads(cores = os.availableParallelism()): number {
  return Math.max(1, Math.floor(cores / 2));
}

/** The model settings, shared by the server and the one-shot `generate` command. */
export function resolveModelConfig(
  flags: Pick<ServeFlags, "model" | "threads" | "gpu" | "gpu-layers">,
  env: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): ModelConfig {
  const pick = (flag: string | undefined, name: string) => flag ?? (env[name] || undefined);
  return {
    modelPath: resolveModel(pick(flags.model, "INKPRESS_MODEL"), cwd),
    threads: integer(pick(flags.threads, "INKPRESS_THREADS") ?? String(defaultThreads()), "threads", 1, 256),
    gpu: oneOf(pick(flags.gpu, "INKPRESS_GPU") ?? "auto", "gpu", GPU_CHOICES),
    gpuLayers: gpuLayers(pick(flags["gpu-layers"], "INKPRESS_GPU_LAYERS") ?? "auto"),
  };
}

/**
 * Generations at once by default: half the cores, at least one. Sequences of one context
 * take turns on the same cores, so more of them add latency, not throughput: on 2 cores
 * one sequence gave the highest aggregate tokens/s at 4 clients (BENCHMARKS.md).
 */
export function defaultSequences(cores = os.availableParallelism()): number {
  return Math.max(1, Math.floor(cores / 2));
}

/** Resolve flags, environment and defaults into a checked configuration. */
export function resolveServeConfig(flags: ServeFlags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): ServeConfig {
  const pick = (flag: string | undefined, name: string) => flag ?? (env[name] || undefined);
  return {
    host: pick(flags.host, "INKPRESS_HOST") ?? "127.0.0.1",
    port: integer(pick(flags.port, "INKPRESS_PORT") ?? "3000", "port", 0, 65535),
    source: resolveSource(flags, env, cwd),
    queueSize: integer(pick(flags["queue-size"], "INKPRESS_QUEUE_SIZE") ?? "16", "queue size", 0, 10_000),
    timeoutS: integer(pick(flags.timeout, "INKPRESS_TIMEOUT_S") ?? "600", "timeout", 1, 86_400),
    shutdownGraceS: integer(pick(flags["shutdown-grace"], "INKPRESS_SHUTDOWN_GRACE_S") ?? "30", "shutdown grace", 0, 86_400),
    apiKeys: list(env.INKPRESS_API_KEYS),
    keysFile: keysFile(flags["keys-file"], env, cwd),
    corsOrigins: list(pick(flags["cors-origins"], "INKPRESS_CORS_ORIGINS")),
    headersTimeoutS: integer(pick(flags["headers-timeout"], "INKPRESS_HEADERS_TIMEOUT_S") ?? "10", "headers timeout", 1, 3600),
    bodyTimeoutS: integer(pick(flags["body-timeout"], "INKPRESS_BODY_TIMEOUT_S") ?? "30", "body timeout", 1, 3600),
    dataDir: path.resolve(cwd, pick(flags["data-dir"], "INKPRESS_DATA_DIR") ?? DEFAULT_DATA_DIR),
    redisUrl: redisUrl(pick(flags.redis, "INKPRESS_REDIS_URL")),
    webhookAllow: list(pick(flags["webhook-allow"], "INKPRESS_WEBHOOK_ALLOW")),
    jobs: {
      queueSize: integer(pick(flags["jobs-queue-size"], "INKPRESS_JOBS_QUEUE_SIZE") ?? "1000", "jobs queue size", 1, 1_000_000),
      retentionS: duration(pick(flags["jobs-retention"], "INKPRESS_JOBS_RETENTION") ?? "7d", "jobs retention"),
      pageSize: integer(pick(flags["jobs-page-size"], "INKPRESS_JOBS_PAGE_SIZE") ?? "100", "jobs page size", 1, 1000),
    },
  };
}

function redisUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!/^rediss?:\/\/./i.test(raw) || !URL.canParse(raw)) throw new ConfigError(`redis must be a redis:// or rediss:// URL, got "${raw}"`);
  return raw;
}

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** A duration such as `90s`, `30m`, `12h` or `7d`, in seconds. */
function duration(raw: string, what: string): number {
  const match = /^(\d+)\s*([smhd])$/.exec(raw.trim());
  if (!match || Number(match[1]) < 1) throw new ConfigError(`${what} must be a duration such as 90s, 30m, 12h or 7d, got "${raw}"`);
  return Number(match[1]) * DURATION_UNITS[match[2]!]!;
}

/**
 * A local model, or the inference server of `--backend`. Flags win over the environment; a
 * model and a backend named at the same level are a contradiction, not a silent choice.
 */
function resolveSource(flags: ServeFlags, env: NodeJS.ProcessEnv, cwd: string): ModelSource | BackendSource {
  const pick = (flag: string | undefined, name: string) => flag ?? (env[name] || undefined);
  const sequences = pick(flags.sequences, "INKPRESS_SEQUENCES");
  const count = (raw: string) => integer(raw, "sequences", 1, 64);
  // --model beats INKPRESS_BACKEND, and --backend beats INKPRESS_MODEL.
  const url = flags.backend ?? (flags.model === undefined ? env.INKPRESS_BACKEND || undefined : undefined);
  if (url === undefined) return { kind: "model", ...resolveModelConfig(flags, env, cwd), sequences: count(sequences ?? String(defaultSequences())) };
  const modelBeside = flags.backend !== undefined ? flags.model : env.INKPRESS_MODEL || undefined;
  if (modelBeside !== undefined) {
    throw new ConfigError("a model and a backend are both configured: write with a local model (--model, INKPRESS_MODEL) or an inference server (--backend, INKPRESS_BACKEND), not both");
  }
  if (!/^https?:\/\/[^/]/i.test(url) || !URL.canParse(url)) throw new ConfigError(`backend must be an http:// or https:// URL, got "${url}"`);
  return { kind: "backend", url, key: env.INKPRESS_BACKEND_KEY || undefined, sequences: sequences === undefined ? undefined : count(sequences) };
}

function gpuLayers(raw: string): GpuLayers {
  if (raw === "auto") return raw;
  if (/^\d+$/.test(raw.trim()) && Number(raw) <= 10_000) return Number(raw);
  throw new ConfigError(`gpu layers must be "auto" or a whole number from 0 to 10000, got "${raw}"`);
}

function oneOf<const T extends string>(raw: string, what: string, choices: readonly T[]): T {
  if (!(choices as readonly string[]).includes(raw)) throw new ConfigError(`${what} must be one of ${choices.join(", ")}, got "${raw}"`);
  return raw as T;
}

function integer(raw: string, what: string, min: number, max: number): number {
  const value = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
    throw new ConfigError(`${what} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** A comma-separated setting as a list. */
function list(raw: string | undefined): string[] {
  return (raw ?? "").split(",").map((k) => k.trim()).filter(Boolean);
}

/** The key file: flag, then INKPRESS_KEYS_FILE, then data/keys.json under the working folder. */
export function keysFile(flag: string | undefined, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  return path.resolve(cwd, flag ?? (env.INKPRESS_KEYS_FILE || DEFAULT_KEYS_FILE));
}

/** The configured model, else the first `.gguf` in `models/`. */
function resolveModel(configured: string | undefined, cwd: string): string {
  if (configured) return path.resolve(cwd, configured);
  const dir = path.join(cwd, MODELS_DIR);
  const found = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".gguf")).sort()[0] : undefined;
  if (found) return path.join(dir, found);
  throw new NoModelError(
    `no model configured: run "${cliCommand("models pull")}", copy a .gguf file into ${MODELS_DIR}/, or set INKPRESS_MODEL=/path/to/model.gguf (or --model)`,
    dir,
  );
}
