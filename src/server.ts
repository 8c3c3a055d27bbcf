import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import path from "node:path";
import type { H3 } from "h3";
import { toNodeHandler } from "h3/node";
import { listen, type Listener } from "listhen";
import { removeStaleTemporaries } from "./atomic.js";
import type { BackendSource, ModelSource, ServeConfig } from "./config.js";
import { ConfigError, InkpressError } from "./errors.js";
import { createApp } from "./http/app.js";
import { wordVectors } from "./article/index.js";
import { Metrics } from "./http/metrics.js";
import { hardenServer } from "./http/socket.js";
import { cliCommand } from "./invocation.js";
import { GenerationService } from "./generation/service.js";
import { Jobs } from "./jobs/jobs.js";
import { LocalJobStore } from "./jobs/local-store.js";
import { RedisJobStore } from "./jobs/redis-store.js";
import { WebhookAddressGuard } from "./net/address-guard.js";
import { KeyLimiter } from "./keys/limiter.js";
import { LocalKeyStorage } from "./keys/local-storage.js";
import { RedisKeyStorage } from "./keys/redis-storage.js";
import type { KeyStorage } from "./keys/storage.js";
import { StateUnavailableError } from "./redis.js";
import { ApiKeys } from "./keys/registry.js";
import { KeyStoreError } from "./keys/errors.js";
import { KeyStore } from "./keys/store.js";
import { usageFileFor } from "./keys/usage.js";
import { Publishing } from "./publish/publisher.js";
import { NamedVoices } from "./voice/named.js";
import { Lifecycle } from "./lifecycle.js";
import { log } from "./log.js";
import { GPU_NAMES, assertGpu } from "./model/gpu.js";
import { ModelHost } from "./model/host.js";
import { connectBackend } from "./model/remote/connect.js";
import type { BackendReport } from "./contract/health.js";
import type { ReportingBackend } from "./model/report.js";
import { ModelRuntime, assertGguf } from "./model/runtime.js";
import { TextPool } from "./text-pool.js";

/** A running server. */
export interface RunningServer {
  url: string;
  /** The model or inference server, loading in the background while the server listens. */
  modelHost: ModelHost<ReportingBackend>;
  /** Stop taking work, let running generations finish within the grace period, abort the rest, free the model. */
  close(): Promise<void>;
}

/**
 * Listen at once and load the model (or reach the inference server) in the background;
 * requests wait for it. A taken port is an error, never a silent move to another one.
 */
export async function startServer(config: ServeConfig, options: ComposeOptions): Promise<RunningServer> {
  const { source } = config;
  if (source.kind === "model") await Promise.all([assertGguf(source.modelPath), assertGpu(source.gpu)]);
  await assertPortFree(config.host, config.port);
  const { app, modelHost, start, drain, close } = await composeServer(config, options);
  let listener: Listener;
  try {
    listener = await listen(toNodeHandler(app), {
      hostname: config.host,
      port:
        config.port === 0
          ? 0
          : {
              port: config.port,
              ports: [],
              portRange: [config.port, config.port],
              alternativePortRange: [config.port, config.port],
              random: false,
            },
      // listhen binds "localhost" instead of a wildcard address unless told the server is public.
      public: ["", "0.0.0.0", "::"].includes(config.host),
      qr: false,
      showURL: false,
      autoClose: false,
    });
  } catch (error) {
    await close();
    throw error;
  }
  hardenServer(listener.server, config);
  start();
  const port = (listener.server.address() as net.AddressInfo).port;
  return {
    url: `http://${config.host.includes(":") ? `[${config.host}]` : config.host}:${port}`,
    modelHost,
    async close() {
      const closed = listener.close();
      listener.server.closeIdleConnections();
      await drain(config.shutdownGraceS * 1000);
      await closed;
      await close();
    },
  };
}

/** The server's parts, composed but not listening. */
export interface ComposedServer {
  app: H3;
  /** The model or inference server, loading in the background. */
  modelHost: ModelHost<ReportingBackend>;
  /** Start the work outside requests: jobs once the model is ready, and watching the key file. */
  start(): void;
  /** Stop taking work, let running generations finish within `graceMs`, abort the rest. */
  drain(graceMs: number): Promise<void>;
  /** Close the key file, the stores and the model. */
  close(): Promise<void>;
}

/** What {@link composeServer} may replace. */
export interface ComposeOptions {
  /** Loads what writes the articles. @default the model or inference server `config.source` names */
  load?: () => Promise<ReportingBackend>;
  /** Called when another process took the data folder over: this server must stop at once. */
  onDataFolderLost: (error: Error) => void;
}

