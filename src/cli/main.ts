#!/usr/bin/env node
import { createRequire } from "node:module";
import { defineCommand, runMain } from "citty";
import { cliName, userDirectory } from "../invocation.js";
import { log } from "../log.js";
import { readSetting } from "../settings.js";
import { checkArgs } from "./check-args.js";
import { fail } from "./fail.js";
import { serveArgs, serveCommand } from "./serve.js";
import { showUsage } from "./usage.js";

// The same relative path from src/cli/ and from dist/cli/.
const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

const main = defineCommand({
  meta: { name: cliName(), version, description: "Self-hosted API that writes SEO-optimised articles with a local GGUF model" },
  // The serve flags are known here too, so `inkpress --port 4000` parses as `inkpress serve --port 4000`.
  args: serveArgs,
  // Loaded on use: each command pulls in only what it needs.
  subCommands: {
    serve: serveCommand,
    generate: () => import("./generate.js").then((m) => m.generateCommand),
    outline: () => import("./outline.js").then((m) => m.outlineCommand),
    plan: () => import("./plan.js").then((m) => m.planCommand),
    batch: () => import("./batch.js").then((m) => m.batchCommand),
    analyse: () => import("./analyse.js").then((m) => m.analyseCommand),
    voice: () => import("./voice.js").then((m) => m.voiceCommand),
    audit: () => import("./audit.js").then((m) => m.auditCommand),
    links: () => import("./links.js").then((m) => m.linksCommand),
    refresh: () => import("./refresh.js").then((m) => m.refreshCommand),
    publish: () => import("./publish.js").then((m) => m.publishCommand),
    keys: () => import("./keys.js").then((m) => m.keysCommand),
    models: () => import("./models.js").then((m) => m.modelsCommand),
  },
  default: "serve",
  async setup({ rawArgs }) {
    await checkArgs(main, rawArgs).catch(fail);
    try {
      log.level = readSetting("logLevel");
    } catch (error) {
      fail(error);
    }
  },
});

process.chdir(userDirectory());
runMain(main, { showUsage });
