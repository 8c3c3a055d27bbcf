/**
 * One transfer of a model: a probe with a deadline, node-llama-cpp's downloader (ipull) to
 * look the files up and fetch them, and a watchdog that stops a transfer nothing arrives on.
 *
 * ipull writes into `<file>.ipull` (the data at its final offsets, then a JSON progress record)
 * and renames it to `<file>` only once complete, so the models folder never holds a half file
 * under a `.gguf` name; a stopped transfer keeps that file, and the next one resumes from it
 * with Range requests. Around ipull this adds what it leaves out: a bounded wait for an
 * unreachable or silent server (ipull retries a refused connection for minutes), the stall
 * watchdog and a disk-space check.
 */
import { statfs } from "node:fs/promises";
import path from "node:path";
import { createModelDownloader, type ModelDownloader } from "node-llama-cpp";
import { OFFLINE_HINT, type Target } from "./download-source.js";
import { allExist } from "./download-verify.js";
import { ModelPullError } from "./errors.js";

/** Bytes of a transfer so far. */
export interface PullProgress {
  downloadedBytes: number;
  /** 0 when the server does not say. */
  totalBytes: number;
}

/** A transfer about to fetch its first byte. */
export interface PullStart extends PullProgress {
  /** Paths of the files being written (several for a split model), entry file first. */
  files: string[];
  /** What is downloaded: the preset's URI, the `hf:` URI or the URL. */
  source: string;
  /** Bytes already on disk from an interrupted earlier pull. */
  resumedBytes: number;
}

/** One transfer's source, destination, limits and listeners. */
export interface TransferOptions {
  target: Target;
  /** The folder the files go into (it exists). */
  dir: string;
  /** The Hugging Face endpoint `hf:` URIs resolve against. */
  hfEndpoint: string;
  /** How long to wait for the server to answer and to tell the size. */
  timeoutMs: number;
  /** How long without a single byte before the transfer stops as stalled. */
  stallMs: number;
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
   * Stops the transfer, keeping the partial file.
   * @default none: only the watchdog stops it
   */
  signal?: AbortSignal;
}

/** What a finished transfer wrote. */
export interface Transferred {
  /** Entry file first. */
  files: string[];
  /** The sizes the server announced, per file. */
  expectedSizes: number[];
}

/** How long a stopped transfer gets to wind down. */
const STOP_GRACE_MS = 2_000;

/** Stops a transfer on the caller's signal, or when no byte arrived for too long. */
class Watchdog {
  readonly stop = new AbortController();
  reason: "cancelled" | "stalled" | undefined;
  #lastBytes = -1;
  #lastChange = Date.now();
  readonly #timer: NodeJS.Timeout;
  readonly #onAbort = () => this.halt("cancelled");

  constructor(
    readonly stallMs: number,
    readonly signal: AbortSignal | undefined,
  ) {
    signal?.addEventListener("abort", this.#onAbort, { once: true });
    if (signal?.aborted) this.halt("cancelled");
    this.#timer = setInterval(
      () => Date.now() - this.#lastChange > stallMs && this.halt("stalled"),
      Math.min(1_000, Math.max(50, stallMs / 4)),
    );
  }

