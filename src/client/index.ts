/**
 * `inkpress/client`: a small typed client of the inkpress API. It needs nothing but `fetch`
 * (Node 20 or a browser) and eventsource-parser, and its types are inferred from the
 * server's own valibot schemas.
 *
 * @example
 * const inkpress = createClient({ baseUrl: "http://127.0.0.1:3000", apiKey: process.env.INKPRESS_KEY! });
 * const answer = await inkpress.generate({ topic: "Home composting" });
 * const { outline } = await inkpress.outline({ topic: "Home composting" }); // edit it, then generate({ topic, outline })
 * for await (const event of inkpress.stream({ topic: "Home composting" })) if (event.event === "delta") process.stdout.write(event.data.text);
 * const { seo } = await inkpress.analyse({ markdown: "# Home composting\n\nA compost bin…", seo: { keywords: "compost bin" } });
 * const { article, changes } = await inkpress.refresh({ markdown: "# Home composting\n\nA compost bin…", seo: { keywords: "compost bin" } });
 * const job = await inkpress.jobs.wait((await inkpress.jobs.submit({ topic: "Home composting", length: 2000 })).id);
 */
import { caller, type CallOptions, type ClientOptions, type CreateOptions } from "./http.js";
import { jobsClient, type JobsClient } from "./jobs.js";
import { streamArticle } from "./stream.js";
import type {
  AnalyseRequest,
  AnalysisResponse,
  ArticleRequest,
  ArticleResponse,
  OutlineResponse,
  RefreshRequest,
  RefreshResponse,
  StreamEvent,
  VoiceRequest,
  VoiceResponse,
} from "./types.js";

export { IncompleteStreamError, InkpressApiError } from "./errors.js";
export type { CallOptions, ClientOptions, CreateOptions } from "./http.js";
export type { JobsClient, WaitOptions } from "./jobs.js";
export type {
  AnalyseRequest,
  AnalysisResponse,
  ArticleRequest,
  ArticleResponse,
  Job,
  JobRequest,
  OutlineResponse,
  Problem,
  RefreshRequest,
  RefreshResponse,
  StreamEvent,
  VoiceRequest,
  VoiceResponse,
} from "./types.js";

/** A client bound to one server and one key. */
export interface InkpressClient {
  /** `POST /api/v1/generate`: write an article and answer it whole, as JSON. */
  generate(request: ArticleRequest, options?: CreateOptions): Promise<ArticleResponse>;
  /**
   * `POST /api/v1/generate` as Server-Sent Events: `meta`, `outline`, the `delta`s, then `done`.
   * Leaving the loop early (or aborting) stops the generation on the server.
   */
  stream(request: ArticleRequest, options?: CallOptions): AsyncGenerator<StreamEvent>;
  /** `POST /api/v1/outline`: the plan an article would be written from (title, headings, budgets), to edit and send back as `outline`. */
  outline(request: ArticleRequest, options?: CallOptions): Promise<OutlineResponse>;
  /** `POST /api/v1/analyse`: the SEO report of an article as it is (no model, no word quota). */
  analyse(request: AnalyseRequest, options?: CallOptions): Promise<AnalysisResponse>;
  /** `POST /api/v1/refresh`: an article mended where its checks fail, with the report before and after and the diff. */
  refresh(request: RefreshRequest, options?: CallOptions): Promise<RefreshResponse>;
  /** `POST /api/v1/voice`: a house voice learnt from the team's own articles; send its `profile` as `style.voice`. */
  voice(request: VoiceRequest, options?: CallOptions): Promise<VoiceResponse>;
  /** Articles written (or refreshed) in the background. */
  jobs: JobsClient;
}

/** A client of the inkpress server at `baseUrl`, calling it with `apiKey`. Errors are {@link InkpressApiError}s. */
export function createClient(options: ClientOptions): InkpressClient {
  const call = caller(options);
  return {
    async generate(request, { signal, idempotencyKey } = {}) {
      const response = await call({
        method: "POST",
        path: "/api/v1/generate",
        accept: "application/json",
        body: request,
        signal,
        idempotencyKey,
      });
      return (await response.json()) as ArticleResponse;
    },
    stream: (request, options) => streamArticle(call, request, options),
    async outline(request, { signal } = {}) {
      const response = await call({ method: "POST", path: "/api/v1/outline", accept: "application/json", body: request, signal });
      return (await response.json()) as OutlineResponse;
    },
    async analyse(request, { signal } = {}) {
      const response = await call({ method: "POST", path: "/api/v1/analyse", accept: "application/json", body: request, signal });
      return (await response.json()) as AnalysisResponse;
    },
    async refresh(request, { signal } = {}) {
      const response = await call({ method: "POST", path: "/api/v1/refresh", accept: "application/json", body: request, signal });
      return (await response.json()) as RefreshResponse;
    },
    async voice(request, { signal } = {}) {
      const response = await call({ method: "POST", path: "/api/v1/voice", accept: "application/json", body: request, signal });
      return (await response.json()) as VoiceResponse;
    },
    jobs: jobsClient(call),
  };
}
