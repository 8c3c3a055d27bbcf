import { ConfigError } from "./errors.js";
import type { Publisher } from "./contract/request.js";
import type { GpuChoice, GpuLayers } from "./model/gpu.js";
import { defaultSequences } from "./setting-parsers.js";
import { readSetting, settingText, type SettingSources } from "./settings.js";

/*
 * The configuration the server starts with, assembled from the settings table (settings.ts),
 * which says how each setting is given, defaulted and checked.
 */

/** A GGUF model loaded in-process. */
export interface ModelConfig {
  modelPath: string;
  threads: number;
  /** Tokens of the latest prose the model keeps in view; 0: all the context holds. */
  window: number;
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
  /** The model on a server that holds several (Ollama); undefined: the only one. */
  model: string | undefined;
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
  /** Seconds one analysis of an article may take (on a worker thread). */
  analyseTimeoutS: number;
  /** Where jobs, results, usage and idempotency records live without Redis. */
  dataDir: string;
  /** Redis shared by every replica: jobs, limits, quotas, idempotency records. Undefined: this process alone, under dataDir. */
  redisUrl: string | undefined;
  /** Hosts and CIDR ranges webhooks may reach although they are private. */
  webhookAllow: string[];
  /** Failed authentications one client address may make in 10 s before it gets 429s. */
  authFailures: number;
  /** The publisher articles name in their structured data unless the key has its own; undefined: none. */
  publisher: Publisher | undefined;
  /** The operator's publishing targets file; undefined: nothing is published. */
  publishTargets: string | undefined;
  /** The folder of house voices `style.voice` may name; undefined: none. */
  voices: string | undefined;
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
  /** Jobs one key may have waiting at once. */
  perKey: number;
}

/** The model settings, shared by the server and the one-shot `generate` and `batch` commands. */
export function resolveModelConfig(sources: SettingSources = {}): ModelConfig {
  return {
    modelPath: readSetting("model", sources),
    threads: readSetting("threads", sources),
    window: readSetting("window", sources),
    gpu: readSetting("gpu", sources),
    gpuLayers: readSetting("gpuLayers", sources),
  };
}

/** Flags, environment and defaults resolved into a checked configuration. */
export function resolveServeConfig(sources: SettingSources = {}): ServeConfig {
  return {
    host: readSetting("host", sources),
    port: readSetting("port", sources),
    source: resolveSource(sources),
    queueSize: readSetting("queueSize", sources),
    timeoutS: readSetting("timeout", sources),
    shutdownGraceS: readSetting("shutdownGrace", sources),
    apiKeys: readSetting("apiKeys", sources),
    keysFile: readSetting("keysFile", sources),
    corsOrigins: readSetting("corsOrigins", sources),
    headersTimeoutS: readSetting("headersTimeout", sources),
    bodyTimeoutS: readSetting("bodyTimeout", sources),
    analyseTimeoutS: readSetting("analyseTimeout", sources),
    dataDir: readSetting("dataDir", sources),
    redisUrl: readSetting("redis", sources),
    webhookAllow: readSetting("webhookAllow", sources),
    authFailures: readSetting("authFailures", sources),
    publisher: resolvePublisher(sources),
    publishTargets: readSetting("publishTargets", sources),
    voices: readSetting("voices", sources),
    jobs: resolveJobs(sources),
  };
}

function resolvePublisher(sources: SettingSources): Publisher | undefined {
  const name = readSetting("publisherName", sources);
  const url = readSetting("publisherUrl", sources);
  const logo = readSetting("publisherLogo", sources);
  if (!name) {
    if (url || logo) throw new ConfigError("--publisher-url and --publisher-logo need --publisher-name (INKPRESS_PUBLISHER_NAME)");
    return undefined;
  }
  return { name, ...(url ? { url } : {}), ...(logo ? { logo } : {}) };
}

function resolveJobs(sources: SettingSources): JobsConfig {
  const queueSize = readSetting("jobsQueueSize", sources);
  return {
    queueSize,
    retentionS: readSetting("jobsRetention", sources),
    pageSize: readSetting("jobsPageSize", sources),
    // A quarter of the queue by default, so one key's flood leaves room for three others.
    perKey: readSetting("jobsPerKey", sources) ?? Math.max(1, Math.floor(queueSize / 4)),
  };
}

/**
 * A local model, or the inference server of `--backend`. Flags win over the environment; a
 * model and a backend named at the same level are a contradiction, not a silent choice.
 */
function resolveSource(sources: SettingSources): ModelSource | BackendSource {
  const sequences = readSetting("sequences", sources);
  const model = settingText("model", sources).level;
  const backend = settingText("backend", sources).level;
  // --model beats INKPRESS_BACKEND, and --backend beats INKPRESS_MODEL.
  const writesWithBackend = backend === "flag" || (backend === "env" && model !== "flag");
  if (!writesWithBackend) return { kind: "model", ...resolveModelConfig(sources), sequences: sequences ?? defaultSequences() };
  if (model === backend) {
    throw new ConfigError(
      "a model and a backend are both configured: write with a local model (--model, INKPRESS_MODEL) or an inference server (--backend, INKPRESS_BACKEND), " +
        "not both",
    );
  }
  return {
    kind: "backend",
    url: readSetting("backend", sources)!,
    key: readSetting("backendKey", sources),
    sequences,
    model: readSetting("backendModel", sources),
  };
}
