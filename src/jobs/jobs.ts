import { randomUUID } from "node:crypto";
import { writeArticle } from "../article/article.js";
import { InkpressError, problemOf } from "../errors.js";
import { LimitError, type KeyLimiter } from "../keys/limiter.js";
import type { ApiKey } from "../keys/registry.js";
import type { Backend, Usage } from "../model/backend.js";
import { QueueFullError } from "../model/pool.js";
import { StateUnavailableError } from "../redis.js";
import { FINAL_STATUSES, publicJob, type Job, type JobRecord, type JobStatus, type NewJob } from "./job.js";
import { RetryLater, type JobPage, type JobStore } from "./store.js";
import type { WebhookAddressGuard } from "./webhook/address-guard.js";
import { retryDelayMs } from "./webhook/backoff.js";
import { deliverWebhook } from "./webhook/deliver.js";
import { webhookMessageId } from "./webhook/sign.js";

/** The bounds and parts jobs run with. */
export interface JobsOptions {
  store: JobStore;
  /** The model or inference server, once it is ready. */
  backend: (signal: AbortSignal) => Promise<Backend>;
  limiter: KeyLimiter;
  /** The key of a name, for its limits and webhook secret; undefined once revoked. */
  keyNamed: (name: string) => ApiKey | undefined;
  guard: WebhookAddressGuard;
  /** Jobs that may wait at once, across all keys. */
  queueSize: number;
  /** Seconds a finished job is kept. */
  retentionS: number;
  /** Deadline of one run. */
  timeoutMs: number;
  /** Aborted when the server stops: running jobs go back to the queue. */
  shutdown: AbortSignal;
  /** Counts a run among the server's generations, so a shutdown gives it the same grace period. */
  track: <T>(work: () => Promise<T>) => Promise<T>;
  /** Measures each article a job writes (the server's metrics), as it measures direct ones. */
  meter?: () => ArticleMeter;
}

/** What a job run reports to the server's metrics. */
export interface ArticleMeter {
  /** The backend as the article uses it, noting when it gets a slot. */
  backend(backend: Backend): Backend;
  /** Markdown was written. */
  delta(): void;
  /** The article was written to the end. */
  finished(usage: Usage): void;
}

/** Not found, or another key's job: the same answer, so ids of other keys cannot be probed. */
export class JobNotFoundError extends InkpressError {
  constructor(id: string) {
    super(`No job ${id} for this key.`, { status: 404 });
  }
}

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

/** How often a running job's progress is saved. */
const PROGRESS_EVERY_MS = 1000;
/** When a key already runs its concurrency limit, its job waits this long before it tries again. */
const BUSY_KEY_RETRY_MS = 2000;

/**
 * The jobs API's behaviour, whatever store holds the jobs: submit, read, list, cancel, run
 * one job to its end, and announce the end by webhook until the receiver takes it.
 */
export class Jobs {
  constructor(private readonly options: JobsOptions) {}

