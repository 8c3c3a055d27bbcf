import { GPU_CHOICES } from "./model/gpu.js";
import {
  MODELS_DIR,
  defaultThreads,
  duration,
  gpuLayers,
  integer,
  list,
  modelPath,
  oneOf,
  optional,
  resolvedPath,
  url,
  type Setting,
} from "./setting-parsers.js";

/**
 * The settings of the server, each described once: its flag, its environment variable, its
 * default, its parser and what it means. The CLI flags, the configuration (config.ts), `serve
 * --help` and the configuration table of docs/operating.md all come from {@link SETTINGS}; a unit
 * test holds the page to it (`npx tsx scripts/docs-settings.ts` rewrites the page's table).
 */

/** Every setting, in the order `--help` and docs/operating.md list them. */
export const SETTINGS = {
  host: {
    flag: "host",
    env: "INKPRESS_HOST",
    default: "127.0.0.1",
    description: "address to listen on",
    parse: (raw: string) => raw,
  },
  port: {
    flag: "port",
    env: "INKPRESS_PORT",
    default: "3000",
    description: "port to listen on",
    details: "a taken port is an error, never a silent move to another one (`0` picks a free port)",
    parse: integer("port", 0, 65_535),
  },
  model: {
    flag: "model",
    env: "INKPRESS_MODEL",
    defaultNote: `first \`.gguf\` in \`${MODELS_DIR}/\``,
    description: "path to a `.gguf` model file",
    parse: modelPath,
  },
  backend: {
    flag: "backend",
    env: "INKPRESS_BACKEND",
    defaultNote: "none: a local model writes",
    description: "URL of an inference server (llama-server, Ollama, vLLM) that writes instead of a local model",
    details: "no model is loaded then, and `--model`, `--threads` and `--gpu` do not apply ([inference servers](#inference-servers))",
    parse: optional(url("backend", /^https?:\/\/[^/]/i, "an http:// or https:// URL")),
  },
  backendModel: {
    flag: "backend-model",
    env: "INKPRESS_BACKEND_MODEL",
    defaultNote: "the only model the server holds",
    description: "the model to write with, on an inference server that holds several (Ollama)",
    details: "as `ollama list` names it; with several models and none named, start-up fails listing them",
    parse: optional((raw) => raw),
  },
  backendKey: {
    env: "INKPRESS_BACKEND_KEY",
    defaultNote: "none",
    description: "token for the inference server of `--backend`",
    details: "sent as `Authorization: Bearer …`",
    parse: optional((raw) => raw),
  },
  gpu: {
    flag: "gpu",
    env: "INKPRESS_GPU",
    default: "auto",
    description: `where a local model runs: ${GPU_CHOICES.map((choice) => `\`${choice}\``).join(", ")}`,
    details:
      "`auto` is the best GPU that works, else the CPU (saying why in one log line); a named GPU that is not there is a start-up error; `off` is the CPU",
    parse: oneOf("gpu", GPU_CHOICES),
  },
  gpuLayers: {
    flag: "gpu-layers",
    env: "INKPRESS_GPU_LAYERS",
    default: "auto",
    defaultNote: "as many as fit",
    description: "model layers to offload to the GPU",
    details: "ignored on the CPU",
    parse: gpuLayers,
  },
  threads: {
    flag: "threads",
    env: "INKPRESS_THREADS",
    defaultNote: "half the cores, at least 1",
    description: "decode threads",
    details: "token generation reads the whole model per token and is bound by memory bandwidth: on 2 cores, 1 thread measured fastest",
    parse: (raw: string | undefined) => (raw === undefined ? defaultThreads() : integer("threads", 1, 256)(raw)),
  },
  window: {
    flag: "window",
    env: "INKPRESS_WINDOW",
    default: "512",
    description: "tokens of the latest prose a local model keeps in view, besides the instructions and the outline",
    details:
      "older prose leaves the model's view as the article grows (its cache is shifted, never evaluated again), so each token costs the same at word 50 and " +
      "at word 3,000; on small models attention over a long view is most of a token's cost; `0` keeps all the context holds; with `--backend`, the " +
      "server's context decides",
    parse: integer("window", 0, 1_000_000),
  },
  apiKeys: {
    env: "INKPRESS_API_KEYS",
    defaultNote: "none",
    description: "comma-separated API keys for quick starts",
    details: "named `env-1`, `env-2`… in logs, with generous limits (6000 requests a minute, 64 at once)",
    parse: list,
  },
  keysFile: {
    flag: "keys-file",
    env: "INKPRESS_KEYS_FILE",
    default: "./data/keys.json",
    description: "the hashed key store that `inkpress keys` manages",
    details: "the server follows it while it runs",
    parse: resolvedPath,
  },
  sequences: {
    flag: "sequences",
    env: "INKPRESS_SEQUENCES",
    defaultNote: "half the cores, at least 1; with `--backend`, the server's slots",
    description: "generations that run at once",
    details:
      "sequences of one shared context take turns on the same cores, so on 2 cores one measured best for aggregate throughput; with `--backend`, articles " +
      "in flight upstream",
    parse: optional(integer("sequences", 1, 64)),
  },
  queueSize: {
    flag: "queue-size",
    env: "INKPRESS_QUEUE_SIZE",
    default: "16",
    description: "requests that may wait for a free sequence",
    details: "beyond that: 503 with `Retry-After`",
    parse: integer("queue size", 0, 10_000),
  },
  timeout: {
    flag: "timeout",
    env: "INKPRESS_TIMEOUT_S",
    default: "600",
    description: "per-request deadline in seconds",
    details: "past it: 504, and the generation stops",
    parse: integer("timeout", 1, 86_400),
  },
  shutdownGrace: {
    flag: "shutdown-grace",
    env: "INKPRESS_SHUTDOWN_GRACE_S",
    default: "30",
    description: "seconds running generations get to finish on SIGTERM or SIGINT",
    details: "then they are aborted",
    parse: integer("shutdown grace", 0, 86_400),
  },
  corsOrigins: {
    flag: "cors-origins",
    env: "INKPRESS_CORS_ORIGINS",
    defaultNote: "none: CORS is off",
    description: "comma-separated origins allowed to call the API from a browser (CORS)",
    parse: list,
  },
  headersTimeout: {
    flag: "headers-timeout",
    env: "INKPRESS_HEADERS_TIMEOUT_S",
    default: "10",
    description: "seconds a client has to send its request headers",
    details: "past it: 408 (against slowloris)",
    parse: integer("headers timeout", 1, 3600),
  },
  bodyTimeout: {
    flag: "body-timeout",
    env: "INKPRESS_BODY_TIMEOUT_S",
    default: "30",
    description: "seconds a client has to send its request body",
    details: "past it: 408",
    parse: integer("body timeout", 1, 3600),
  },
  analyseTimeout: {
    flag: "analyse-timeout",
    env: "INKPRESS_ANALYSE_TIMEOUT_S",
    default: "10",
    description: "seconds one analysis of an article may take",
    details: "on a worker thread; past it: 422 naming the article's field",
    parse: integer("analyse timeout", 1, 3600),
  },
  dataDir: {
    flag: "data-dir",
    env: "INKPRESS_DATA_DIR",
    default: "./data",
    description: "where jobs, results, usage and idempotency records live without Redis",
    details: "jobs in `jobs/`, one JSON file each; one server per data folder",
    parse: resolvedPath,
  },
  redis: {
    flag: "redis",
    env: "INKPRESS_REDIS_URL",
    defaultNote: "none: this process alone",
    description: "`redis://` URL shared by every replica",
    details:
      "it holds the job queue and records, rate-limit windows, concurrency counts, daily word quotas and idempotency records ([more than one " +
      "machine](#more-than-one-machine))",
    parse: optional(url("redis", /^rediss?:\/\/./i, "a redis:// or rediss:// URL")),
  },
  webhookAllow: {
    flag: "webhook-allow",
    env: "INKPRESS_WEBHOOK_ALLOW",
    defaultNote: "none",
    description:
      "comma-separated hosts, addresses or CIDR ranges that webhooks may reach although loopback or private, e.g. `127.0.0.1,10.0.0.0/8`",
    parse: list,
  },
  publishTargets: {
    flag: "publish-targets",
    env: "INKPRESS_PUBLISH_TARGETS",
    defaultNote: "none: nothing is published",
    description: "a JSON file of publishing targets (WordPress, Ghost): names, URLs and where their credentials are",
    details: "a key publishes only to the targets `keys create --publish-to` gave it ([publishing](#publishing))",
    parse: (raw: string | undefined, cwd: string) => (raw === undefined ? undefined : resolvedPath(raw, cwd)),
  },
  voices: {
    flag: "voices",
    env: "INKPRESS_VOICES_DIR",
    defaultNote: "none: `style.voice` is a profile or a note",
    description: "a folder of house voices, each `NAME.voice.json` as `inkpress voice` writes it, that `style.voice` may name",
    details: "read at start; a bad file stops it, naming the file and the field ([a house voice](#a-house-voice))",
    parse: (raw: string | undefined, cwd: string) => (raw === undefined ? undefined : resolvedPath(raw, cwd)),
  },
  publisherName: {
    flag: "publisher-name",
    env: "INKPRESS_PUBLISHER_NAME",
    defaultNote: "none: no `publisher` in the structured data",
    description: "the publisher every article's JSON-LD names, unless the key has its own (`inkpress keys set-publisher`)",
    parse: optional((raw: string) => raw.trim()),
  },
  publisherUrl: {
    flag: "publisher-url",
    env: "INKPRESS_PUBLISHER_URL",
    defaultNote: "none",
    description: "the publisher's home page, with `--publisher-name`",
    parse: optional(url("publisher url", /^https?:\/\/[^/]/i, "an http:// or https:// URL")),
  },
  publisherLogo: {
    flag: "publisher-logo",
    env: "INKPRESS_PUBLISHER_LOGO",
    defaultNote: "none",
    description: "the address of the publisher's logo image, with `--publisher-name`",
    parse: optional(url("publisher logo", /^https?:\/\/[^/]/i, "an http:// or https:// URL")),
  },
  authFailures: {
    flag: "auth-failures",
    env: "INKPRESS_AUTH_FAILURES",
    default: "20",
    description: "failed authentications one client address (IPv6: one /64) may make in 10 seconds",
    details:
      "beyond that, every request from the address is a 429 with `Retry-After` until the 10 seconds pass, valid keys included ([key guessing](#security))",
    parse: integer("auth failures", 1, 1_000_000),
  },
  jobsQueueSize: {
    flag: "jobs-queue-size",
    env: "INKPRESS_JOBS_QUEUE_SIZE",
    default: "1000",
    description: "jobs that may wait at once, across all keys",
    details: "beyond that `POST /api/v1/jobs` is a 503 with `Retry-After`",
    parse: integer("jobs queue size", 1, 1_000_000),
  },
  jobsPerKey: {
    flag: "jobs-per-key",
    env: "INKPRESS_JOBS_PER_KEY",
    defaultNote: "a quarter of `--jobs-queue-size`, at least 1",
    description: "jobs one key may have waiting at once",
    details: "beyond that the key's `POST /api/v1/jobs` is a 429 with `Retry-After`, while other keys still submit",
    parse: optional(integer("jobs per key", 1, 1_000_000)),
  },
  jobsRetention: {
    flag: "jobs-retention",
    env: "INKPRESS_JOBS_RETENTION",
    default: "7d",
    description: "how long a finished job and its result are kept: `90s`, `30m`, `12h`, `7d`…",
    details: "then purged (`expiresAt` on the job)",
    parse: duration("jobs retention"),
  },
  jobsPageSize: {
    flag: "jobs-page-size",
    env: "INKPRESS_JOBS_PAGE_SIZE",
    default: "100",
    description: "most jobs one page of `GET /api/v1/jobs` lists",
    details: "a request's `limit` (default 20) goes up to it",
    parse: integer("jobs page size", 1, 1000),
  },
  logLevel: {
    env: "INKPRESS_LOG_LEVEL",
    default: "3",
    description: "consola log level of the server's own messages",
    details: "0 silent … 5 verbose",
    parse: integer("log level", 0, 5),
  },
} as const satisfies Record<string, Setting<unknown>>;

