import path from "node:path";
import { defineCommand } from "citty";
import { MODELS_DIR } from "../setting-parsers.js";
import { cliCommand } from "../invocation.js";
import { listModels, megabytes, pullModel } from "../model/download.js";
import { ggufProblem } from "../model/gguf.js";
import { DEFAULT_PRESET, PRESETS } from "../model/presets.js";
import { UsageError, fail } from "./fail.js";
import { progressDisplay } from "./progress.js";

/** A path as the user would type it from here. */
function shown(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

/** "~1.1 GB", "~676 MB": for the approximate sizes of presets. */
function approximately(bytes: number): string {
  return bytes >= 1e9 ? `~${(bytes / 1e9).toFixed(1)} GB` : `~${Math.round(bytes / 1e6)} MB`;
}

const presetList = Object.values(PRESETS)
  .map((p) => `"${p.name}" = ${p.description}`)
  .join("; ");

const dirArg = {
  type: "string",
  description: `Models folder (default ${MODELS_DIR}/ in the working directory)`,
} as const;

const pullCommand = defineCommand({
  meta: {
    name: "pull",
    description: `Download a model (a preset, an hf: URI or a URL) into ${MODELS_DIR}/; an interrupted download resumes`,
  },
  args: {
    source: {
      type: "positional",
      required: false,
      description: `A preset (default "${DEFAULT_PRESET}"; ${presetList}), an hf: URI (hf:user/repo/file.gguf, hf:user/repo:Q4_K_M) or an http(s):// URL`,
    },
    dir: dirArg,
    sha256: { type: "string", description: "Expected SHA-256 of the file; a mismatch deletes it and fails" },
    file: { type: "string", description: "File name to save as (default the name in the URI/URL)" },
    timeout: { type: "string", description: "Seconds to wait for the server to answer (default 15)" },
  },
  async run({ args }) {
    const controller = new AbortController();
    const stop = () => controller.abort();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    const display = progressDisplay();
    try {
      const timeout = args.timeout === undefined ? undefined : Number(args.timeout);
      if (timeout !== undefined && !(timeout > 0 && timeout <= 3600)) {
        throw new UsageError(`timeout must be a number of seconds from 1 to 3600, got "${args.timeout}"`);
      }
      const model = await pullModel({
        source: args.source,
        dir: path.resolve(args.dir ?? MODELS_DIR),
        sha256: args.sha256,
        fileName: args.file,
        ...(timeout ? { timeoutMs: timeout * 1000 } : {}),
        signal: controller.signal,
        onStart: (start) => display.start(start),
        onProgress: (progress) => display.update(progress),
      });
      display.end();
      const more = model.files.length > 1 ? ` + ${model.files.length - 1} more part${model.files.length > 2 ? "s" : ""}` : "";
      const verb = model.alreadyPresent ? "already present:" : "pulled";
      process.stdout.write(`${verb} ${shown(model.path)}${more} (${megabytes(model.bytes)})\n`);
    } catch (error) {
      display.end();
      fail(error);
    } finally {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
    }
  },
});

const listCommand = defineCommand({
  meta: { name: "list", description: `List the .gguf models in ${MODELS_DIR}/` },
  args: { dir: dirArg },
  async run({ args }) {
    try {
      const dir = path.resolve(args.dir ?? MODELS_DIR);
      const models = await listModels(dir);
      if (models.length === 0) {
        const preset = PRESETS[DEFAULT_PRESET];
        process.stderr.write(
          `no models in ${shown(dir)}/: run "${cliCommand("models pull")}" to download ${preset.file} (${approximately(preset.bytes)}), ` +
            `"${cliCommand("models pull small")}" for slow machines, or copy a .gguf file into ${shown(dir)}/\n`,
        );
        return;
      }
      const width = Math.max(...models.map((m) => m.file.length));
      // A .gguf name is no promise: a file llama.cpp cannot read says why, beside its size.
      const problems = await Promise.all(models.map((model) => ggufProblem(path.join(dir, model.file), { name: model.file })));
      for (const [i, model] of models.entries()) {
        const problem = problems[i] ? `  (${problems[i]!.replace(/: [^:]*$/, "")}: cannot be used)` : "";
        process.stdout.write(`${model.file.padEnd(width)}  ${megabytes(model.bytes).padStart(10)}${problem}\n`);
      }
    } catch (error) {
      fail(error);
    }
  },
});

/** `inkpress models`: download and list GGUF models. */
export const modelsCommand = defineCommand({
  meta: { name: "models", description: "Download and list GGUF models" },
  subCommands: { pull: pullCommand, list: listCommand },
});
