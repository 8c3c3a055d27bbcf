/**
 * Downloading models into models/: by preset name, `hf:` URI or http(s) URL.
 *
 * The transfer is node-llama-cpp's `createModelDownloader` (ipull underneath). It writes into
 * `<file>.ipull` (the data at its final offsets, followed by a JSON progress record) and renames
 * the file to `<file>` only once complete, so models/ never holds a half file under a `.gguf`
 * name. An interrupted transfer resumes with Range requests: within one run ipull retries a
 * dropped connection itself; across runs (Ctrl-C, a stall, a reboot) the next pull of the same
 * source reads the progress record and fetches only the 5 MB chunks it does not have yet.
 *
 * Around it, this module adds what the downloader leaves out: a bounded wait for an unreachable
 * or silent server (ipull retries a refused connection about 150 times, for minutes), a stall
 * watchdog, a disk-space check, and verification of the result (GGUF header always, SHA-256
 * when one is pinned) that deletes a bad file.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, readdir, rename, rm, stat, statfs } from "node:fs/promises";
import path from "node:path";
import { createModelDownloader, type ModelDownloader } from "node-llama-cpp";
import { ModelPullError } from "./errors.js";
import { DEFAULT_PRESET, PRESETS, isPresetName, type ModelPreset, type PresetName } from "./presets.js";

export { ModelPullError, type PullErrorCode } from "./errors.js";

export interface PullProgress {
  downloadedBytes: number;
  /** 0 when the server does not say. */
  totalBytes: number;
}

export interface PullStart extends PullProgress {
  /** Paths of the files being written (several for a split model), entry file first. */
  files: string[];
  /** What is downloaded: the preset's URI, the `hf:` URI or the URL. */
  source: string;
  /** Bytes already on disk from an interrupted earlier pull. */
  resumedBytes: number;
}

export interface PullOptions {
  /** A preset name (`default`, `small`, `large`), an `hf:` URI or an http(s) URL. Default: the default preset. */
  source?: string;
  /** Folder the model goes into (created if missing). */
  dir: string;
  /** Called once the size is known, before the first byte. */
  onStart?: (start: PullStart) => void;
  /** Called as bytes arrive. */
  onProgress?: (progress: PullProgress) => void;
  /** Aborting keeps the partial file, so the next pull resumes. */
  signal?: AbortSignal;
  /** Expected hex SHA-256 of the (entry) file; overrides the preset's. */
  sha256?: string;
  /** File name in `dir`; default: the preset's, or the URI's / URL's last path segment. */
  fileName?: string;
  /** How long to wait for the server to answer and to tell the size. Default 15 s. */
  timeoutMs?: number;
  /** How long without a single byte before reconnecting; after 3 stalled transfers the pull fails, keeping the partial file. Default 60 s. */
  stallTimeoutMs?: number;
  /** Hugging Face endpoint for `hf:` URIs (a mirror); default: MODEL_ENDPOINT, HF_ENDPOINT, else huggingface.co. */
  hfEndpoint?: string;
}

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

