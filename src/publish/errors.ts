import { InkpressError, InvalidFieldError } from "../errors.js";

/**
 * A publication that failed: the message names the target and what the operator or user can
 * do, never the credentials. The status is the one the publish route answers with; an article
 * written first is still answered, this problem beside it.
 */
export class PublishError extends InkpressError {
  constructor(
    /** The target's name. */
    readonly target: string,
    message: string,
    options: { status?: number; headers?: Record<string, string>; cause?: unknown } = {},
  ) {
    super(message, { status: options.status ?? 502, headers: options.headers ?? {}, extensions: { target }, cause: options.cause });
  }
}

/** A key publishing to a target it was not given: a 403 naming the target. */
export class PublishForbiddenError extends PublishError {
  constructor(target: string) {
    super(
      target,
      `this key may not publish to target "${target}"; the operator gives a key its targets with \`inkpress keys create --publish-to ${target}\``,
      { status: 403 },
    );
  }
}

/** A target no operator configured: a 422 naming `publish.target`. */
export function unknownTarget(target: string, known: readonly string[]): InvalidFieldError {
  const list = known.length
    ? `the configured targets are ${known.map((t) => `"${t}"`).join(", ")}`
    : "the server has no publishing targets (--publish-targets)";
  return new InvalidFieldError("publish.target", `no target "${target}"`, `publish.target: no target "${target}"; ${list}`);
}
