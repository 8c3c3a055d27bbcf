import type { PublishField, PublishOutcome, Published } from "../article/wire/publish.js";
import { InkpressError } from "../errors.js";
import type { ApiKey } from "../keys/registry.js";
import { log } from "../log.js";
import { TargetCaller } from "./call.js";
import { GhostClient } from "./ghost.js";
import { PublishError, PublishForbiddenError, unknownTarget } from "./errors.js";
import { postOf, type ArticleFields } from "./post.js";
import { readTargets, type PublishTarget } from "./targets.js";
import { WordPressClient } from "./wordpress.js";

/** A CMS client: publishes one post to its target. */
interface CmsClient {
  publish(post: ReturnType<typeof postOf>): Promise<Published>;
}

/**
 * The operator's publishing targets and the one way an article is published to them, whoever
 * asks (generate, stream, jobs, refresh, `POST /api/v1/publish`, the CLI).
 */
export class Publishing {
  readonly #clients = new Map<string, { target: PublishTarget; client: CmsClient }>();

  constructor(targets: Map<string, PublishTarget>) {
    for (const [name, target] of targets) {
      const caller = new TargetCaller(target);
      this.#clients.set(name, { target, client: target.kind === "wordpress" ? new WordPressClient(caller) : new GhostClient(caller) });
    }
  }

  /** The targets of a targets file (`--publish-targets`); none without one. */
  static async open(file: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<Publishing> {
    return new Publishing(file ? await readTargets(file, env) : new Map());
  }

  /** The names of the configured targets. */
  get names(): string[] {
    return [...this.#clients.keys()];
  }

  /** The configured targets a key may publish to (none for a key given none). */
  targetsOf(key: ApiKey | undefined): string[] {
    return this.names.filter((name) => key?.publishTo?.includes(name));
  }

  /**
   * Check, before anything is written, that the target exists (else a 422 naming
   * `publish.target`) and that the key was given it (else a 403 naming the target). No key
   * (a local batch or the CLI on this machine) may publish anywhere the operator configured.
   */
  authorise(key: ApiKey | undefined, target: string): void {
    if (!this.#clients.has(target)) throw unknownTarget(target, this.names);
    if (key && !key.publishTo?.includes(target)) throw new PublishForbiddenError(target);
  }

  /** Publish an article (create, or update the post it already is); throws a {@link PublishError}. */
  async publish(article: ArticleFields, field: PublishField, recordedId?: string): Promise<Published> {
    const entry = this.#clients.get(field.target);
    if (!entry) throw unknownTarget(field.target, this.names);
    const published = await entry.client.publish(postOf(article, field, entry.target.status, recordedId));
    await pauseForCrashTest(published);
    return published;
  }

  /** Publish an article already written, never throwing: a failure is the outcome's problem, the article stands. */
  async outcome(article: ArticleFields, field: PublishField, recordedId?: string): Promise<PublishOutcome> {
    try {
      return await this.publish(article, field, recordedId);
    } catch (error) {
      if (!(error instanceof InkpressError)) log.error(error);
      const known =
        error instanceof InkpressError
          ? error
          : new PublishError(field.target, `publishing to target "${field.target}" failed unexpectedly`, { status: 500 });
      log.warn(`publish to "${field.target}" failed: ${known.message}`);
      return { target: field.target, problem: problemOf(known) };
    }
  }
}

/** The problem+json members of a publish failure, as an answer carries it beside the article. */
function problemOf(error: InkpressError): { type: string; title: string; status: number; detail: string } {
  const type =
    error.status === 403
      ? "forbidden"
      : error.status === 422
        ? "invalid-request"
        : error.status === 503
          ? "unavailable"
          : error.status === 504
            ? "timeout"
            : "upstream-failed";
  return { type: `publish-${type}`, title: "Publishing failed", status: error.status, detail: error.message };
}

/**
 * INKPRESS_TEST_PUBLISH_PAUSE_MS holds a publication between the post's creation on the target
 * and its return to the caller (before a job is marked done or a batch row's files are written),
 * so a test can kill the process exactly there and prove no second post follows. Unset in normal use.
 */
async function pauseForCrashTest(published: Published): Promise<void> {
  const ms = Number(process.env.INKPRESS_TEST_PUBLISH_PAUSE_MS ?? 0);
  if (ms > 0) {
    process.stderr.write(`publish: post ${published.id} saved on "${published.target}", not yet recorded\n`);
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
}
