/** A generate stream read as typed events: Server-Sent Events over fetch, parsed by eventsource-parser. */
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { IncompleteStreamError, InkpressApiError } from "./errors.js";
import type { Caller, CallOptions } from "./http.js";
import type { ArticleRequest, Problem, StreamEvent } from "./types.js";

const EVENTS = new Set(["meta", "outline", "delta", "done"]);

/** The event stream's messages as they arrive. */
async function* messages(body: ReadableStream<Uint8Array>): AsyncGenerator<EventSourceMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const arrived: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => arrived.push(message) });
  try {
    while (true) {
      const { done, value } = await reader.read();
      parser.feed(done ? decoder.decode() : decoder.decode(value, { stream: true }));
      yield* arrived.splice(0);
      if (done) return;
    }
  } finally {
    // Leaving early (a break, an error, an abort) closes the connection, which stops the generation.
    await reader.cancel().catch(() => {});
  }
}

/**
 * `POST /api/v1/generate` as a stream: the events until `done`. An `error` event is thrown as
 * an {@link InkpressApiError}; a stream cut before either, as an {@link IncompleteStreamError}.
 */
export async function* streamArticle(call: Caller, request: ArticleRequest, options: CallOptions = {}): AsyncGenerator<StreamEvent> {
  const response = await call({
    method: "POST",
    path: "/api/v1/generate",
    accept: "text/event-stream",
    body: request,
    signal: options.signal,
  });
  if (!response.body) throw new IncompleteStreamError();
  for await (const message of messages(response.body)) {
    if (message.event === "error") throw new InkpressApiError(JSON.parse(message.data) as Problem);
    if (!message.event || !EVENTS.has(message.event)) continue;
    const event = { event: message.event, data: JSON.parse(message.data) } as StreamEvent;
    yield event;
    if (event.event === "done") return;
  }
  throw new IncompleteStreamError();
}