/** The voices, keys, limits, job store and model host a server is built on, opened from the configuration. */
async function openState(config: ServeConfig, options: ComposeOptions) {
  const { source } = config;
  // The house voices first: a bad file stops the start before any store is opened.
  const voices = await NamedVoices.load(config.voices);
  // Copies that a crash between sync and rename left behind (a key file's holds every webhook secret).
  await Promise.all([removeStaleTemporaries(path.dirname(config.keysFile)), removeStaleTemporaries(config.dataDir, { recursive: true })]);
  const keys = await openKeys(config);
  // With Redis, limits and idempotency are shared by every replica; without, this process keeps them.
  const storage = config.redisUrl
    ? RedisKeyStorage.connect(config.redisUrl)
    : await LocalKeyStorage.open({ dataDir: config.dataDir, usageFile: usageFileFor(config.keysFile) });
  const limiter = new KeyLimiter(storage, { generationMs: config.timeoutS * 1000 });
  const jobStore = config.redisUrl
    ? new RedisJobStore(config.redisUrl)
    : await LocalJobStore.open(config.dataDir, { onLockLost: options.onDataFolderLost });
  const modelHost = new ModelHost<ReportingBackend>(
    options.load ??
      (() =>
        source.kind === "model"
          ? ModelRuntime.load({ ...source, queueSize: config.queueSize })
          : connectBackend(source.url, {
              key: source.key,
              sequences: source.sequences,
              queueSize: config.queueSize,
              ...(source.model === undefined ? {} : { model: source.model }),
            })),
  );
  return { keys, storage, limiter, jobStore, modelHost, voices };
}

/**
 * Open the keys and stores and build the app on them without listening: {@link startServer}
 * serves it over HTTP, and tests call it in-process with `app.request()`.
 */
export async function composeServer(config: ServeConfig, options: ComposeOptions): Promise<ComposedServer> {
  const { keys, storage, limiter, jobStore, modelHost, voices } = await openState(config, options);
  // The on-topic check's vectors, built here once (seconds): each analysis worker loads the cache (text-worker.ts).
  wordVectors();
  const lifecycle = new Lifecycle();
  const metrics = new Metrics(modelHost);
  // Two workers: a text never waits long behind another, and never takes every core from the model.
  const texts = new TextPool({ size: 2, timeoutMs: config.analyseTimeoutS * 1000 });
  // Who made which post is key state: kept where the rest of it is, so every replica sees it.
  const publishing = await Publishing.open(config.publishTargets, storage);
  const generations = new GenerationService({
    modelHost,
    limiter,
    lifecycle,
    publishing,
    timeoutMs: config.timeoutS * 1000,
    meter: () => metrics.article(),
    refreshTexts: (owner) => texts.refreshTexts(owner),
    voices,
    ...(config.publisher ? { publisher: config.publisher } : {}),
  });
  const jobs = new Jobs({
    store: jobStore,
    generations,
    keyById: (id) => keys.byId(id),
    isRevoked: (owner) => keys.isRevoked(owner),
    webhookSecret: (id) => keys.webhookSecret(id),
    guard: new WebhookAddressGuard({ allow: config.webhookAllow }),
    queueSize: config.jobs.queueSize,
    perKey: config.jobs.perKey,
    retentionS: config.jobs.retentionS,
  });
  // Local state is there at once; Redis may not be reachable yet, so its migration must not hold the start.
  const adopted = adoptFormerOwners(keys, { storage, jobs });
  if (!config.redisUrl) await adopted;
  // A revoked key's work stops: its running articles (direct ones and streams) and its jobs.
  keys.onRevoked((id) => {
    generations.revoke(id);
    jobs.revokeKey(id).catch((error: Error) => log.error(`the jobs of a revoked key were not all cancelled: ${error.message}`));
  });
  const app = createApp({
    modelHost,
    metrics,
    keys,
    limiter,
    storage,
    jobs,
    jobsConfig: config.jobs,
    generations,
    publishing,
    timeoutMs: config.timeoutS * 1000,
    bodyTimeoutMs: config.bodyTimeoutS * 1000,
    texts,
    corsOrigins: config.corsOrigins,
    authFailures: config.authFailures,
  });
  return {
    app,
    modelHost,
    start() {
      // Jobs run once the model is ready, as many at once as it has sequences.
      modelHost.ready.then(
        (backend) => jobs.start(Math.max(1, backend.slots.status().capacity - config.queueSize)),
        () => {},
      );
      keys.watch();
    },
    drain: (graceMs) => drainInOrder(lifecycle, texts, graceMs),
    async close() {
      keys.close();
      await texts.close();
      await jobStore.close();
      await storage.close();
      await modelHost.ready.then(
        (backend) => backend.dispose(),
        () => {},
      );
    },
  };
}

/** What {@link serve} does with a problem that stops the server once it has started. */
export interface ServeOptions {
  /** Ends the process in one line (the CLI's `fail`): the model did not load, another server took the data folder. */
  onFatal: (error: unknown) => never;
}

