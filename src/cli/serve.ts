import { defineCommand } from "citty";
import { resolveServeConfig } from "../config.js";
import { readSetting, settingArgs } from "../settings.js";
import { fail } from "./fail.js";
import { firstStartModel } from "./first-model.js";

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
      await serve(
        resolveServeConfig({ flags: { ...args, model: args.model ?? (await firstStartModel(() => resolveServeConfig({ flags: args }))) } }),
        { onFatal: fail },
      );
    } catch (error) {
      fail(error);
    }
  },
});
