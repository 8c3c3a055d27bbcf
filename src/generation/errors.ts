import { InkpressError } from "../errors.js";
import { PoolClosedError } from "../model/pool.js";

/** The deadline passed before the article was finished. */
export class GenerationTimeoutError extends InkpressError {
  constructor(timeoutMs: number) {
    super(`The article was not finished within the ${timeoutMs / 1000} s deadline; generation stopped.`, { status: 504 });
  }
}

/** The key the generation runs for was revoked while it ran. */
export class KeyRevokedError extends InkpressError {
  constructor() {
    super("The API key was revoked; generation stopped.", { status: 401, headers: { "www-authenticate": 'ApiKey header="x-api-key"' } });
  }
}

/**
 * Whoever asked for the generation stopped it (the client went away, the job was cancelled).
 * Nobody is left to read the answer: a request ending so is logged as 499 ("client closed request").
 */
export class GenerationCancelledError extends InkpressError {
  constructor() {
    super("The generation was cancelled.", { status: 499 });
  }
}

/** The server stops taking work: the pool's answer, and the connection is closed so the client goes elsewhere. */
export class ShuttingDownError extends PoolClosedError {
  constructor() {
    super();
    this.headers.connection = "close";
  }
}

/**
 * The work was taken from this worker and given to another (a job whose lock this replica lost,
 * while it stood still, to a replica that runs it now): the generation stops at once, and nothing
 * of it counts, neither its result nor its words; the run that holds the work does both.
 */
export class WorkLostError extends InkpressError {
  constructor() {
    super("Another replica runs this job now; this run stopped.", { status: 409 });
  }
}
