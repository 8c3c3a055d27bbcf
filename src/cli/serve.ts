import { defineCommand } from "citty";
import { resolveServeConfig } from "../config.js";
import { NoModelError } from "../setting-parsers.js";
import { readSetting, settingArgs, type SettingFlags } from "../settings.js";
import { fail } from "./fail.js";

/** Flags of `inkpress serve`: every setting that has a flag, each falling back to its INKPRESS_* variable. */
export const serveArgs = settingArgs();

/** `inkpress serve`: the HTTP API. */
export const serveCommand = defineCommand({
  meta: { name: "serve", description: "Start the HTTP API" },
  args: serveArgs,
  async run({ args }) {
    try {
      // Loaded on use, so that `inkpress keys …` starts without the model runtime.
      const { serve, openKeys } = await import("../server.js");
      // The keys first: a server no one may call is refused before any model download.
      (await openKeys({ apiKeys: readSetting("apiKeys"), keysFile: readSetting("keysFile", { flags: args }) })).close();
      await serve(resolveServeConfig({ flags: { ...args, model: args.model ?? (await firstStartModel(args)) } }), { onFatal: fail });
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
async function firstStartModel(flags: SettingFlags): Promise<string | undefined> {
  try {
    resolveServeConfig({ flags });
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