/** A setting's name in {@link SETTINGS}. */
export type SettingName = keyof typeof SETTINGS;

/** The value a setting resolves to. */
export type SettingValue<N extends SettingName> = ReturnType<(typeof SETTINGS)[N]["parse"]>;

/** The flags of the settings that have one, such as `"gpu-layers"`. */
export type SettingFlag = { [N in SettingName]: (typeof SETTINGS)[N] extends { flag: infer F extends string } ? F : never }[SettingName];

/** Settings given on the command line, by flag, as citty parses them. */
export type SettingFlags = { [F in SettingFlag]?: string };

/** Where settings are read from. */
export interface SettingSources {
  /**
   * Flags as citty parsed them.
   * @default {}
   */
  flags?: SettingFlags;
  /**
   * The environment.
   * @default process.env
   */
  env?: NodeJS.ProcessEnv;
  /**
   * What relative paths are resolved against.
   * @default process.cwd()
   */
  cwd?: string;
}

/** Which level gave a setting: a flag wins over its variable, which wins over the default. */
export type SettingLevel = "flag" | "env" | "default";

/** A setting's text as given, and which level gave it (an empty variable counts as unset). */
export function settingText(name: SettingName, sources: SettingSources = {}): { text: string | undefined; level: SettingLevel } {
  const setting: Setting<unknown> = SETTINGS[name];
  const flag = setting.flag === undefined ? undefined : sources.flags?.[setting.flag as SettingFlag];
  if (flag !== undefined) return { text: flag, level: "flag" };
  const env = (sources.env ?? process.env)[setting.env];
  return env ? { text: env, level: "env" } : { text: setting.default, level: "default" };
}

