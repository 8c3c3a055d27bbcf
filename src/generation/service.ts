import {
  acceptRequest,
  type AcceptedRequest,
  draftOutline,
  outlineCharge,
  writeArticle,
  type WrittenArticle,
  refreshArticle,
  type RefreshedArticle,
  type RefreshOptions,
  type RefreshTexts,
} from "../article/index.js";
import type { PublishField } from "../contract/publish.js";
import type { Publisher } from "../contract/request.js";
import type { GenerateRequest, Style } from "../contract/request.js";
import type { OutlineResponse } from "../contract/outline-response.js";
import type { RefreshRequest } from "../contract/refresh.js";
import type { KeyLimiter } from "../keys/limiter.js";
import type { ApiKey } from "../keys/registry.js";
import type { NamedVoices } from "../voice/named.js";
import { Lifecycle } from "../lifecycle.js";
import type { Backend, Usage } from "../model/backend.js";
import { recordedPostId } from "../publish/post.js";
import { ownerOf, type Publishing } from "../publish/publisher.js";
import { unknownTarget } from "../publish/errors.js";
import { PoolClosedError, QueueFullError } from "../model/pool.js";
import { GenerationCancelledError, GenerationTimeoutError, KeyRevokedError, ShuttingDownError, WorkLostError } from "./errors.js";

/** What model work makes: an article, a refresh or an outline. */
export type WorkKind = "article" | "refresh" | "outline";

/** What one article reports to the server's metrics. */
export interface ArticleMeter {
  /** The backend as the article uses it, noting when it gets a slot. */
  backend(backend: Backend): Backend;
  /** Markdown was written. */
  delta(): void;
  /** The article was written (or refreshed, or outlined) to the end. */
  finished(usage: Usage, kind: WorkKind): void;
}

/** Where the backend comes from: at once when it is loaded, else once it is (within the signal). */
export interface BackendProvider {
  /** The backend once loaded; undefined while it loads. */
  readonly backend: Backend | undefined;
  get(signal: AbortSignal): Promise<Backend>;
}

/** What the generation service writes with. */
export interface GenerationServiceOptions {
  /** Where the backend comes from (the server's ModelHost, or a loaded model). */
  modelHost: BackendProvider;
  /**
   * A key's limits: requests per window, generations at once, words per day.
   * @default none: nothing is limited (a batch on this machine)
   */
  limiter?: KeyLimiter;
  /**
   * Counts generations so a shutdown lets them finish within its grace period; its signal stops them.
   * @default a lifecycle of the service's own, never drained
   */
  lifecycle?: Lifecycle;
  /**
   * Deadline of one generation, from its admission.
   * @default none
   */
  timeoutMs?: number;
  /**
   * Measures each article (the server's metrics).
   * @default none
   */
  meter?: () => ArticleMeter;
  /**
   * The publisher articles name in their structured data when the key names none.
   * @default none
   */
  publisher?: Publisher;
  /**
   * Where a refresh for `owner` (an API key's id) reads its article each time it is measured, and renders it: on a server, the text pool's workers.
   * @default this thread
   */
  refreshTexts?: (owner: string) => RefreshTexts;
  /**
   * The operator's publishing targets: an article whose request has `publish` is published once written.
   * @default none: a request with `publish` is refused
   */
  publishing?: Publishing;
  /**
   * The voices a key's default style may name (`serve --voices`).
   * @default none: a key's `style.voice` text is a note
   */
  voices?: NamedVoices;
}

/** Who a generation runs for. */
export interface Caller {
  /**
   * The key whose limits, daily words, usage and default style apply.
   * @default none: a local batch, unlimited
   */
  key?: ApiKey;
  /**
   * The key's rate-limit headers, carried by a 429.
   * @default none
   */
  headers?: Record<string, string>;
  /**
   * The publishing target the work will publish to: checked before anything is written.
   * @default none
   */
  publishTo?: string;
}

/** How one admitted article is written. */
export interface WriteOptions extends Pick<Parameters<typeof writeArticle>[1], "onMeta" | "onOutline" | "onDelta" | "onWords"> {
  /**
   * Aborted by whoever asked (client gone, job cancelled): the write rejects with {@link GenerationCancelledError}.
   * @default none
   */
  signal?: AbortSignal;
  /**
   * Record the written article (a job's result) before its words are counted. Throwing
   * {@link WorkLostError} here, or aborting `signal` with one, says the work was not this
   * writer's to finish: the write rejects with it, and none of its words count.
   * @default none
   */
  complete?(written: WrittenArticle): Promise<void>;
}

/**
 * Every article is written through here, whoever asks (the generate route, a job, a local
 * batch): it admits the generation (shutdown, backend queue, the key's concurrency and daily
 * words), sets the deadline, registers it with the lifecycle, stops it when its caller goes,
 * the server stops or its key is revoked, and meters it and counts the key's words.
 */