  /** A progress report: a change of the byte count is a sign of life. */
  saw(bytes: number): void {
    if (bytes === this.#lastBytes) return;
    this.#lastBytes = bytes;
    this.#lastChange = Date.now();
  }

  /** Resolves a moment after a stop: ipull does not abort a request still waiting for its headers. */
  stopped(): Promise<void> {
    return new Promise((resolve) => this.stop.signal.addEventListener("abort", () => setTimeout(resolve, STOP_GRACE_MS), { once: true }));
  }

  halt(reason: "cancelled" | "stalled"): void {
    this.reason ??= reason;
    this.stop.abort();
  }

  dispose(): void {
    clearInterval(this.#timer);
    this.signal?.removeEventListener("abort", this.#onAbort);
  }
}

/** One probe, lookup and transfer; the files are written but not verified yet. */
export async function transfer(options: TransferOptions): Promise<Transferred> {
  const { target, dir, stallMs } = options;
  await probe(options);
  let watchdog: Watchdog | undefined;
  const downloader = await lookUp(options, (status) => {
    watchdog?.saw(status.downloadedSize);
    options.onProgress?.({ downloadedBytes: status.downloadedSize, totalBytes: status.totalSize });
  });
  const files = downloader.filesInfo.map((info) => info.filePath);
  const resumedBytes = downloader.downloadedSize;
  await checkFreeSpace(dir, downloader.totalSize - resumedBytes);
  options.onStart?.({ files, source: target.uri, totalBytes: downloader.totalSize, downloadedBytes: resumedBytes, resumedBytes });

  watchdog = new Watchdog(stallMs, options.signal);
  const running = downloader.download({ signal: watchdog.stop.signal });
  running.catch(() => {}); // settled late or never once stopped; failures before that are handled below
  try {
    await Promise.race([running, watchdog.stopped()]);
  } catch (error) {
    if (!watchdog.reason) {
      await downloader.cancel({ deleteTempFile: false }).catch(() => {});
      throw asPullError(error, target);
    }
  } finally {
    watchdog.dispose();
  }
  if (watchdog.reason) {
    await downloader.cancel({ deleteTempFile: false }).catch(() => {});
    throw await stoppedError(watchdog.reason, files, options);
  }
  return { files, expectedSizes: downloader.filesInfo.map((info) => info.totalSize) };
}

/** Why a stopped transfer failed, and whether there is a partial file to resume from. */
async function stoppedError(
  reason: "cancelled" | "stalled",
  files: string[],
  { target, stallMs }: TransferOptions,
): Promise<ModelPullError> {
  // ipull writes whole 5 MB chunks: before the first one, there is nothing to resume from.
  const partial = (await allExist(files.map((file) => `${file}.ipull`)))
    ? `the partial file ${path.basename(files[0]!)}.ipull is kept, run the same pull again to resume`
    : "nothing was saved yet";
  const what = reason === "stalled" ? `stalled: no data for ${seconds(stallMs)}` : "cancelled";
  return new ModelPullError(reason, `download of ${target.label} ${what}; ${partial}`);
}

/** The downloader, once it has looked the files up and knows their sizes, within the timeout. */
async function lookUp(
  options: TransferOptions,
  onProgress: (status: { totalSize: number; downloadedSize: number }) => void,
): Promise<ModelDownloader> {
  const { target, dir, hfEndpoint, timeoutMs } = options;
  const creating = createModelDownloader({
    modelUri: target.uri,
    dirPath: dir,
    fileName: target.fileName,
    showCliProgress: false,
    onProgress,
    deleteTempFileOnCancel: false,
    skipExisting: true,
    endpoints: { huggingFace: hfEndpoint },
  });
  const host = new URL(target.kind === "hf" ? hfEndpoint : target.uri).host;
  const late = `no usable answer from ${host} within ${seconds(timeoutMs)} while looking up ${target.label}${OFFLINE_HINT}`;
  return withTimeout(creating, { timeoutMs, signal: options.signal, message: late }).catch((error: unknown) => {
    throw asPullError(error, target);
  });
}

/**
 * One request with a deadline before handing over to the downloader, which would otherwise
 * retry a refused or silent connection for minutes. Any HTTP answer counts as reachable, except
 * a 404/410 for a URL, which fails right here.
 */
async function probe({ target, hfEndpoint, timeoutMs, signal }: TransferOptions): Promise<void> {
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
    const why = deadline.aborted ? `no answer within ${seconds(timeoutMs)}` : networkCause(error);
    throw new ModelPullError("unreachable", `cannot reach ${new URL(url).host}: ${why} (downloading ${target.label})${OFFLINE_HINT}`);
  }
}

/** How {@link withTimeout} bounds a lookup. */
interface Deadline {
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** The message of the time-out. */
  message: string;
}

/** Race a lookup against a deadline and the caller's signal; a late result is cancelled, a late failure ignored. */
async function withTimeout(work: Promise<ModelDownloader>, { timeoutMs, signal, message }: Deadline): Promise<ModelDownloader> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ModelPullError("unreachable", message)), timeoutMs);
    onAbort = () => reject(new ModelPullError("cancelled", "download cancelled"));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, guard]);
  } catch (error) {
    work
      .then(
        (late) => late.cancel({ deleteTempFile: false }),
        () => {},
      )
      .catch(() => {});
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
  if (err.code === "ENOSPC")
    return new ModelPullError(
      "disk",
      `disk full while downloading ${target.label}; the partial file is kept, free some space and pull again to resume`,
    );
  if (err.code === "EACCES" || err.code === "EROFS") return new ModelPullError("disk", `cannot write the model: ${err.message}`);
  const message = String(err.message ?? error);
  if (/Failed to fetch manifest|fetch failed/i.test(message)) {
    return new ModelPullError(
      "unreachable",
      `cannot reach the model hub to resolve ${target.label}: ${networkCause(error)}${OFFLINE_HINT}`,
    );
  }
  if (/Invalid .*URI|Invalid path/i.test(message)) return new ModelPullError("source", message);
  return new ModelPullError("failed", `cannot download ${target.label}: ${message}`);
}

/** "connect ECONNREFUSED 127.0.0.1:9", "getaddrinfo ENOTFOUND huggingface.co", … out of fetch's nested causes. */
function networkCause(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const link = current as { code?: string; message?: string; cause?: unknown; errors?: unknown[] };
    if (link.code && link.message && link.code !== "UND_ERR_SOCKET") return link.message;
    current = link.cause ?? link.errors?.[0];
  }
  const message = String((error as Error)?.message ?? error);
  return message.replace(/^.*?: TypeError: /, "");
}

async function checkFreeSpace(dir: string, needed: number): Promise<void> {
  if (!(needed > 0)) return;
  const info = await statfs(dir).catch(() => undefined);
  if (!info) return;
  const free = info.bavail * info.bsize;
  if (free < needed) {
    throw new ModelPullError(
      "disk",
      `not enough disk space in ${dir}: the download needs ${megabytes(needed)}, ${megabytes(free)} is free`,
    );
  }
}

/** Throw a "cancelled" {@link ModelPullError} once the signal has aborted. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ModelPullError("cancelled", "download cancelled");
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** Size in MB with one decimal, as the CLI prints it. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