/** A setting's value: its flag, else its variable, else its default, parsed and checked. */
export function readSetting<N extends SettingName>(name: N, sources: SettingSources = {}): SettingValue<N> {
  const setting: Setting<unknown> = SETTINGS[name];
  const { text } = settingText(name, sources);
  const cwd = sources.cwd ?? process.cwd();
  return (setting.default === undefined ? setting.parse(text, cwd) : setting.parse(text ?? setting.default, cwd)) as SettingValue<N>;
}

/** The default as docs/operating.md shows it (Markdown). */
function defaultShown(setting: Setting<unknown>): string {
  if (setting.default === undefined) return setting.defaultNote ?? "none";
  return `\`${setting.default}\`${setting.defaultNote ? ` (${setting.defaultNote})` : ""}`;
}

/** citty's definition of a flag from the table: the description, its variable and its default. */
type SettingArg = { type: "string"; description: string };

/**
 * citty arguments for these settings (all of them when none are named), each described with
 * its variable and default. No citty default: an absent flag must leave the variable its turn.
 */
export function settingArgs<const N extends SettingName>(
  ...names: N[]
): { [K in N as (typeof SETTINGS)[K] extends { flag: infer F extends string } ? F : never]: SettingArg } {
  const chosen: SettingName[] = names.length ? names : (Object.keys(SETTINGS) as SettingName[]);
  const args: Record<string, SettingArg> = {};
  for (const name of chosen) {
    const setting: Setting<unknown> = SETTINGS[name];
    if (setting.flag === undefined) continue;
    const description = setting.description[0]!.toUpperCase() + setting.description.slice(1);
    args[setting.flag] = { type: "string", description: plain(`${description} (${setting.env}, default ${defaultShown(setting)})`) };
  }
  return args as never;
}

/** The configuration table of docs/operating.md, one row per setting. */
export function settingsTable(): string {
  const rows = Object.values(SETTINGS).map((setting: Setting<unknown>) => {
    const meaning = setting.details ? `${setting.description}; ${setting.details}` : setting.description;
    const flag = setting.flag ? ` \`--${setting.flag}\` ` : " ";
    return `| \`${setting.env}\` |${flag}| ${defaultShown(setting)} | ${meaning} |`;
  });
  return ["| env | flag | default | meaning |", "|---|---|---|---|", ...rows].join("\n");
}

/** The configuration table of a Markdown page (the table under "## Configuration"), as written; undefined without one. */
export function documentedSettingsTable(page: string): string | undefined {
  const section = page.split(/^## /m).find((part) => part.startsWith("Configuration\n"));
  return section && /^\| env \|.*(?:\n\|.*)*/m.exec(section)?.[0];
}

/** Markdown as plain text for a terminal: code spans and links lose their marks. */
function plain(markdown: string): string {
  return markdown.replace(/`/g, "").replace(/\[([^\]]*)\]\([^)]*\)/g, "$1");
}