export interface LocalModel {
  file: string;
  bytes: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_STALL_MS = 60_000;
/** Transfers a stall may start before the pull gives up. */
const STALL_ATTEMPTS = 3;
/** How long a stopped transfer gets to wind down. */
const STOP_GRACE_MS = 2_000;
const SPLIT_PART = /-(\d{5})-of-(\d{5})\.gguf$/;

/** Download a model into `dir`, verify it, and return where it is. Failures are {@link ModelPullError}s. */
export async function pullModel(options: PullOptions): Promise<PulledModel> {
  const target = resolveSource(options);
  const dir = path.resolve(options.dir);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const stallMs = options.stallTimeoutMs ?? DEFAULT_STALL_MS;
  throwIfCancelled(options.signal);

  // Already there (e.g. a second `models pull`, or offline with the file copied in): no network.
  if (target.fileName) {
    const files = splitPartNames(target.fileName).map((f) => path.join(dir, f));
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

  const hfEndpoint = huggingFaceEndpoint(options.hfEndpoint);
  // A stall gets fresh connections, resuming from what is on disk, before giving up.
  for (let attempt = 1; ; attempt++) {
    try {
      return await pullOnce(target, dir, hfEndpoint, timeoutMs, stallMs, options);
    } catch (error) {
      if (!(error instanceof ModelPullError && error.code === "stalled" && attempt < STALL_ATTEMPTS)) throw error;
    }
  }
}

/** One probe, lookup, transfer and verification. */
async function pullOnce(
  target: Target,
  dir: string,
  hfEndpoint: string,
  timeoutMs: number,
  stallMs: number,
  options: PullOptions,
): Promise<PulledModel> {
  await probe(target, hfEndpoint, timeoutMs, options.signal);

  // Progress goes through here so the watchdog sees every byte.
  let lastBytes = -1;
  let lastChange = Date.now();
  const onDownloadProgress = (status: { totalSize: number; downloadedSize: number }) => {
    if (status.downloadedSize !== lastBytes) {
      lastBytes = status.downloadedSize;
      lastChange = Date.now();
    }
    options.onProgress?.({ downloadedBytes: status.downloadedSize, totalBytes: status.totalSize });
  };

  const downloader = await withTimeout(
    createModelDownloader({
      modelUri: target.uri,
      dirPath: dir,
      fileName: target.fileName,
      showCliProgress: false,
      onProgress: onDownloadProgress,
      deleteTempFileOnCancel: false,
      skipExisting: true,
      endpoints: { huggingFace: hfEndpoint },
    }),
    timeoutMs,
    options.signal,
    () => `no usable answer from ${hostOf(target, hfEndpoint)} within ${seconds(timeoutMs)} while looking up ${target.label}${OFFLINE_HINT}`,
  ).catch((error: unknown) => {
    throw asPullError(error, target);
  });

  const files = downloader.filesInfo.map((info) => info.filePath);
  const totalBytes = downloader.totalSize;
  const resumedBytes = downloader.downloadedSize;
  await checkFreeSpace(dir, totalBytes - resumedBytes);
  options.onStart?.({ files, source: target.uri, totalBytes, downloadedBytes: resumedBytes, resumedBytes });

  // Stop on the caller's signal or when nothing arrives for too long; either way keep the partial file.
  const stop = new AbortController();
  let stopReason: "cancelled" | "stalled" | undefined;
  const halt = (reason: "cancelled" | "stalled") => {
    stopReason ??= reason;
    stop.abort();
  };
  const onAbort = () => halt("cancelled");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) halt("cancelled");
  lastChange = Date.now();
  const watchdog = setInterval(() => Date.now() - lastChange > stallMs && halt("stalled"), Math.min(1_000, Math.max(50, stallMs / 4)));
  // Cancelling does not always end download(): a request still waiting for its response headers
  // is not aborted by ipull. Give it a moment, then stop waiting.
  const stopped = new Promise<void>((resolve) => stop.signal.addEventListener("abort", () => setTimeout(resolve, STOP_GRACE_MS), { once: true }));
  const transfer = downloader.download({ signal: stop.signal });
  transfer.catch(() => {}); // settled late or never once stopped; failures before that are handled below
  try {
    await Promise.race([transfer, stopped]);
  } catch (error) {
    if (!stopReason) {
      await downloader.cancel({ deleteTempFile: false }).catch(() => {});
      throw asPullError(error, target);
    }
  } finally {
    clearInterval(watchdog);
    options.signal?.removeEventListener("abort", onAbort);
  }
  if (stopReason) {
    await downloader.cancel({ deleteTempFile: false }).catch(() => {});
    // ipull writes whole 5 MB chunks: before the first one, there is nothing to resume from.
    const partial = (await allExist(files.map((file) => `${file}.ipull`)))
      ? `the partial file ${path.basename(files[0]!)}.ipull is kept, run the same pull again to resume`
      : "nothing was saved yet";
    throw new ModelPullError(
      stopReason,
      stopReason === "stalled"
        ? `download of ${target.label} stalled: no data for ${seconds(stallMs)}; ${partial}`
        : `download of ${target.label} cancelled; ${partial}`,
    );
  }

  const expectedSizes = downloader.filesInfo.map((f) => f.totalSize);
  await removeProgressTrailers(files, expectedSizes);
  await verifyFiles(files, target, { deleteOnFailure: true, expectedSizes });
  const finalFiles = await ensureGgufExtension(files);
  return { ...(await describe(finalFiles, target)), alreadyPresent: false };
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

export interface EnsureModelOptions extends Omit<PullOptions, "dir" | "source"> {
  /** Preset pulled when `dir` holds no model. Default: the default preset. */
  preset?: PresetName;
  /** The one-line error when the hub cannot be reached; default names the pull command and the air-gapped way. */
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
export function offlineMessage(dir: string, preset: ModelPreset = PRESETS[DEFAULT_PRESET], cause?: string): string {
  const relative = path.relative(process.cwd(), path.resolve(dir));
  const shown = relative.startsWith("..") || path.isAbsolute(relative) ? path.resolve(dir) : relative || ".";
  return (
    `no model in ${shown}/ and the model hub is unreachable${cause ? ` (${cause.replace(OFFLINE_HINT, "")})` : ""}: ` +
    `run "inkpress models pull" on a connected machine, or, air-gapped, download ${preset.file} from ${preset.page} ` +
    `elsewhere and copy it into ${shown}/ (or set INKPRESS_MODEL=/path/to/model.gguf)`
  );
}

/**
 * Throws a {@link ModelPullError} ("invalid") unless `file` starts like a GGUF model that
 * llama.cpp reads: the magic "GGUF", version 2 or 3, and a complete fixed header.
 */
export async function verifyGguf(file: string): Promise<void> {
  const handle = await open(file, "r").catch(() => {
    throw new ModelPullError("invalid", `model file not found: ${file}`);
  });
  try {
    const header = Buffer.alloc(24);
    const { bytesRead } = await handle.read(header, 0, 24, 0);
    const magic = header.toString("latin1", 0, 4);
    if (bytesRead < 4 || magic !== "GGUF") {
      throw new ModelPullError("invalid", `not a GGUF model file (it starts with ${JSON.stringify(printable(header.subarray(0, Math.min(bytesRead, 16))))}): ${path.basename(file)}`);
    }
    const version = bytesRead >= 8 ? header.readUInt32LE(4) : 0;
    if (version !== 2 && version !== 3) {
      throw new ModelPullError("invalid", `unsupported GGUF version ${version} (llama.cpp reads 2 and 3): ${path.basename(file)}`);
    }
    if (bytesRead < 24) throw new ModelPullError("invalid", `truncated GGUF file (${bytesRead} bytes): ${path.basename(file)}`);
  } finally {
    await handle.close();
  }
}

/** Hex SHA-256 of a file, streamed. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

// ---------------------------------------------------------------------------------------------

interface Target {
  /** The URI or URL handed to node-llama-cpp. */
  uri: string;
  kind: "hf" | "url";
  /** How messages name it. */
  label: string;
  fileName?: string;
  sha256?: string;
  preset?: ModelPreset;
}

const OFFLINE_HINT = "; offline or air-gapped, copy a .gguf file into the models folder instead";

function resolveSource(options: PullOptions): Target {
  const source = (options.source ?? "").trim() || DEFAULT_PRESET;
  const sha256 = checkSha(options.sha256);
  if (isPresetName(source)) {
    const preset = PRESETS[source];
    return {
      uri: preset.uri,
      kind: "hf",
      label: `${preset.file} (preset "${preset.name}")`,
      fileName: options.fileName ?? preset.file,
      sha256: sha256 ?? checkSha(preset.sha256),
      preset,
    };
  }
  if (/^(hf|huggingface):/i.test(source)) {
    // hf:user/repo/path/file.gguf names the file; hf:user/repo:quant is looked up through the hub's API.
    const [user, repo, ...rest] = source.replace(/^[a-z]+:(\/\/)?/i, "").split("/");
    if (!user || !repo) throw new ModelPullError("source", `not a valid hf: URI: "${source}" (expected hf:user/repo:quant or hf:user/repo/file.gguf)`);
    const filePath = rest.join("/").replace(/#.*$/, "");
    const fileName = options.fileName ?? (filePath.toLowerCase().endsWith(".gguf") ? path.posix.basename(filePath) : undefined);
    return { uri: source, kind: "hf", label: source, fileName, sha256 };
  }
  if (/^https?:\/\//i.test(source)) {
    let url: URL;
    try {
      url = new URL(source);
    } catch {
      throw new ModelPullError("source", `not a valid URL: "${source}"`);
    }
    let last = "";
    try {
      last = decodeURIComponent(url.pathname.split("/").pop() ?? "");
    } catch {
      // An undecodable name: let the downloader pick one.
    }
    const fileName = options.fileName ?? (last.toLowerCase().endsWith(".gguf") && !/[\\/]/.test(last) ? last : undefined);
    return { uri: url.href, kind: "url", label: url.href, fileName, sha256 };
  }
  throw new ModelPullError(
    "source",
    `unknown model "${source}": use a preset (${Object.keys(PRESETS).join(", ")}), an hf: URI (hf:user/repo/file.gguf) or an http(s):// URL`,
  );
}

function checkSha(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const hex = value.trim().toLowerCase();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new ModelPullError("source", `not a SHA-256 (64 hex digits): "${value}"`);
  return hex;
}

/** node-llama-cpp's own resolution order, so the probe checks the host it will use. */
function huggingFaceEndpoint(explicit: string | undefined): string {
  const candidates = [explicit, process.env.MODEL_ENDPOINT, process.env.HF_ENDPOINT];
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      const url = new URL(candidate);
      if (url.protocol === "http:" || url.protocol === "https:") return url.href.endsWith("/") ? url.href : `${url.href}/`;
    } catch {
      // not a URL: node-llama-cpp ignores it too
    }
  }
  return "https://huggingface.co/";
}

function hostOf(target: Target, hfEndpoint: string): string {
  return new URL(target.kind === "hf" ? hfEndpoint : target.uri).host;
}

/**
 * One request with a deadline before handing over to the downloader, which would otherwise
 * retry a refused or silent connection for minutes. Any HTTP answer counts as reachable, except
 * a 404/410 for a URL, which fails right here.
 */
async function probe(target: Target, hfEndpoint: string, timeoutMs: number, signal: AbortSignal | undefined): Promise<void> {
  const url = target.kind === "hf" ? hfEndpoint : target.uri;
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const response = await fetch(url, {
      method: "HEAD",
      redirect: "manual",
      signal: signal ? AbortSignal.any([signal, deadline]) : deadline,
    });
    await response.body?.cancel().catch(() => {});
    if (target.kind === "url" && (response.status === 404 || response.status === 410)) {
      throw new ModelPullError("http", `${target.label}: the server answered ${response.status} ${response.statusText || "Not Found"}`);
    }
  } catch (error) {
    if (error instanceof ModelPullError) throw error;
    throwIfCancelled(signal);
    const host = new URL(url).host;
    if (deadline.aborted) {
      throw new ModelPullError("unreachable", `cannot reach ${host}: no answer within ${seconds(timeoutMs)} (downloading ${target.label})${OFFLINE_HINT}`);
    }
    throw new ModelPullError("unreachable", `cannot reach ${host}: ${networkCause(error)} (downloading ${target.label})${OFFLINE_HINT}`);
  }
}

