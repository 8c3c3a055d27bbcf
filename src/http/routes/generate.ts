import { EventStream, type H3Event } from "h3";
import type { WrittenArticle } from "../../article/index.js";
import { GenerateRequestSchema } from "../../contract/request.js";
import type { GenerationService, WriteOptions } from "../../generation/service.js";
import type { KeyStorage } from "../../keys/storage.js";
import { log } from "../../log.js";
import { logRequest } from "../request-log.js";
import type { Metrics } from "../metrics.js";
import { idempotency, type IdempotencyOutcome } from "../idempotency.js";
import { negotiateFormat, textFormatHeaders, type ArticleFormat } from "../negotiate.js";
import { CLIENT_CLOSED, asHttpError, problemBody } from "../problem.js";
import { sourceTexts, type TextPool } from "../../text-pool.js";
import { jsonRoute } from "../validation.js";

/** Comment lines sent on an idle stream so proxies keep it open. */
const KEEP_ALIVE_MS = 15_000;

/** What the generate route serves with. */
export interface GenerateRouteOptions {
  generations: GenerationService;
  /** Where Idempotency-Key records live. */
  storage: KeyStorage;
  /** Per-request deadline: an Idempotency-Key stays claimed that long (and a minute) while its request runs. */
  timeoutMs: number;
  /** Time a client has to send its body. */
  bodyTimeoutMs: number;
  metrics: Metrics;
  /** Reads the sources off the event loop before anything is admitted. */
  texts: TextPool;
}

type Hooks = Pick<WriteOptions, "onMeta" | "onOutline" | "onDelta">;

/**
 * `POST /api/v1/generate`: validate, read the sources on a worker thread (within the analyse
 * limit), have the generation service write the article, answer in the negotiated format or as a stream.
 */
export function generateRoute({ generations, storage, timeoutMs, bodyTimeoutMs, metrics, texts }: GenerateRouteOptions) {
  // An Accept no format fits is refused before the body is read.
  const before = [(event: H3Event) => void negotiateFormat(event)];
  return jsonRoute("/api/v1/generate", { body: GenerateRequestSchema, bodyTimeoutMs, before, onlyPost: true }, async (event) => {
    const format = negotiateFormat(event);
    const { stream, ...body } = await event.req.json();
    const streamed = stream || format === "text/event-stream";
    const key = event.context.apiKey!;
    const request = generations.accept(body, key);
    await texts.read(sourceTexts(request.sources), key.id);
    const idempotent = await idempotency(event, {
      storage,
      name: `${key.id}:generate`,
      keepMs: IDEMPOTENCY_KEEP_MS,
      pendingMs: timeoutMs + 60_000,
    });
    if (idempotent && "replay" in idempotent)
      return answer(event, replayed(JSON.parse(idempotent.replay) as WrittenArticle), format, streamed, metrics);
    const admission = await admit(
      () =>
        generations.admit(request.length, {
          key,
          headers: event.context.rateLimitHeaders,
          ...(request.publish ? { publishTo: request.publish.target } : {}),
        }),
      idempotent,
    );
    // The log line records the words written, also of an article that was never finished.
    const onWords = (words: number, tokens: number) => (event.context.produced = { words, tokens });
    const write = (hooks: Hooks): Promise<WrittenArticle> =>
      admission
        .write(request, { ...hooks, signal: event.req.signal, onWords })
        .then(async (written) => {
          const { article, usage } = written.response;
          event.context.produced = { words: article.wordCount, tokens: usage.promptTokens + usage.completionTokens };
          await idempotent?.claim.complete(JSON.stringify(written));
          return written;
        })
        .catch(async (error) => {
          await idempotent?.claim.release().catch(() => {});
          throw error;
        });
    return answer(event, write, format, streamed, metrics);
  });
}

/** Start a generation; when it is refused (busy, shutting down, over a limit), the Idempotency-Key is free again for the retry. */
async function admit<T>(start: () => Promise<T>, idempotent: IdempotencyOutcome): Promise<T> {
  try {
    return await start();
  } catch (error) {
    if (idempotent && "claim" in idempotent) await idempotent.claim.release().catch(() => {});
    throw error;
  }
}

/** How long an answer given under an Idempotency-Key is replayed. */
const IDEMPOTENCY_KEEP_MS = 24 * 3600_000;

/** The article in the negotiated format, or as a stream. */
async function answer(
  event: H3Event,
  write: (hooks: Hooks) => Promise<WrittenArticle>,
  format: ArticleFormat,
  streamed: boolean,
  metrics: Metrics,
) {
  if (streamed) return eventStream(event, write, metrics);
  const { response, document } = await write({});
  if (format === "text/markdown") return text(response.article.markdown, "text/markdown");
  if (format === "text/html") return text(document, "text/html");
  return response;
}

/** A recorded answer told again through the same hooks: a replayed stream has its events, the Markdown in one delta. */
function replayed(written: WrittenArticle): (hooks: Hooks) => Promise<WrittenArticle> {
  return async ({ onMeta, onOutline, onDelta }) => {
    const { id, model, request, article } = written.response;
    onMeta?.({ id, model, request });
    onOutline?.({ title: article.title, outline: article.outline });
    onDelta?.(article.markdown);
    return written;
  };
}

/**
 * Server-Sent Events: `meta` as soon as the request is accepted, `outline` once planned,
 * `delta` Markdown as it is written, then `done` with the full JSON answer, or `error`
 * with a problem body.
 */
function eventStream(event: H3Event, write: (hooks: Hooks) => Promise<WrittenArticle>, metrics: Metrics): EventStream {
  const stream = new EventStream(event);
  event.context.streaming = true;
  const send = (name: string, data: unknown) => stream.push({ event: name, data: JSON.stringify(data) });
  const keepAlive = setInterval(() => stream.pushComment("keep-alive"), KEEP_ALIVE_MS);
  let status = 200;
  write({
    onMeta: (meta) => send("meta", meta),
    onOutline: (outline) => send("outline", outline),
    onDelta: (text) => send("delta", { text }),
  })
    .then(({ response }) => send("done", response))
    .catch((error: unknown) => {
      const body = problemBody(asHttpError(error), event.url.pathname);
      status = body.status;
      if (status === 500) log.error(error);
      return status === CLIENT_CLOSED ? undefined : send("error", body);
    })
    .finally(() => {
      clearInterval(keepAlive);
      // The stream's log line carries how it ended, not the 200 its headers said.
      logRequest(event, status);
      metrics.request(event, status);
      return stream.close();
    });
  return stream;
}

function text(body: string, type: "text/markdown" | "text/html"): Response {
  return new Response(body, { headers: textFormatHeaders(type) });
}
