import { InkpressError } from "../errors.js";

/** A model problem that deserves one clear line, not a stack trace (missing file, not GGUF, failed load); a 503 to HTTP clients. */
export class ModelLoadError extends InkpressError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { status: 503, cause: options.cause });
  }
}

/** What went wrong, for callers that react differently (e.g. offline at first start). */
export type PullErrorCode =
  | "source" // not a preset, hf: URI or URL
  | "unreachable" // no answer from the server or hub within the timeout
  | "http" // the server answered with an error status
  | "stalled" // no bytes for too long; the partial file is kept for resuming
  | "cancelled" // the caller aborted; the partial file is kept for resuming
  | "disk" // not enough free space, or the file cannot be written
  | "invalid" // the download is not a GGUF file (deleted)
  | "checksum" // SHA-256 differs from the pinned one (deleted)
  | "exists" // a file of that name is in the way and is not a valid model
  | "failed"; // anything else

/** A pull failure with a one-line message. */
export class ModelPullError extends InkpressError {
  constructor(
    /** What went wrong, for callers that react to it. */
    readonly code: PullErrorCode,
    message: string,
    options: { cause?: unknown } = {},
  ) {
    super(message.replace(/\s*\n\s*/g, " "), options);
  }
}
