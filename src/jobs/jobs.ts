import { randomUUID } from "node:crypto";
import type { AcceptedRequest } from "../article/index.js";
import type { GenerateRequest } from "../contract/request.js";
import type { RefreshRequest } from "../contract/refresh.js";
import { InkpressError, InvalidFieldError } from "../errors.js";
import { problemOf } from "../problem-details.js";
import { GenerationCancelledError, KeyRevokedError, WorkLostError } from "../generation/errors.js";
import { refreshReservation } from "../generation/reservation.js";
import type { Admission, GenerationService } from "../generation/service.js";
import { LimitError } from "../keys/limiter.js";
import type { ApiKey } from "../keys/registry.js";
import { isEnvKeyName } from "../keys/store.js";
import { PoolClosedError, QueueFullError } from "../model/pool.js";
import { StateUnavailableError } from "../redis.js";
import { FINAL_STATUSES, type Job, type JobStatus, type NewJob } from "../contract/job.js";
import { publicJob, type JobRecord } from "./job.js";
import type { JobPage, JobStore, RetryLater } from "./store.js";
import type { WebhookAddressGuard } from "../net/address-guard.js";
import { retryDelayMs } from "./webhook/backoff.js";
import { deliverWebhook } from "./webhook/deliver.js";
import { webhookMessageId } from "./webhook/sign.js";

/** The bounds and parts jobs run with. */
export interface JobsOptions {
  store: JobStore;
  /** Writes the articles, as it writes direct ones: limits, deadline, cancellation, metrics. */
  generations: GenerationService;
  /** The active key of an id, for its limits and style; undefined once revoked. */
  keyById: (id: string) => ApiKey | undefined;
  /** Whether an owner's work must stop (its key revoked); false for an id not known yet. */
  isRevoked: (owner: string) => boolean;
  /** The webhook secret of a key id, revoked or not. */
  webhookSecret: (id: string) => string | undefined;
  guard: WebhookAddressGuard;
  /** Jobs that may wait at once, across all keys. */
  queueSize: number;
  /** Jobs that may wait at once, per key. */
  perKey: number;
  /** Seconds a finished job is kept. */
  retentionS: number;
}

/** Not found, or another key's job: the same answer, so ids of other keys cannot be probed. */
class JobNotFoundError extends InkpressError {
  constructor(id: string) {
    super(`No job ${id} for this key.`, { status: 404 });
  }
}

/** Why a job ends cancelled without a DELETE. */
const KEY_REVOKED = "key revoked";

/** How long the end of a written article is retried while the shared state is away, so the article is not lost. */
const OUTLAST_MS = 120_000;

