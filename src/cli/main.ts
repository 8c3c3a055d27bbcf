#!/usr/bin/env node
import { defineCommand, runMain } from "citty";
import { ConfigError, resolveServeConfig } from "../config.js";
import { ModelLoadError } from "../model/runtime.js";
import { serve } from "../server.js";

/** Startup problems are one line and a non-zero exit, never a stack trace. */
function fail(error: unknown): never {
  const known = error instanceof ConfigError || error instanceof ModelLoadError;
  process.stderr.write(`inkpress: ${known ? error.message : `could not start: ${(error as Error).message ?? error}`}\n`);
  process.exit(1);
}

const serveArgs = {
  host: { type: "string", description: "Address to listen on (INKPRESS_HOST, default 127.0.0.1)" },
  port: { type: "string", description: "Port to listen on (INKPRESS_PORT, default 3000)" },
  model: { type: "string", description: "Path to a .gguf model (INKPRESS_MODEL, default: first file in models/)" },
  threads: { type: "string", description: "Decode threads (INKPRESS_THREADS, default half the cores)" },
  sequences: { type: "string", description: "Generations at once (INKPRESS_SEQUENCES, default 2)" },
  "queue-size": { type: "string", description: "Requests that may wait (INKPRESS_QUEUE_SIZE, default 16)" },
  timeout: { type: "string", description: "Per-request deadline in seconds (INKPRESS_TIMEOUT_S, default 600)" },
  "shutdown-grace": { type: "string", description: "Seconds to let running generations finish on SIGTERM (INKPRESS_SHUTDOWN_GRACE_S, default 30)" },
} as const;

const serveCommand = defineCommand({
  meta: { name: "serve", description: "Start the HTTP API" },
  args: serveArgs,
  async run({ args }) {
    try {
      await serve(resolveServeConfig(args));
    } catch (error) {
      fail(error);
    }
  },
});

const main = defineCommand({
  meta: { name: "inkpress", description: "Self-hosted API that writes SEO-optimised articles with a local GGUF model" },
  // The serve flags are known here too, so `inkpress --port 4000` parses as `inkpress serve --port 4000`.
  args: serveArgs,
  subCommands: { serve: serveCommand },
  default: "serve",
});

runMain(main);
