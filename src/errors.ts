/** What an {@link InkpressError} adds to its message. */
export interface InkpressErrorOptions {
  /**
   * The HTTP status it answers with.
   * @default 500
   */
  status?: number;
  /**
   * Response headers, such as `retry-after`.
   * @default {}
   */
  headers?: Record<string, string>;
  /**
   * Extra problem+json members.
   * @default undefined (none)
   */
  extensions?: Record<string, unknown>;
  /**
   * What caused it, for the log; never shown to a client.
   * @default undefined
   */
  cause?: unknown;
}

/**
 * The one base of the errors inkpress raises on purpose. Its message is the whole story
 * for the user: the CLI prints it as one line, the HTTP layer answers it as a problem+json
 * body with its status. Anything else is unexpected and stays in the log.
 */
export class InkpressError extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly extensions: Record<string, unknown> | undefined;

  constructor(message: string, options: InkpressErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status ?? 500;
    this.headers = options.headers ?? {};
    this.extensions = options.extensions;
  }
}

/** A configuration problem (a bad flag or variable, no key, a taken port): one line before anything starts. */
export class ConfigError extends InkpressError {}

/**
 * A field of a request that only the server can judge (a webhook's host, a webhook for a key
 * without a secret): a 422 naming the field, as a validation failure does.
 */
export class InvalidFieldError extends InkpressError {
  constructor(
    /** The field's path, such as `webhook.url`. */
    readonly field: string,
    /** What is wrong with it, in a few words. */
    readonly problem: string,
    message: string,
    options: Omit<InkpressErrorOptions, "status" | "extensions"> = {},
  ) {
    super(message, { ...options, status: 422 });
  }
}

/** Named problem types; each `type` URI points at its entry in the API reference. */
export const PROBLEM_TYPES = {
  400: "malformed-request",
  401: "unauthorized",
  403: "forbidden",
  404: "not-found",
  405: "method-not-allowed",
  406: "not-acceptable",
  408: "request-timeout",
  413: "payload-too-large",
  409: "conflict",
  415: "unsupported-media-type",
  422: "invalid-request",
  429: "rate-limited",
  431: "headers-too-large",
  500: "internal-error",
  502: "upstream-failed",
  503: "unavailable",
  504: "timeout",
} as const satisfies Record<number, string>;