export class GenerationService {
  private readonly lifecycle: Lifecycle;
  /** Running generations by key id, so a revocation stops them. */
  private readonly running = new Map<string, Set<AbortController>>();

  constructor(private readonly options: GenerationServiceOptions) {
    this.lifecycle = options.lifecycle ?? new Lifecycle();
  }

  /**
   * Admit a generation of `length` words, before anything is written: throws
   * {@link ShuttingDownError}, `QueueFullError` or a key's `LimitError`. The admission holds the
   * key's slot and its reservation of daily words until it is written or released.
   */
  async admit(length: number, caller: Caller = {}): Promise<Admission> {
    if (this.lifecycle.draining) throw new ShuttingDownError();
    const slots = this.options.modelHost.backend?.slots;
    if (slots && !slots.hasRoom()) throw new QueueFullError(slots.retryAfterSeconds());
    const { key } = caller;
    if (caller.publishTo !== undefined) this.authorisePublish(key, caller.publishTo);
    const lease = key && this.options.limiter ? await this.options.limiter.begin(key, caller.headers ?? {}, length) : undefined;
    const revoked = new AbortController();
    if (key) {
      const own = this.running.get(key.id) ?? new Set();
      own.add(revoked);
      this.running.set(key.id, own);
    }
    return new Admission({
      ...this.options,
      lifecycle: this.lifecycle,
      style: this.keyStyle(key),
      publisher: key?.publisher ?? this.options.publisher,
      owner: ownerOf(key),
      revoked: revoked.signal,
      end: async (words) => {
        const own = key && this.running.get(key.id);
        own?.delete(revoked);
        if (own?.size === 0) this.running.delete(key!.id);
        await lease?.end(words);
      },
    });
  }

  /** Check that a key may publish to a target, before any work is queued or written: a 422 for an unknown target, a 403 for one the key was not given. */
  authorisePublish(key: ApiKey | undefined, target: string): void {
    if (!this.options.publishing) throw unknownTarget(target, []);
    this.options.publishing.authorise(key, target);
  }

  /**
   * The request as it will be written for `key`: its default style laid under the request's own,
   * then accepted by the engine (a 422 naming every field a ban contradicts), before anything is admitted.
   */
  accept(request: GenerateRequest, key?: ApiKey): AcceptedRequest {
    return acceptRequest(withStyle(request, this.keyStyle(key)));
  }

  /** The voices a request's or a key's `style.voice` may name; none without `serve --voices`. */
  get voices(): NamedVoices | undefined {
    return this.options.voices;
  }

  /** The key's default style, a voice it names read from the server's voices (a 422 for a name it does not know). */
  private keyStyle(key: ApiKey | undefined): Style | undefined {
    return key?.style && this.options.voices ? this.options.voices.resolve(key.style, `key ${key.name}`) : key?.style;
  }

  /** Stop every generation of a key: it was revoked. Each rejects with {@link KeyRevokedError}. */
  revoke(keyId: string): void {
    for (const controller of this.running.get(keyId) ?? []) controller.abort(new KeyRevokedError());
  }
}

interface AdmissionParts extends GenerationServiceOptions {
  lifecycle: Lifecycle;
  /** The key's default style. */
  style: Style | undefined;
  /** The key's publisher, else the service's. */
  publisher: Publisher | undefined;
  /** Whose posts its publication may update (`ownerOf` the key). */
  owner: string;
  /** Aborted when the key is revoked. */
  revoked: AbortSignal;
  /** Frees the key's slot and counts its words; called once. */
  end(words: number): Promise<void>;
}

/** One admitted generation: write it, or release it unused. */
export class Admission {
  private ended = false;

  constructor(private readonly parts: AdmissionParts) {}

  /** Write the article; the admission ends with it. Errors are domain errors ({@link GenerationTimeoutError} and the others). */
  async write(request: AcceptedRequest, options: WriteOptions = {}): Promise<WrittenArticle> {
    const { publisher } = this.parts;
    return this.run({
      ...options,
      kind: "article",
      words: (written) => written.response.article.wordCount,
      usage: (written) => written.response.usage,
      work: ({ backend, signal, meter, count }) =>
        writeArticle(request, {
          ...options,
          backend,
          ...(publisher ? { publisher } : {}),
          signal,
          onDelta: (text) => {
            meter?.delta();
            options.onDelta?.(text);
          },
          onWords: (words, tokens) => {
            count(words);
            options.onWords?.(words, tokens);
          },
        }).then((written) => withPublication(written, request.publish, this.parts)),
    });
  }

