import { resolveModelConfig, type ModelConfig } from "../config.js";
import { NoModelError } from "../setting-parsers.js";
import type { SettingFlags } from "../settings.js";

/**
 * The model a command that writes uses when none is configured, none is in `models/` and no
 * backend writes: the default preset, pulled first with its progress (`serve`, `generate` and
 * `batch` alike); offline that fails with one line naming the pull command and the air-gapped
 * way. Undefined when `resolve` (the command's own configuration) finds a model or a backend.
 */
export async function firstStartModel(resolve: () => unknown): Promise<string | undefined> {
  try {
    resolve();
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

/** The local model of `generate` and `batch`: as configured, else the first start's ({@link firstStartModel}). */
export async function localModelConfig(flags: SettingFlags): Promise<ModelConfig> {
  return resolveModelConfig({ flags: { ...flags, model: flags.model ?? (await firstStartModel(() => resolveModelConfig({ flags }))) } });
}
