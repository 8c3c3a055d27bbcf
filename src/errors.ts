/** What an {@link InkpressError} adds to its message. */
export interface InkpressErrorOptions {
  /**
   * The HTTP status it answers with.
   * @default 500
   */
  status?: number;
  /** Response headers, such as `retry-after`. */
  headers?: Record<string, string>;
  /** Extra problem+json members. */
  extensions?: Record<string, unknown>;
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