/** Race a promise against a deadline and the caller's signal; a late result is cancelled, a late failure ignored. */
async function withTimeout(
  work: Promise<ModelDownloader>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  message: () => string,
): Promise<ModelDownloader> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ModelPullError("unreachable", message())), timeoutMs);
    onAbort = () => reject(new ModelPullError("cancelled", "download cancelled"));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, guard]);
  } catch (error) {
    work.then((late) => late.cancel({ deleteTempFile: false }), () => {}).catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener("abort", onAbort);
  }
}

function asPullError(error: unknown, target: Target): ModelPullError {
  if (error instanceof ModelPullError) return error;
  const err = error as { statusCode?: number; statusText?: string; code?: string; message?: string };
  if (typeof err.statusCode === "number") {
    const hint = err.statusCode === 401 || err.statusCode === 403 ? " (a gated or private repository needs HF_TOKEN)" : "";
    return new ModelPullError("http", `${target.label}: the server answered ${err.statusCode} ${err.statusText ?? ""}`.trimEnd() + hint);
  }
  if (err.code === "ENOSPC") return new ModelPullError("disk", `disk full while downloading ${target.label}; the partial file is kept, free some space and pull again to resume`);
  if (err.code === "EACCES" || err.code === "EROFS") return new ModelPullError("disk", `cannot write the model: ${err.message}`);
  const message = String(err.message ?? error);
  if (/Failed to fetch manifest|fetch failed/i.test(message)) {
    return new ModelPullError("unreachable", `cannot reach the model hub to resolve ${target.label}: ${networkCause(error)}${OFFLINE_HINT}`);
  }
  if (/Invalid .*URI|Invalid path/i.test(message)) return new ModelPullError("source", message);
  return new ModelPullError("failed", `cannot download ${target.label}: ${message}`);
}