/** Run `save` until it works or the shared state has been away for {@link OUTLAST_MS}. */
async function outlast<T>(save: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + OUTLAST_MS;
  for (;;) {
    try {
      return await save();
    } catch (error) {
      if (!(error instanceof StateUnavailableError) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
}

/** How often a running job's progress is saved (and its status checked). */
const PROGRESS_EVERY_MS = 1000;
/** When a key already runs its concurrency limit, its job waits this long before it tries again. */
const BUSY_KEY_RETRY_MS = 2000;
/** What a key over its own queue limit is told to wait. */
const PER_KEY_RETRY_S = 30;

/** Errors that say "not now" rather than "never": the job waits for its next try. */
function retryDelay(error: unknown): number | undefined {
  if (error instanceof LimitError && error.reason === "concurrency") return BUSY_KEY_RETRY_MS;
  if (error instanceof StateUnavailableError) return BUSY_KEY_RETRY_MS;
  if (error instanceof QueueFullError) return error.retryAfterSeconds * 1000;
  // Stopping (draining or stopped) is not the job's fault: it runs again at the next start, here or on another replica.
  if (error instanceof PoolClosedError) return 0;
  return undefined;
}

/**
 * A webhook asked for with a key that cannot sign one: an INKPRESS_API_KEYS key never has a
 * secret (a key file's key does, from `keys create`), a key file's key older than webhook
 * secrets gets one from `keys rotate-secret`.
 */
function noWebhookSecret(key: ApiKey): InvalidFieldError {
  const remedy = isEnvKeyName(key.name)
    ? "keys from INKPRESS_API_KEYS cannot sign webhooks; submit with a key made by `inkpress keys create --name NAME`, or leave out the webhook and " +
      "poll the job"
    : `give it one with \`inkpress keys rotate-secret ${key.name}\``;
  return new InvalidFieldError("webhook", "this key has no webhook secret", `webhook: this key has no webhook secret; ${remedy}.`);
}

/**
 * The jobs API's behaviour, whatever store holds the jobs: submit, read, list, cancel, run
 * one job to its end through the generation service, and announce the end by webhook until
 * the receiver takes it. Jobs belong to a key's id.
 */
export class Jobs {
  constructor(private readonly options: JobsOptions) {}

  /**
   * Queue a new job of a key, within its own queue limit and the server's. The webhook URL is checked now, so a refused one is a 422 and
   * not a silent failure hours later.
   */
  async submit(job: NewJob, key: ApiKey): Promise<Job> {
    const { store, queueSize, perKey } = this.options;
    const target = job.request.publish?.target;
    // Refused now as generate refuses it; accepted again when it runs, under the key's style of then.
    if (job.kind === "article") this.options.generations.accept(job.request, key);
    if (target !== undefined) this.options.generations.authorisePublish(key, target);
    if (job.webhook) {
      if (!key.webhookSecret) throw noWebhookSecret(key);
      await this.options.guard.check(job.webhook.url);
    }
    // A full queue is full for every key (503); short of that, a key over its own share is refused alone (429).
    if ((await store.waiting()) >= queueSize) {
      throw new InkpressError(`The job queue holds its limit of ${queueSize} waiting jobs; retry later.`, {
        status: 503,
        headers: { "retry-after": "30" },
      });
    }
    if ((await store.waiting(key.id)) >= perKey) {
      throw new InkpressError(
        `This key has ${perKey} job${perKey === 1 ? "" : "s"} waiting, its limit (--jobs-per-key); retry once one has started.`,
        { status: 429, headers: { "retry-after": String(PER_KEY_RETRY_S) } },
      );
    }
    const record: JobRecord = {
      id: `job_${randomUUID().replaceAll("-", "")}`,
      object: "job",
      owner: key.id,
      status: "queued",
      createdAt: new Date().toISOString(),
      kind: job.kind,
      runs: 0,
      progress: { words: 0 },
      request: job.request,
      ...(job.webhook ? { webhook: { url: job.webhook.url, deliveries: [] } } : {}),
    };
    await store.add(record);
    return publicJob(record);
  }

  /** A job of this key. */
  async get(owner: string, id: string): Promise<Job> {
    return publicJob(await this.own(owner, id));
  }

  /** A page of this key's jobs, newest first, without their results. */
  async list(owner: string, query: Parameters<JobStore["list"]>[1]): Promise<{ jobs: Job[]; nextCursor: JobPage["nextCursor"] }> {
    const page = await this.options.store.list(owner, query);
    return { jobs: page.jobs.map(({ result: _result, ...job }) => publicJob(job)), nextCursor: page.nextCursor };
  }

  /**
   * Cancel a queued or running job; a finished one is a 409. The run is aborted whatever
   * status was read first: a job that started meanwhile is stopped, never left generating.
   */
  async cancel(owner: string, id: string): Promise<Job> {
    await this.own(owner, id);
    const cancelled = await this.finish(id, { status: "cancelled" }, ["queued", "running"]);
    if (!cancelled) {
      const now = await this.own(owner, id);
      throw new InkpressError(
        `The job was already ${now.status === "cancelled" ? "cancelled" : `finished (${now.status})`}; only queued and running jobs can be cancelled.`,
        { status: 409 },
      );
    }
    await this.options.store.abort(id);
    return publicJob(cancelled);
  }

  /** Cancel every queued and running job of a revoked key, with the reason `key revoked`. */
  async revokeKey(owner: string): Promise<void> {
    for (const status of ["running", "queued"] as const) {
      for (let cursor: string | undefined; ; ) {
        const page = await this.options.store.list(owner, { status, limit: 100, ...(cursor && { cursor }) });
        for (const job of page.jobs) await this.cancelRevoked(job.id);
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
    }
  }

  /** Give the jobs of 0.1.0 key names to the ids that inherit them. */
  adoptFormerOwners(owners: ReadonlyMap<string, string>): Promise<void> {
    return this.options.store.adoptOwners(owners);
  }

  /** Start running jobs. */
  start(concurrency: number): void {
    this.options.store.process((id, signal) => this.run(id, signal), concurrency);
    this.options.store.processDeliveries((id) => this.deliver(id));
  }

  /** Run one job to its end: the key's limits apply now, and its quota counts the words really written. */
  private async run(id: string, cancel: AbortSignal): Promise<RetryLater | undefined> {
    const { store, generations } = this.options;
    const queued = await store.get(id);
    if (!queued || FINAL_STATUSES.includes(queued.status)) return;
    const key = this.options.keyById(queued.owner);
    if (!key && this.options.isRevoked(queued.owner)) return void (await this.cancelRevoked(id));
    // A key this replica does not know yet: its key file is behind another replica's.
    if (!key) return { delayMs: BUSY_KEY_RETRY_MS };
    let admission: Admission;
    let accepted: AcceptedRequest | undefined;
    try {
      // Accepted under the key's style of now, as generate accepts a request.
      if (queued.kind !== "refresh") accepted = generations.accept(queued.request as GenerateRequest, key);
      const reserve =
        queued.kind === "refresh" ? refreshReservation(queued.request as RefreshRequest) : (queued.request as GenerateRequest).length;
      const target = (queued.request as GenerateRequest | RefreshRequest).publish?.target;
      admission = await generations.admit(reserve, { key, ...(target === undefined ? {} : { publishTo: target }) });
    } catch (error) {
      const delay = retryDelay(error);
      if (delay !== undefined) return { delayMs: delay };
      return void (await this.fail(id, error));
    }
    const job = await store.update(
      id,
      { status: "running", startedAt: new Date().toISOString(), runs: queued.runs + 1, progress: { words: 0 } },
      ["queued", "running"],
      queued.runs,
    );
    if (!job) return void (await admission.release());
    // This run's number fences every write below: once another replica has taken the job over (and counted a run), none lands.
    const run = job.runs;
    // Stops the run when a progress save finds the job no longer this run's: cancelled where the abort did not reach, or taken over.
    const stop = new AbortController();
    try {
      await this.work(job, admission, { run, signal: AbortSignal.any([cancel, stop.signal]), stop, accepted });
    } catch (error) {
      if (error instanceof GenerationCancelledError || error instanceof WorkLostError) return;
      if (error instanceof KeyRevokedError) return void (await outlast(() => this.cancelRevoked(id)));
      const delay = retryDelay(error);
      if (delay !== undefined) return { delayMs: delay };
      await outlast(() => this.fail(id, error, run));
    }
  }

  /** Write or refresh the job's article through its admission, saving progress and the result while the job is this run's. */
  private async work(
    job: JobRecord,
    admission: Admission,
    { run, signal, stop, accepted }: { run: number; signal: AbortSignal; stop: AbortController; accepted: AcceptedRequest | undefined },
  ): Promise<void> {
    const { store } = this.options;
    const id = job.id;
    const succeeded = async (result: NonNullable<JobRecord["result"]>, words: number) => {
      const done = await outlast(() => this.finish(id, { status: "succeeded", result, progress: { words } }, ["running"], run));
      if (!done) throw (await this.lostTo(id, run)) ?? new GenerationCancelledError();
    };
    if (job.kind === "refresh") {
      await admission.refresh(job.request as RefreshRequest, {
        signal,
        complete: ({ response }) => succeeded(response, response.wordsWritten),
      });
      return;
    }
    let saved = Date.now();
    await admission.write(accepted!, {
      signal,
      onWords: (words) => {
        if (Date.now() - saved < PROGRESS_EVERY_MS) return;
        saved = Date.now();
        store.update(id, { progress: { words } }, ["running"], run).then(
          async (held) => held || stop.abort(await this.lostTo(id, run)),
          () => {},
        );
      },
      complete: ({ response }) => succeeded(response, response.article.wordCount),
    });
  }

  /** {@link WorkLostError} when another run than `run` holds the job now; undefined when it is still this run's (or gone). */
  private async lostTo(id: string, run: number): Promise<WorkLostError | undefined> {
    const job = await this.options.store.get(id).catch(() => undefined);
    return job && job.runs !== run ? new WorkLostError() : undefined;
  }

  /** End a job of a revoked key: cancelled, with the reason, announced by its webhook. */
  private async cancelRevoked(id: string): Promise<void> {
    if (await this.finish(id, { status: "cancelled", reason: KEY_REVOKED }, ["queued", "running"])) await this.options.store.abort(id);
  }

  /** End a job with a problem; `run`: only while that run holds the job. */
  private async fail(id: string, error: unknown, run?: number): Promise<void> {
    const { type, title, status, detail } = problemOf(error);
    await this.finish(id, { status: "failed", error: { type, title, status, detail } }, ["queued", "running"], run);
  }

  /** Move a job to a final status, start its retention, and schedule its webhook; `run`: only while that run holds the job. */
  private async finish(
    id: string,
    change: Partial<JobRecord> & { status: JobStatus },
    from: readonly JobStatus[],
    run?: number,
  ): Promise<JobRecord | undefined> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.options.retentionS * 1000).toISOString();
    const current = await this.options.store.get(id);
    const webhook = current?.webhook && { ...current.webhook, nextAttemptAt: now.toISOString() };
    const done = await this.options.store.update(
      id,
      { ...change, finishedAt: now.toISOString(), expiresAt, ...(webhook ? { webhook } : {}) },
      from,
      run,
    );
    if (done?.webhook) await this.options.store.deliverLater(id, 0);
    return done;
  }

  /**
   * One delivery attempt of a finished job's webhook, recorded on the job; a failed one is
   * tried again on the backoff schedule until it succeeds or the attempts run out.
   */
  private async deliver(id: string): Promise<void> {
    const { store, guard } = this.options;
    const job = await store.get(id);
    if (!job?.webhook?.nextAttemptAt) return;
    const attempt = job.webhook.deliveries.length + 1;
    const secret = this.options.webhookSecret(job.owner);
    const payload = JSON.stringify({ type: `job.${job.status}`, timestamp: new Date().toISOString(), data: publicJob(job) });
    const result = secret
      ? await deliverWebhook({ url: job.webhook.url, secret, id: webhookMessageId(job.id), payload, guard })
      : { at: new Date().toISOString(), ok: false, error: "the key that created this job has no webhook secret", durationMs: 0 };
    const delay = result.ok ? undefined : retryDelayMs(attempt);
    const nextAttemptAt = delay === undefined ? undefined : new Date(Date.now() + delay).toISOString();
    await store.update(id, {
      webhook: {
        url: job.webhook.url,
        deliveries: [...job.webhook.deliveries, { ...result, attempt }],
        ...(nextAttemptAt ? { nextAttemptAt } : {}),
      },
    });
    if (delay !== undefined) await store.deliverLater(id, delay);
  }

  private async own(owner: string, id: string): Promise<JobRecord> {
    const job = /^job_[0-9a-f]{32}$/.test(id) ? await this.options.store.get(id) : undefined;
    if (!job || job.owner !== owner) throw new JobNotFoundError(id);
    return job;
  }
}
