import { H3, handleCors, type H3Event } from "h3";
import type { JobsConfig } from "../config.js";
import type { Jobs } from "../jobs/jobs.js";
import type { KeyStorage } from "../keys/storage.js";
import type { GenerationService } from "../generation/service.js";
import { log } from "../log.js";
import type { ModelHost } from "../model/host.js";
import type { ReportingBackend } from "../model/report.js";
import { requireApiKey } from "./auth.js";
import { AuthThrottle } from "./auth-throttle.js";
import type { KeyLimiter } from "../keys/limiter.js";
import type { ApiKeys } from "../keys/registry.js";
import type { Metrics } from "./metrics.js";
import { asHttpError, isFault, problem, toProblemResponse } from "./problem.js";
import { logRequest, startRequest } from "./request-log.js";
import { analyseRoute } from "./routes/analyse.js";
import { generateRoute } from "./routes/generate.js";
import { outlineRoute } from "./routes/outline.js";
import { planRoute } from "./routes/plan.js";
import { voiceRoute } from "./routes/voice.js";
import { publishRoute, publishTargetsRoute } from "./routes/publish.js";
import { refreshRoute } from "./routes/refresh.js";
import { cancelJobRoute, getJobRoute, listJobsRoute, submitJobRoute } from "./routes/jobs.js";
import type { Publishing } from "../publish/publisher.js";
import type { TextPool } from "../text-pool.js";
import { healthRoute } from "./routes/health.js";
import { metricsRoute } from "./routes/metrics.js";
import { isPublicApiRoute, openApiRoute } from "./routes/openapi.js";
import { assetRoute, docsRoute, playgroundRoute } from "./routes/pages.js";

/** What the HTTP app serves with. */
export interface AppOptions {
  /** The model or inference server, for /healthz. */
  modelHost: ModelHost<ReportingBackend>;
  /** The server's metrics, shared with the jobs that write articles outside any request. */
  metrics: Metrics;
  keys: ApiKeys;
  limiter: KeyLimiter;
  /** Writes every article: the generate route's and the jobs'. */
  generations: GenerationService;
  /** The operator's publishing targets, for `POST /api/v1/publish`. */
  publishing: Publishing;
  /** Per-request deadline. */
  timeoutMs: number;
  /** Time a client has to send its body. */
  bodyTimeoutMs: number;
  /** The worker threads that read clients' text (analyse, refresh, sources, publish) off the event loop. */
  texts: TextPool;
  /** Origins allowed by CORS; none means CORS is off. */
  corsOrigins: string[];
  /** Per-key state: limits and idempotency records. */
  storage: KeyStorage;
  jobs: Jobs;
  jobsConfig: JobsConfig;
  /** Failed authentications one client address may make in 10 s before it gets 429s. */
  authFailures: number;
}

/** Most bytes of request headers the app reads (Node's own parser stops at 16 KiB). */
const HEADER_LIMIT = 8 * 1024;

/**
 * The HTTP surface: request ids and logs, CORS when configured, public routes,
 * key-protected `/api/v1/*`, and every error (thrown by us, by h3 or unexpected)
 * answered as problem+json.
 */
export function createApp({
  modelHost,
  metrics,
  keys,
  limiter,
  generations,
  publishing,
  timeoutMs,
  bodyTimeoutMs,
  texts,
  corsOrigins,
  storage,
  jobs,
  jobsConfig,
  authFailures,
}: AppOptions): H3 {
  const app = new H3({
    // Errors are logged once, below: a stack for faults only, never for routine client errors.
    silent: true,
    onRequest(event) {
      startRequest(event);
      if (headerBytes(event) > HEADER_LIMIT) throw problem(431, `Request headers are limited to ${HEADER_LIMIT} bytes.`);
      if (!event.req.headers.has("host")) throw problem(400, "The Host header is required.");
    },
    onResponse(response, event) {
      if (event.context.streaming) return;
      logRequest(event, response.status);
      metrics.request(event, response.status);
    },
    onError(thrown, event: H3Event) {
      const error = asHttpError(thrown);
      if (isFault(error)) log.error(thrown instanceof Error && thrown.cause instanceof Error ? thrown.cause : thrown);
      // Requests h3 refuses before any hook (a malformed path) still get an id.
      if (!event.context.requestId) startRequest(event);
      // The unread rest of an over-large body makes the connection unusable: say so.
      if (error.status === 413) event.res.headers.set("connection", "close");
      const response = toProblemResponse(error, event.url.pathname);
      // Headers the app set before the error (request id, CORS, rate limits) stay on the answer.
      for (const [name, value] of event.res.headers) if (!response.headers.has(name)) response.headers.set(name, value);
      return response;
    },
  });
  if (corsOrigins.length) {
    app.use((event) => {
      const preflight = handleCors(event, {
        origin: corsOrigins,
        methods: ["GET", "POST", "DELETE"],
        allowHeaders: ["content-type", "x-api-key", "x-request-id", "accept", "idempotency-key"],
        exposeHeaders: ["x-request-id", "ratelimit", "ratelimit-policy", "retry-after", "location", "idempotent-replayed"],
        maxAge: "600",
      });
      if (preflight) return preflight;
    });
  }
  const throttle = new AuthThrottle({ failures: authFailures });
  app.use("/api/v1/**", (event) => (isPublicApiRoute(event) ? undefined : requireApiKey(event, keys, limiter, throttle)));
  // A JSON body's style.voice may name one of these: the body step reads the profile in (body.ts).
  const { voices } = generations;
  if (voices) app.use("/api/v1/**", (event) => void (event.context.voices = voices));
  app.get("/healthz", healthRoute(modelHost));
  app.get("/metrics", metricsRoute(metrics));
  app.get("/", playgroundRoute());
  app.get("/docs", docsRoute());
  app.get("/assets/:file", assetRoute());
  app.get("/api/v1/openapi.json", openApiRoute());
  app.register(generateRoute({ generations, storage, timeoutMs, bodyTimeoutMs, metrics, texts }));
  app.register(analyseRoute({ bodyTimeoutMs, metrics, texts }));
  app.register(refreshRoute({ generations, bodyTimeoutMs, texts }));
  app.register(outlineRoute({ generations, bodyTimeoutMs, texts }));
  app.register(planRoute({ bodyTimeoutMs, modelHost }));
  app.register(voiceRoute({ bodyTimeoutMs, texts }));
  app.register(publishRoute({ publishing, bodyTimeoutMs, texts }));
  app.get("/api/v1/publish", publishTargetsRoute({ publishing }));
  const jobRoutes = { jobs, storage, bodyTimeoutMs, pageSize: jobsConfig.pageSize, retentionMs: jobsConfig.retentionS * 1000, texts };
  app.register(submitJobRoute(jobRoutes));
  app.get("/api/v1/jobs", listJobsRoute(jobRoutes));
  app.get("/api/v1/jobs/:id", getJobRoute(jobRoutes));
  app.delete("/api/v1/jobs/:id", cancelJobRoute(jobRoutes));
  return app;
}

function headerBytes(event: H3Event): number {
  let bytes = 0;
  for (const [name, value] of event.req.headers) bytes += name.length + value.length + 4;
  return bytes;
}
