/**
 * Downloading models into models/: by preset name, `hf:` URI or http(s) URL, in three
 * steps, each in a file of its own: the source resolved (download-source.ts), the transfer
 * with its probe and stall watchdog (download-transfer.ts, node-llama-cpp's downloader
 * underneath, resuming an interrupted pull), and the result verified (download-verify.ts:
 * complete, the pinned SHA-256, a GGUF model llama.cpp reads), a bad download deleted.
 */
import { mkdir, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { huggingFaceEndpoint, OFFLINE_HINT, resolveSource, splitPartNames, type Target } from "./download-source.js";
import { throwIfCancelled, transfer, type PullProgress, type PullStart } from "./download-transfer.js";
import { allExist, ensureGgufExtension, removeProgressTrailers, verifyFiles } from "./download-verify.js";
import { cliCommand } from "../invocation.js";
import { ModelPullError } from "./errors.js";
import { DEFAULT_PRESET, PRESETS, type ModelPreset, type PresetName } from "./presets.js";

export { megabytes, type PullProgress, type PullStart } from "./download-transfer.js";
export { removeProgressTrailers } from "./download-verify.js";
export { ModelPullError, type PullErrorCode } from "./errors.js";

/** What to pull, where to, and how patiently. */
export interface PullOptions {
  /** A preset name (`default`, `small`, `large`), an `hf:` URI or an http(s) URL. @default the default preset */
  source?: string;
  /** Folder the model goes into (created if missing). */
  dir: string;
  /**
   * Called once the size is known, before the first byte.
   * @default none
   */
  onStart?: (start: PullStart) => void;
  /**
   * Called as bytes arrive.
   * @default none
   */
  onProgress?: (progress: PullProgress) => void;
  /**
   * Aborting keeps the partial file, so the next pull resumes.
   * @default none
   */
  signal?: AbortSignal;
  /**
   * Expected hex SHA-256 of the (entry) file; overrides the preset's.
   * @default the preset's; none for an `hf:` URI or a URL
   */
  sha256?: string;
  /** File name in `dir`. @default the preset's, or the URI's / URL's last path segment */
  fileName?: string;
  /** How long to wait for the server to answer and to tell the size. @default 15 s */
  timeoutMs?: number;
  /** How long without a single byte before reconnecting; after 3 stalled transfers the pull fails, keeping the partial file. @default 60 s */
  stallTimeoutMs?: number;
  /** Hugging Face endpoint for `hf:` URIs (a mirror). @default MODEL_ENDPOINT, HF_ENDPOINT, else huggingface.co */
  hfEndpoint?: string;
}

/** A model on disk after a pull. */
export interface PulledModel {
  /** The file to load (the first part of a split model). */
  path: string;
  /** Every file of the model, entry file first. */
  files: string[];
  /** Total size on disk. */
  bytes: number;
  /** The URI or URL it came from. */
  source: string;
  preset?: ModelPreset;
  /** True when the file was already in `dir` and verified, and nothing was downloaded. */
  alreadyPresent: boolean;
}

/** A `.gguf` file of the models folder. */
export interface LocalModel {
  file: string;
  bytes: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_STALL_MS = 60_000;
/** Transfers a stall may start before the pull gives up. */
const STALL_ATTEMPTS = 3;

/** Download a model into `dir`, verify it, and return where it is. Failures are {@link ModelPullError}s. */
export async function pullModel(options: PullOptions): Promise<PulledModel> {
  const target = resolveSource(options);
  const dir = path.resolve(options.dir);
  throwIfCancelled(options.signal);

  // Already there (e.g. a second `models pull`, or offline with the file copied in): no network.
  if (target.fileName) {
    const files = splitPartNames(target.fileName).map((name) => path.join(dir, name));
    if (await allExist(files)) {
      await verifyFiles(files, target, { deleteOnFailure: false });
      return { ...(await describe(files, target)), alreadyPresent: true };
    }
  }

  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new ModelPullError("disk", `cannot create ${dir}: ${(error as Error).message}`);
  }

  const transferOptions = {
    ...options,
    target,
    dir,
    hfEndpoint: huggingFaceEndpoint(options.hfEndpoint),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    stallMs: options.stallTimeoutMs ?? DEFAULT_STALL_MS,
  };
  // A stall gets fresh connections, resuming from what is on disk, before giving up.
  for (let attempt = 1; ; attempt++) {
    try {
      const { files, expectedSizes } = await transfer(transferOptions);
      await removeProgressTrailers(files, expectedSizes);
      await verifyFiles(files, target, { deleteOnFailure: true, expectedSizes });
      return { ...(await describe(await ensureGgufExtension(files), target)), alreadyPresent: false };
    } catch (error) {
      if (!(error instanceof ModelPullError && error.code === "stalled" && attempt < STALL_ATTEMPTS)) throw error;
    }
  }
}

/** The `.gguf` files in `dir`, by name (missing folder: none). */
export async function listModels(dir: string): Promise<LocalModel[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const models: LocalModel[] = [];
  for (const file of names.filter((name) => name.endsWith(".gguf")).sort()) {
    const info = await stat(path.join(dir, file)).catch(() => undefined);
    if (info?.isFile()) models.push({ file, bytes: info.size });
  }
  return models;
}

/** How {@link ensureModel} pulls when the folder is empty. */
export interface EnsureModelOptions extends Omit<PullOptions, "dir" | "source"> {
  /** Preset pulled when `dir` holds no model. @default the default preset */
  preset?: PresetName;
  /** The one-line error when the hub cannot be reached. @default one naming the pull command and the air-gapped way */
  offlineMessage?: string;
}

/**
 * The model to serve when none is configured: the first `.gguf` in `dir`, else the preset,
 * pulled now. Offline, fails with `offlineMessage` (a {@link ModelPullError} with code "unreachable").
 */
export async function ensureModel(dir: string, options: EnsureModelOptions = {}): Promise<string> {
  const existing = (await listModels(dir))[0];
  if (existing) return path.join(path.resolve(dir), existing.file);
  const preset = PRESETS[options.preset ?? DEFAULT_PRESET];
  try {
    return (await pullModel({ ...options, dir, source: preset.name })).path;
  } catch (error) {
    if (error instanceof ModelPullError && error.code === "unreachable") {
      throw new ModelPullError("unreachable", options.offlineMessage ?? offlineMessage(dir, preset, error.message));
    }
    throw error;
  }
}

/** The default one-line message of {@link ensureModel} when offline. */
function offlineMessage(dir: string, preset: ModelPreset = PRESETS[DEFAULT_PRESET], cause?: string): string {
  const relative = path.relative(process.cwd(), path.resolve(dir));
  const shown = relative.startsWith("..") || path.isAbsolute(relative) ? path.resolve(dir) : relative || ".";
  return (
    `no model in ${shown}/ and the model hub is unreachable${cause ? ` (${cause.replace(OFFLINE_HINT, "")})` : ""}: ` +
    `run "${cliCommand("models pull")}" on a connected machine, or, air-gapped, download ${preset.file} from ${preset.page} ` +
    `elsewhere and copy it into ${shown}/ (or set INKPRESS_MODEL=/path/to/model.gguf)`
  );
}

async function describe(files: string[], target: Target): Promise<Omit<PulledModel, "alreadyPresent">> {
  let bytes = 0;
  for (const file of files) bytes += (await stat(file)).size;
  return { path: files[0]!, files, bytes, source: target.uri, ...(target.preset ? { preset: target.preset } : {}) };
}