  /** Refresh an article (the words the model writes into it count); the admission ends with it. Errors as {@link write}'s. */
  async refresh(
    request: RefreshRequest,
    options: Pick<WriteOptions, "signal"> &
      Pick<RefreshOptions, "fileSlug"> & { complete?(refreshed: RefreshedArticle): Promise<void> } = {},
  ): Promise<RefreshedArticle> {
    const { style, publisher } = this.parts;
    return this.run({
      ...options,
      kind: "refresh",
      words: (refreshed) => refreshed.response.wordsWritten,
      usage: (refreshed) => refreshed.response.usage,
      work: ({ backend, signal, count }) =>
        refreshArticle(request, {
          backend,
          signal,
          onWords: count,
          ...(style ? { keyStyle: style } : {}),
          ...(publisher ? { publisher } : {}),
          ...(options.fileSlug ? { fileSlug: options.fileSlug } : {}),
          ...(this.parts.refreshTexts ? { texts: this.parts.refreshTexts(this.parts.owner) } : {}),
        }).then((refreshed) => withPublication(refreshed, request.publish, this.parts, request.markdown)),
    });
  }

  /** Plan the article without writing it (the outline a user edits); the admission ends with it, its charge counted. Errors as {@link write}'s. */
  async outline(request: AcceptedRequest, options: Pick<WriteOptions, "signal"> = {}): Promise<OutlineResponse> {
    return this.run({
      ...options,
      kind: "outline",
      words: () => outlineCharge(request),
      usage: (drafted) => drafted.usage,
      work: ({ backend, signal }) => draftOutline(request, { backend, signal }),
    });
  }

  /**
   * Run one job of model work under the admission: the deadline, cancellation, the lifecycle,
   * the meter, and the words counted against the key's quota (also of work never finished).
   */
  private async run<T>(job: Job<T>): Promise<T> {
    const { modelHost, lifecycle, timeoutMs, revoked } = this.parts;
    const caller = job.signal ?? new AbortController().signal;
    const deadline = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([caller, revoked, lifecycle.signal, ...(deadline ? [deadline] : [])]);
    const meter = this.parts.meter?.();
    // Words count against the daily quota as they are written: an aborted article still used them.
    let words = 0;
    try {
      const done = await lifecycle.register(async () => {
        signal.throwIfAborted();
        const backend = await modelHost.get(signal);
        return job.work({ backend: meter?.backend(backend) ?? backend, signal, meter, count: (n) => (words = n) });
      });
      words = job.words(done);
      // Metered before it completes: a job's result is visible once complete stores it, and /metrics must already count it.
      meter?.finished(job.usage(done), job.kind);
      await job.complete?.(done);
      return done;
    } catch (error) {
      // Another worker does this work now: its words are that worker's to count.
      const lost = error instanceof WorkLostError ? error : caller.reason instanceof WorkLostError ? caller.reason : undefined;
      if (lost) {
        words = 0;
        throw lost;
      }
      if (error instanceof QueueFullError) throw error;
      if (revoked.aborted) throw new KeyRevokedError();
      if (caller.aborted) throw new GenerationCancelledError();
      if (deadline?.aborted) throw new GenerationTimeoutError(timeoutMs!);
      if (lifecycle.signal.aborted) throw new PoolClosedError();
      throw error;
    } finally {
      await this.release(words);
    }
  }

  /** End the admission without writing (or after), freeing the key's slot; `words` count against its quota. */
  async release(words = 0): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.parts.end(words);
  }
}

/** One job of model work an admission runs. */
interface Job<T> {
  kind: WorkKind;
  signal?: AbortSignal;
  work(parts: { backend: Backend; signal: AbortSignal; meter: ArticleMeter | undefined; count: (words: number) => void }): Promise<T>;
  /** Words the finished work counts against the key's quota. */
  words(done: T): number;
  usage(done: T): Usage;
  complete?(done: T): Promise<void>;
}

/**
 * The written or refreshed article with its publication when its request asks for one: a
 * failure is the outcome's problem, the article stands. A refresh's post is found by the id the
 * given Markdown recorded, else by slug.
 */
async function withPublication<T extends WrittenArticle | RefreshedArticle>(
  done: T,
  field: PublishField | undefined,
  { publishing, owner }: Pick<AdmissionParts, "publishing" | "owner">,
  given?: string,
): Promise<T> {
  if (!field || !publishing) return done;
  const recordedId = given === undefined ? undefined : recordedPostId(given, field.target);
  const publish = await publishing.outcome(done.response.article, field, owner, recordedId);
  return { ...done, response: { ...done.response, publish } };
}

/** The request with the key's default style laid under its own, field by field, so the echoed request shows the style used. */
export function withStyle(request: GenerateRequest, keyStyle: Style | undefined): GenerateRequest {
  if (!keyStyle) return request;
  const own = Object.fromEntries(Object.entries(request.style ?? {}).filter(([, value]) => value !== undefined));
  return { ...request, style: { ...keyStyle, ...own } };
}