/** "connect ECONNREFUSED 127.0.0.1:9", "getaddrinfo ENOTFOUND huggingface.co", … out of fetch's nested causes. */
function networkCause(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const c = current as { code?: string; message?: string; cause?: unknown; errors?: unknown[] };
    if (c.code && c.message && c.code !== "UND_ERR_SOCKET") return c.message;
    current = c.cause ?? c.errors?.[0];
  }
  const message = String((error as Error)?.message ?? error);
  return message.replace(/^.*?: TypeError: /, "");
}

function splitPartNames(fileName: string): string[] {
  const match = SPLIT_PART.exec(fileName);
  if (!match) return [fileName];
  const parts = Number(match[2]);
  if (!(parts > 0)) return [fileName];
  const stem = fileName.slice(0, match.index);
  return Array.from({ length: parts }, (_, i) => `${stem}-${String(i + 1).padStart(5, "0")}-of-${match[2]}.gguf`);
}

async function allExist(files: string[]): Promise<boolean> {
  for (const file of files) {
    const info = await stat(file).catch(() => undefined);
    if (!info?.isFile()) return false;
  }
  return true;
}

async function verifyFiles(
  files: string[],
  target: Target,
  options: { deleteOnFailure: boolean; expectedSizes?: number[] },
): Promise<void> {
  try {
    for (const [index, file] of files.entries()) {
      const expected = options.expectedSizes?.[index];
      if (expected) {
        const actual = (await stat(file)).size;
        if (actual !== expected) throw new ModelPullError("invalid", `incomplete download of ${path.basename(file)}: ${actual} of ${expected} bytes`);
      }
      await verifyGguf(file);
    }
    if (target.sha256) {
      const actual = await sha256File(files[0]!);
      if (actual !== target.sha256) {
        throw new ModelPullError("checksum", `SHA-256 mismatch for ${path.basename(files[0]!)}: expected ${target.sha256}, got ${actual}`);
      }
    }
  } catch (error) {
    const failure = error instanceof ModelPullError ? error : new ModelPullError("failed", `cannot check ${target.label}: ${(error as Error).message}`);
    if (!options.deleteOnFailure) {
      throw new ModelPullError("exists", `${failure.message}; ${path.dirname(files[0]!)} already has this file but it is not a valid model: delete it and pull again`);
    }
    await Promise.all(files.flatMap((file) => [rm(file, { force: true }), rm(`${file}.ipull`, { force: true })]));
    throw new ModelPullError(failure.code, `${failure.message} (downloaded from ${target.label}; deleted)`);
  }
}