/** Serve until SIGINT or SIGTERM, then shut down gracefully and exit 0. */
export async function serve(config: ServeConfig, { onFatal }: ServeOptions): Promise<void> {
  const server = await startServer(config, { onDataFolderLost: (error) => onFatal(dataFolderLost(config.dataDir, error)) });
  const unusable = (error: Error) => onFatal(error);
  // An inference server is checked before the server says it listens: a wrong --backend is one line, never a server whose every request fails.
  if (config.source.kind === "backend") await server.modelHost.ready.catch(unusable);
  log.log(`inkpress listening on ${server.url} (${writing(config.source)})`);
  server.modelHost.ready.then(async (backend) => {
    const report = await backend.report();
    if (report.kind === "in-process" && report.fallback) log.log(`--gpu auto: ${report.fallback}; running on the CPU`);
    log.log(`model ${backend.name} loaded ${where(report, backend.slots.status().capacity - config.queueSize)}`);
  }, unusable);
  const stop = async () => {
    log.log("shutting down: finishing running generations");
    await server.close();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

/**
 * The data folder's lock is lost, so another server may run its jobs now: this one has stopped
 * its jobs without writing their results, and goes at once, before it serves anything more.
 */
function dataFolderLost(dataDir: string, error: Error): InkpressError {
  return new InkpressError(
    `the data folder ${dataDir} is no longer this server's (${error.message}): stopping, since another server may run its jobs now`,
    { cause: error },
  );
}

/** What writes the articles, for the listening line. */
function writing(source: ModelSource | BackendSource): string {
  if (source.kind === "backend") return `writing with the inference server at ${new URL(source.url).origin}`;
  return `${plural(source.threads, "thread")}, ${plural(source.sequences, "sequence")}`;
}

/** Where the model runs, for the loaded line; an inference server's sequences are news (its slot count by default). */
function where(report: BackendReport, sequences: number): string {
  if (report.kind !== "in-process") {
    // Messages: the server applies a chat template inkpress does not know (docs/operating.md says what that costs).
    const messages = report.prompts === "messages" ? "; prompts as chat messages, in a chat template inkpress does not know" : "";
    return `on ${SERVER_NAMES[report.kind]} at ${report.url} (${plural(sequences, "sequence")}${messages})`;
  }
  if (report.gpu === "cpu") return "on the CPU";
  return `on ${GPU_NAMES[report.gpu]} (${report.gpuLayers} of ${report.layers} layers offloaded)`;
}

/** Inference servers as their makers write their names. */
const SERVER_NAMES = { "llama-server": "llama-server", vllm: "vLLM", ollama: "Ollama" } as const;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Records of 0.1.0 belong to key names: those of a name whose active key inherits it move to
 * that key's id; those of any other name (revoked since) stay unreadable to every key. While
 * Redis cannot be reached this is tried again every two seconds; it never fails the start.
 */
async function adoptFormerOwners(keys: ApiKeys, { storage, jobs }: { storage: KeyStorage; jobs: Jobs }): Promise<void> {
  const owners = keys.formerOwners();
  while (owners.size) {
    try {
      return void (await Promise.all([storage.adoptFormerOwners(owners), jobs.adoptFormerOwners(owners)]));
    } catch (error) {
      if (!(error instanceof StateUnavailableError))
        return log.error(`the records of 0.1.0 key names were not given to their keys: ${(error as Error).message}`);
      await sleep(2000, undefined, { ref: false });
    }
  }
}

/** Fewest characters of an INKPRESS_API_KEYS entry: a shorter key is guessed too soon, throttled or not. */
export const MIN_ENV_KEY_LENGTH = 16;

/**
 * The accepted keys; none at all, an INKPRESS_API_KEYS entry shorter than
 * {@link MIN_ENV_KEY_LENGTH}, or a key file that cannot be trusted, is a startup error.
 * `serve` calls it before anything else, so a missing key is said before a model download.
 */
export async function openKeys(config: Pick<ServeConfig, "apiKeys" | "keysFile">): Promise<ApiKeys> {
  const short = config.apiKeys.findIndex((key) => key.length < MIN_ENV_KEY_LENGTH);
  if (short >= 0) {
    throw new ConfigError(
      `INKPRESS_API_KEYS entry ${short + 1} is ${config.apiKeys[short]!.length} characters long; a key needs at least ${MIN_ENV_KEY_LENGTH}, or it can be ` +
        `guessed: \`${cliCommand("keys create --name NAME")}\` makes a strong one`,
    );
  }
  let keys: ApiKeys;
  try {
    keys = await ApiKeys.open(config.apiKeys, new KeyStore(config.keysFile));
  } catch (error) {
    throw error instanceof KeyStoreError ? new ConfigError(error.message) : error;
  }
  if (keys.size === 0) {
    throw new ConfigError(`no API key configured: create one with \`${cliCommand("keys create --name NAME")}\`, or set INKPRESS_API_KEYS`);
  }
  return keys;
}

function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new ConfigError(`port ${port} on ${host} is already in use: choose another with --port or INKPRESS_PORT`)
          : new ConfigError(`cannot listen on ${host}:${port}: ${error.message}`),
      );
    });
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/**
 * Generations first, then the text workers with what is left of the grace: analyses get the same
 * grace as generations, then their workers stop, whatever they read; a refresh reads its article
 * on them as it runs, so they close only once generations have ended.
 */
async function drainInOrder(lifecycle: Lifecycle, texts: TextPool, graceMs: number): Promise<void> {
  const end = Date.now() + graceMs;
  await lifecycle.drain(graceMs);
  await texts.close(Math.max(0, end - Date.now()));
}
