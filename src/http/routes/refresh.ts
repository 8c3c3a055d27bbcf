import type { GenerationService } from "../../generation/service.js";
import { RefreshRequestSchema } from "../../contract/refresh.js";
import { refreshReservation } from "../../generation/reservation.js";
import type { TextPool } from "../../text-pool.js";
import { jsonRoute } from "../validation.js";

/** What the refresh route serves with. */
export interface RefreshRouteOptions {
  generations: GenerationService;
  /** Time a client has to send its body. */
  bodyTimeoutMs: number;
  /** Reads the article off the event loop before the refresh is admitted. */
  texts: TextPool;
}

/**
 * `POST /api/v1/refresh`: an article mended where its checks fail, through the generation
 * service like generate (the key's rate limit, concurrency, daily words and a generation slot).
 * The article is read on a worker thread first, within the analyse limit: one that cannot be
 * read in time is refused before it takes a slot or parses on the event loop.
 */
export function refreshRoute({ generations, bodyTimeoutMs, texts }: RefreshRouteOptions) {
  return jsonRoute("/api/v1/refresh", { body: RefreshRequestSchema, bodyTimeoutMs, onlyPost: true }, async (event) => {
    const request = await event.req.json();
    const key = event.context.apiKey!;
    await texts.read([{ text: request.markdown, field: "markdown" }], key.id);
    const admission = await generations.admit(refreshReservation(request), {
      key,
      headers: event.context.rateLimitHeaders,
      ...(request.publish ? { publishTo: request.publish.target } : {}),
    });
    const { response } = await admission.refresh(request, { signal: event.req.signal });
    event.context.produced = { words: response.wordsWritten, tokens: response.usage.promptTokens + response.usage.completionTokens };
    return response;
  });
}