/**
 * ipull 3.9 appends its JSON progress record after the data and truncates it away at the end,
 * but a record save that is still in flight can land after the truncation (seen here on small
 * files: a finished model 63 bytes too long, `{"part":0,"chunks":[2],…}` at its end). Let late
 * writes settle, then cut such a record off; anything else that is too long fails verification.
 * Exported for tests.
 */
export async function removeProgressTrailers(files: string[], expectedSizes: number[], settleMs = 100): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  for (const [index, file] of files.entries()) {
    const expected = expectedSizes[index] ?? 0;
    const size = (await stat(file).catch(() => undefined))?.size ?? 0;
    if (!(expected > 0) || size <= expected || size - expected > 64 * 1024) continue;
    const handle = await open(file, "r+");
    try {
      const tail = Buffer.alloc(size - expected);
      await handle.read(tail, 0, tail.length, expected);
      let record: unknown;
      try {
        record = JSON.parse(tail.toString("utf8"));
      } catch {
        continue;
      }
      if (record && typeof record === "object" && Array.isArray((record as { chunks?: unknown }).chunks)) await handle.truncate(expected);
    } finally {
      await handle.close();
    }
  }
}

/** A URL without a `.gguf` name would be invisible to the server's models/ scan: give it the extension. */
async function ensureGgufExtension(files: string[]): Promise<string[]> {
  if (files.length !== 1 || files[0]!.endsWith(".gguf")) return files;
  const renamed = `${files[0]!}.gguf`;
  await rename(files[0]!, renamed);
  return [renamed];
}

async function describe(files: string[], target: Target): Promise<Omit<PulledModel, "alreadyPresent">> {
  let bytes = 0;
  for (const file of files) bytes += (await stat(file)).size;
  return { path: files[0]!, files, bytes, source: target.uri, ...(target.preset ? { preset: target.preset } : {}) };
}

async function checkFreeSpace(dir: string, needed: number): Promise<void> {
  if (!(needed > 0)) return;
  const info = await statfs(dir).catch(() => undefined);
  if (!info) return;
  const free = info.bavail * info.bsize;
  if (free < needed) {
    throw new ModelPullError("disk", `not enough disk space in ${dir}: the download needs ${megabytes(needed)}, ${megabytes(free)} is free`);
  }
}

function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ModelPullError("cancelled", "download cancelled");
}

function printable(bytes: Buffer): string {
  return bytes.toString("latin1").replace(/[^\x20-\x7e]/g, ".");
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Size in MB with one decimal, as the CLI prints it. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
