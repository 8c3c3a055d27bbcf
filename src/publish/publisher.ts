import type { PublishField, PublishOutcome, Published } from "../contract/publish.js";
import { InkpressError } from "../errors.js";
import type { ApiKey } from "../keys/registry.js";
import type { PublicationRecords } from "../keys/storage.js";
import { log } from "../log.js";
import { TargetCaller } from "./call.js";
import { GhostClient } from "./ghost.js";
import { PublishError, PublishForbiddenError, unknownTarget } from "./errors.js";
import { type CmsClient, LOCAL_OWNER, publishOwned } from "./ownership.js";
import { postOf, type ArticleFields } from "./post.js";
import { readTargets, type PublishTarget } from "./targets.js";
import { WordPressClient } from "./wordpress.js";

/** Who a post belongs to: the key that publishes it, or the command line on this machine (no key). */
export function ownerOf(key: ApiKey | undefined): string {
  return key?.id ?? LOCAL_OWNER;
}

/**
 * The operator's publishing targets and the one way an article is published to them, whoever
 * asks (generate, stream, jobs, refresh, `POST /api/v1/publish`, the CLI), with the records of
 * which key made which post (the key state's, so every replica reads the same).
 */
export class Publishing {
  readonly #clients = new Map<string, { target: PublishTarget; client: CmsClient }>();

  constructor(
    targets: Map<string, PublishTarget>,
    private readonly records: PublicationRecords,
  ) {
    for (const [name, target] of targets) {
      const caller = new TargetCaller(target);
      this.#clients.set(name, { target, client: target.kind === "wordpress" ? new WordPressClient(caller) : new GhostClient(caller) });
    }
  }

  /** The targets of a targets file (`--publish-targets`); none without one. */
  static async open(file: string | undefined, records: PublicationRecords, env: NodeJS.ProcessEnv = process.env): Promise<Publishing> {
    return new Publishing(file ? await readTargets(file, env) : new Map(), records);
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

  /**
   * Publish an article for an owner ({@link ownerOf}): create, or update the post it already is
   * and that owner made; throws a {@link PublishError} (a 409 naming a post that is not the owner's).
   */
  async publish(article: ArticleFields, field: PublishField, owner: string, recordedId?: string): Promise<Published> {
    const entry = this.#clients.get(field.target);
    if (!entry) throw unknownTarget(field.target, this.names);
    const post = postOf(article, field, entry.target.status, recordedId);
    const published = await publishOwned(entry.client, entry.target, post, { owner, records: this.records });
    await pauseForCrashTest(published);
    return published;
  }

  /** Let go of the records' connections (the command line's; a server closes its key state itself). */
  close(): Promise<void> {
    return this.records.close();
  }

  /** Publish an article already written, never throwing: a failure is the outcome's problem, the article stands. */
  async outcome(article: ArticleFields, field: PublishField, owner: string, recordedId?: string): Promise<PublishOutcome> {
    try {
      return await this.publish(article, field, owner, recordedId);
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

/** The problem type of a publish failure by its status; any other status is the site's failure. */
const PROBLEM_TYPE: Record<number, string> = {
  403: "forbidden",
  409: "conflict",
  422: "invalid-request",
  503: "unavailable",
  504: "timeout",
};

/** The problem+json members of a publish failure, as an answer carries it beside the article. */
function problemOf(error: InkpressError): { type: string; title: string; status: number; detail: string } {
  const type = PROBLEM_TYPE[error.status] ?? "upstream-failed";
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