  /** Queue a new job. The webhook URL is checked now, so a refused one is a 422 and not a silent failure hours later. */
  async submit(job: NewJob, key: ApiKey): Promise<Job> {
    if (job.webhook) {
      if (!key.webhookSecret) {
        throw new InkpressError("webhook: this key has no webhook secret; create a key with `inkpress keys create` (or give it one with `inkpress keys rotate-secret`).", { status: 422, extensions: { errors: [{ path: "webhook", message: "this key has no webhook secret" }] } });
      }
      await this.options.guard.check(job.webhook.url);
    }
    if ((await this.options.store.waiting()) >= this.options.queueSize) {
      throw new InkpressError(`The job queue holds its limit of ${this.options.queueSize} waiting jobs; retry later.`, { status: 503, headers: { "retry-after": "30" } });
    }
    const record: JobRecord = {
      id: `job_${randomUUID().replaceAll("-", "")}`,
      object: "job",
      owner: job.owner,
      status: "queued",
      createdAt: new Date().toISOString(),
      runs: 0,
      progress: { words: 0 },
      request: job.request,
      ...(job.webhook ? { webhook: { url: job.webhook.url, deliveries: [] } } : {}),
    };
    await this.options.store.add(record);
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

  /** Cancel a queued or running job; a finished one is a 409. */
  async cancel(owner: string, id: string): Promise<Job> {
    const job = await this.own(owner, id);
    const cancelled = await this.finish(id, { status: "cancelled" }, ["queued", "running"]);
    if (!cancelled) {
      const now = await this.own(owner, id);
      throw new InkpressError(`The job has ${now.status} already; only queued and running jobs can be cancelled.`, { status: 409 });
    }
    if (job.status === "running") await this.options.store.abort(id);
    return publicJob(cancelled);
  }

  /** Start running jobs. */
  start(concurrency: number): void {
    this.options.store.process((id, signal) => this.run(id, signal), concurrency);
    this.options.store.processDeliveries((id) => this.deliver(id));
  }

  /** Run one job to its end: the key's limits apply now, and its quota counts the words really written. */
  private async run(id: string, cancel: AbortSignal): Promise<void> {
    const { store, limiter, shutdown } = this.options;
    const queued = await store.get(id);
    if (!queued || FINAL_STATUSES.includes(queued.status)) return;
    const key = this.options.keyNamed(queued.owner);
    if (!key) return void (await this.fail(id, new InkpressError("The key that created this job was revoked.", { status: 401 })));
    let generation: Awaited<ReturnType<KeyLimiter["begin"]>>;
    try {
      generation = await limiter.begin(key, {});
    } catch (error) {
      if (error instanceof LimitError && error.reason === "concurrency") throw new RetryLater(BUSY_KEY_RETRY_MS);
      if (error instanceof StateUnavailableError) throw new RetryLater(BUSY_KEY_RETRY_MS);
      return void (await this.fail(id, error));
    }
    const job = await store.update(id, { status: "running", startedAt: new Date().toISOString(), runs: queued.runs + 1, progress: { words: 0 } }, ["queued", "running"]);
    if (!job) return void (await generation.end(0));
    const deadline = AbortSignal.timeout(this.options.timeoutMs);
    const signal = AbortSignal.any([cancel, shutdown, deadline]);
    let words = 0;
    let saved = Date.now();
    const meter = this.options.meter?.();
    try {
      const { response } = await this.options.track(async () => writeArticle(job.request, {
        backend: await this.options.backend(signal).then((backend) => meter?.backend(backend) ?? backend),
        signal,
        onDelta: () => meter?.delta(),
        onWords: (written) => {
          words = written;
          if (Date.now() - saved < PROGRESS_EVERY_MS) return;
          saved = Date.now();
          void store.update(id, { progress: { words } }, ["running"]).catch(() => {});
        },
      }));
      words = response.article.wordCount;
      meter?.finished(response.usage);
      await outlast(() => this.finish(id, { status: "succeeded", result: response, progress: { words } }, ["running"]));
    } catch (error) {
      if (cancel.aborted) return;
      // Stopping or busy is not the job's fault: it waits for the next run, here or on another replica.
      if (shutdown.aborted) throw new RetryLater(0);
      if (error instanceof QueueFullError) throw new RetryLater(error.retryAfterSeconds * 1000);
      const reason = deadline.aborted ? new InkpressError(`The article was not finished within the ${this.options.timeoutMs / 1000} s deadline; generation stopped.`, { status: 504 }) : error;
      await outlast(() => this.fail(id, reason));
    } finally {
      await generation.end(words);
    }
  }

  /** End a job with a problem. */
  private async fail(id: string, error: unknown): Promise<void> {
    const { type, title, status, detail } = problemOf(error);
    await this.finish(id, { status: "failed", error: { type, title, status, detail } }, ["queued", "running"]);
  }

  /** Move a job to a final status, start its retention, and schedule its webhook. */
  private async finish(id: string, change: Partial<JobRecord> & { status: JobStatus }, from: readonly JobStatus[]): Promise<JobRecord | undefined> {
    const now = new Date();
    const expiresAt = new Date(now.getTime() + this.options.retentionS * 1000).toISOString();
    const current = await this.options.store.get(id);
    const webhook = current?.webhook && { ...current.webhook, nextAttemptAt: now.toISOString() };
    const done = await this.options.store.update(id, { ...change, finishedAt: now.toISOString(), expiresAt, ...(webhook ? { webhook } : {}) }, from);
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
    const secret = this.options.keyNamed(job.owner)?.webhookSecret;
    const payload = JSON.stringify({ type: `job.${job.status}`, timestamp: new Date().toISOString(), data: publicJob(job) });
    const result = secret
      ? await deliverWebhook({ url: job.webhook.url, secret, id: webhookMessageId(job.id), payload, guard })
      : { at: new Date().toISOString(), ok: false, error: "the key that created this job was revoked or has no webhook secret", durationMs: 0 };
    const delay = result.ok ? undefined : retryDelayMs(attempt);
    const nextAttemptAt = delay === undefined ? undefined : new Date(Date.now() + delay).toISOString();
    await store.update(id, { webhook: { url: job.webhook.url, deliveries: [...job.webhook.deliveries, { ...result, attempt }], ...(nextAttemptAt ? { nextAttemptAt } : {}) } });
    if (delay !== undefined) await store.deliverLater(id, delay);
  }

  private async own(owner: string, id: string): Promise<JobRecord> {
    const job = /^job_[0-9a-f]{32}$/.test(id) ? await this.options.store.get(id) : undefined;
    if (!job || job.owner !== owner) throw new JobNotFoundError(id);
    return job;
  }
}
