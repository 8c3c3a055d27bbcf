import type { H3Event } from "h3";
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Backend, Usage } from "../model/backend.js";
import type { ModelHost } from "../model/host.js";
import type { WorkKind } from "../generation/service.js";

/** Paths counted under their own name; any other counts as "other", so random paths cannot grow the label set. */

/**
 * The Prometheus metrics of one server, for both backends: requests by status, articles,
 * tokens, queue depth, time to first token and decode rate. Fed by the app (every request's
 * final status) and the generate route (each article's timings and usage); nothing in them
 * names a key, a client or a prompt.
 */
export class Metrics {
  private readonly registry = new Registry();
  private readonly requests = new Counter({
    name: "inkpress_requests_total",
    help: "HTTP requests by route and final status (a stream counts how it ended; 499: the client left).",
    labelNames: ["route", "status"] as const,
    registers: [this.registry],
  });
  private readonly articles = new Counter({
    name: "inkpress_articles_total",
    help: "Articles written to the end, by generate requests and by jobs.",
    registers: [this.registry],
  });
  private readonly tokens = new Counter({
    name: "inkpress_tokens_total",
    help: "Tokens of the articles written to the end: prompt (evaluated; reused cache not counted) and completion (generated).",
    labelNames: ["kind"] as const,
    registers: [this.registry],
  });
  private readonly analyses = new Counter({
    name: "inkpress_analyses_total",
    help: "Articles analysed as they are (POST /api/v1/analyse), by the format they came in.",
    labelNames: ["format"] as const,
    registers: [this.registry],
  });
  private readonly refreshes = new Counter({
    name: "inkpress_refreshes_total",
    help: "Articles refreshed to the end (POST /api/v1/refresh and refresh jobs).",
    registers: [this.registry],
  });
  private readonly firstToken = new Histogram({
    name: "inkpress_time_to_first_token_seconds",
    help: "Seconds from accepting a generate request (or starting a job) to its first Markdown text (queue wait and outline included).",
    buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120],
    registers: [this.registry],
  });
  private readonly decodeRate = new Histogram({
    name: "inkpress_decode_tokens_per_second",
    help: "Completion tokens per second of each article written to the end, from getting a slot to the last token.",
    buckets: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000],
    registers: [this.registry],
  });

  constructor(modelHost: ModelHost) {
    const status = () => modelHost.backend?.slots.status() ?? { running: 0, waiting: 0, capacity: 0 };
    new Gauge({
      name: "inkpress_queue_depth",
      help: "Requests waiting for a free generation slot.",
      registers: [this.registry],
      collect() {
        this.set(status().waiting);
      },
    });
    new Gauge({
      name: "inkpress_generations_running",
      help: "Articles being written now (slots in use).",
      registers: [this.registry],
      collect() {
        this.set(status().running);
      },
    });
  }

  /** Count a request once its final status is known. */
  request(event: H3Event, status: number): void {
    // The route's pattern (`/api/v1/jobs/:id`), so job ids and unknown paths cannot grow the label set.
    this.requests.inc({ route: event.context.matchedRoute?.route ?? "other", status: String(status) });
  }

  /** Count one article analysed as it is. */
  analysis(format: "markdown" | "html"): void {
    this.analyses.inc({ format });
  }

  /** Start timing one accepted article. */
  article(): ArticleTimer {
    return new ArticleTimer({
      firstToken: (seconds) => this.firstToken.observe(seconds),
      finished: (usage, seconds, kind) => {
        // An outline is planning, not an article: its tokens count, the articles do not.
        if (kind !== "outline") (kind === "refresh" ? this.refreshes : this.articles).inc();
        this.tokens.inc({ kind: "prompt" }, usage.promptTokens);
        this.tokens.inc({ kind: "completion" }, usage.completionTokens);
        if (seconds > 0) this.decodeRate.observe(usage.completionTokens / seconds);
      },
    });
  }

  /** The text exposition format, for `GET /metrics`. */
  async exposition(): Promise<Response> {
    return new Response(await this.registry.metrics(), { headers: { "content-type": this.registry.contentType } });
  }
}

/** Where an {@link ArticleTimer} reports. */
interface ArticleSink {
  firstToken(seconds: number): void;
  /** `seconds`: from getting a slot to the end. */
  finished(usage: Usage, seconds: number, kind: WorkKind): void;
}

/** One article's timings, from the moment its request was accepted. */
class ArticleTimer {
  private readonly accepted = performance.now();
  private slotAt: number | undefined;
  private deltaSeen = false;

  constructor(private readonly sink: ArticleSink) {}

  /** The backend as the article sees it, noting when it lends the article a writer (a slot): queue wait is not decoding. */
  backend(backend: Backend): Backend {
    const writer = (signal?: AbortSignal) =>
      backend.writer(signal).then((lent) => {
        this.slotAt = performance.now();
        return lent;
      });
    return new Proxy(backend, {
      get(target, key) {
        if (key === "writer") return writer;
        const value: unknown = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  /** Markdown was written; the first time is the article's first token as its client sees it. */
  delta(): void {
    if (this.deltaSeen) return;
    this.deltaSeen = true;
    this.sink.firstToken((performance.now() - this.accepted) / 1000);
  }

  /** The article was written (or refreshed) to the end. */
  finished(usage: Usage, kind: WorkKind): void {
    this.sink.finished(usage, (performance.now() - (this.slotAt ?? this.accepted)) / 1000, kind);
  }
}
