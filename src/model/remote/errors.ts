import { InkpressError } from "../../errors.js";

/** The HTTP status the API answers with when the inference server fails it. */
export type UpstreamStatus = 502 | 503 | 504;

/**
 * The inference server failed a request: unreachable, an error status, silent for too long,
 * or a stream cut mid-answer. The message is one line, fit for a problem+json `detail`.
 */
export class UpstreamError extends InkpressError {
  /** Whether the same request may succeed if sent again: the server answered nothing. */
  readonly retryable: boolean;
  /** The error status the server answered with, if it answered. */
  readonly answered: number | undefined;

  constructor(
    /** 502: unreachable or a bad answer; 503: busy or still loading; 504: silent for too long. */
    status: UpstreamStatus,
    message: string,
    details: { retryable?: boolean; answered?: number; cause?: unknown } = {},
  ) {
    super(message.replace(/\s*\n\s*/g, " ").slice(0, 300), {
      status,
      cause: details.cause,
      headers: status === 503 ? { "retry-after": "5" } : {},
    });
    this.name = "UpstreamError";
    this.retryable = details.retryable ?? false;
    this.answered = details.answered;
  }
}

/** The status the API reports for an error status of the inference server. */
export function upstreamStatus(status: number): UpstreamStatus {
  if (status === 503 || status === 429) return 503;
  if (status === 504 || status === 408) return 504;
  return 502;
}
