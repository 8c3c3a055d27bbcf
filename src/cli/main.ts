#!/usr/bin/env node
import { defineCommand, runMain } from "citty";
import { serveArgs, serveCommand } from "./serve.js";

const main = defineCommand({
  meta: { name: "inkpress", description: "Self-hosted API that writes SEO-optimised articles with a local GGUF model" },
  // The serve flags are known here too, so `inkpress --port 4000` parses as `inkpress serve --port 4000`.
  args: serveArgs,
  // Loaded on use: each command pulls in only what it needs.
  subCommands: {
    serve: serveCommand,
    generate: () => import("./generate.js").then((m) => m.generateCommand),
    keys: () => import("./keys.js").then((m) => m.keysCommand),
    models: () => import("./models.js").then((m) => m.modelsCommand),
  },
  default: "serve",
});

runMain(main);
