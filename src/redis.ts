import { Redis } from "ioredis";
import { InkpressError } from "./errors.js";
import { log } from "./log.js";

/** Shared state (Redis) cannot be reached: a 503 the client may retry; work resumes once it is back. */
export class StateUnavailableError extends InkpressError {
  constructor(cause?: unknown) {
    super("The shared state (Redis) is unreachable; retry shortly.", { status: 503, headers: { "retry-after": "5" }, cause });
  }
}

/** Prefix of every key inkpress writes, so one Redis can serve other programs too. */
export const REDIS_PREFIX = "inkpress:";

/**
 * A connection for request-time commands: while Redis is away they fail at once (no offline
 * queue, one try, a short command time-out) so that the request answers 503 instead of hanging; the connection keeps
 * reconnecting in the background and work resumes once Redis is back.
 */
export function connectRedis(url: string, name: string): Redis {
  const redis = new Redis(url, {
    connectionName: `inkpress-${name}`,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    // A Redis that hangs (paused, partitioned) must not hang the request either.
    commandTimeout: 3000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  let down = false;
  redis.on("error", (error: Error) => {
    if (!down) log.error(`redis (${name}): ${error.message}; retrying`);
    down = true;
  });
  redis.on("ready", () => {
    if (down) log.log(`redis (${name}): connected again`);
    down = false;
  });
  return redis;
}

/** Run a Redis command; a connection failure becomes {@link StateUnavailableError}. */
export async function shared<T>(command: Promise<T>): Promise<T> {
  try {
    return await command;
  } catch (error) {
    throw error instanceof InkpressError ? error : new StateUnavailableError(error);
  }
}
