import { defineCommand } from "citty";
import { NoModelError, resolveServeConfig, type ServeFlags } from "../config.js";
import { fail } from "./fail.js";

/** Flags of `inkpress serve`; each falls back to its INKPRESS_* variable. */
export const serveArgs = {
  host: { type: "string", description: "Address to listen on (INKPRESS_HOST, default 127.0.0.1)" },
  port: { type: "string", description: "Port to listen on (INKPRESS_PORT, default 3000)" },
  model: { type: "string", description: "Path to a .gguf model (INKPRESS_MODEL, default: first file in models/)" },
  threads: { type: "string", description: "Decode threads (INKPRESS_THREADS, default half the cores)" },
  sequences: { type: "string", description: "Generations at once (INKPRESS_SEQUENCES, default half the cores)" },
  "queue-size": { type: "string", description: "Requests that may wait (INKPRESS_QUEUE_SIZE, default 16)" },
  timeout: { type: "string", description: "Per-request deadline in seconds (INKPRESS_TIMEOUT_S, default 600)" },
  "shutdown-grace": { type: "string", description: "Seconds to let running generations finish on SIGTERM (INKPRESS_SHUTDOWN_GRACE_S, default 30)" },
  "keys-file": { type: "string", description: "The hashed key store (INKPRESS_KEYS_FILE, default data/keys.json)" },
  "cors-origins": { type: "string", description: "Comma-separated origins allowed by CORS (INKPRESS_CORS_ORIGINS; CORS off when unset)" },
  "headers-timeout": { type: "string", description: "Seconds a client has to send its headers (INKPRESS_HEADERS_TIMEOUT_S, default 10)" },
  "body-timeout": { type: "string", description: "Seconds a client has to send its body (INKPRESS_BODY_TIMEOUT_S, default 30)" },
  gpu: { type: "string", description: "Where the model runs: auto, cuda, vulkan, metal or off (INKPRESS_GPU, default auto: the best GPU that works, else the CPU)" },
  "gpu-layers": { type: "string", description: "Model layers to offload to the GPU (INKPRESS_GPU_LAYERS, default auto: as many as fit)" },
  backend: { type: "string", description: "URL of an inference server (llama-server, vLLM) to write with instead of a local model (INKPRESS_BACKEND; INKPRESS_BACKEND_KEY is sent as its Bearer token)" },
  "data-dir": { type: "string", description: "Where jobs, results, usage and idempotency records live without Redis (INKPRESS_DATA_DIR, default data)" },
  redis: { type: "string", description: "Redis URL shared by every replica: jobs, limits, quotas, idempotency records (INKPRESS_REDIS_URL; unset: this process alone)" },
  "webhook-allow": { type: "string", description: "Comma-separated hosts or CIDR ranges webhooks may reach although private, e.g. 127.0.0.1,10.0.0.0/8 (INKPRESS_WEBHOOK_ALLOW)" },
  "jobs-queue-size": { type: "string", description: "Jobs that may wait at once (INKPRESS_JOBS_QUEUE_SIZE, default 1000)" },
  "jobs-retention": { type: "string", description: "How long finished jobs and their results are kept, e.g. 12h or 7d (INKPRESS_JOBS_RETENTION, default 7d)" },
  "jobs-page-size": { type: "string", description: "Most jobs one page of GET /api/v1/jobs lists (INKPRESS_JOBS_PAGE_SIZE, default 100)" },
} as const;

/** `inkpress serve`: the HTTP API. */
export const serveCommand = defineCommand({
  meta: { name: "serve", description: "Start the HTTP API" },
  args: serveArgs,
  async run({ args }) {
    try {
      // Loaded on use, so that `inkpress keys …` starts without the model runtime.
      const { serve } = await import("../server.js");
      await serve(resolveServeConfig({ ...args, model: args.model ?? (await firstStartModel(args)) }));
    } catch (error) {
      fail(error);
    }
  },
});

/**
 * With no model configured, none in models/ and no backend, the first start pulls the default
 * preset (with progress) before serving; offline that fails with one line naming the pull
 * command and the air-gapped way. Undefined when a model is configured or present, or a backend writes.
 */
async function firstStartModel(flags: ServeFlags): Promise<string | undefined> {
  try {
    resolveServeConfig(flags);
    return undefined;
  } catch (error) {
    if (!(error instanceof NoModelError)) return undefined;
    const [{ ensureModel }, { progressDisplay }] = await Promise.all([import("../model/download.js"), import("./progress.js")]);
    const display = progressDisplay();
    const cancel = new AbortController();
    process.once("SIGINT", () => cancel.abort());
    try {
      return await ensureModel(error.modelsDir, { onStart: display.start, onProgress: display.update, signal: cancel.signal });
    } finally {
      display.end();
    }
  }
}
