/**
 * A small Server-Sent Events reader over fetch's ReadableStream, as the WHATWG
 * "event stream interpretation" describes it: lines end in CRLF, LF or CR (also when a
 * CRLF is split across chunks), `:` lines are comments, `data` lines join with "\n",
 * one space after the colon is dropped, a blank line dispatches, and an event without
 * data is not dispatched. Events are yielded as they arrive, not when the body ends.
 *
 * Web APIs only. The bench and the tests read streams with it, timing each event; the
 * playground reads its stream through the package's client (`src/client/`) instead.
 */

/** One dispatched event. `event` is "message" when the stream named none. */
export interface SseEvent {
  event: string;
  data: string;
  /** The last event id seen, if any. */
  id?: string;
  /** `performance.now()` when the event's final blank line was read. */
  receivedAt: number;
}

/** Options of {@link readSse}. */
export interface ReadSseOptions {
  /**
   * Stops reading and cancels the body when it aborts. Pass the same signal that was
   * given to `fetch`: the generator then ends quietly instead of throwing the AbortError.
   * @default none: reads to the end of the body
   */
  signal?: AbortSignal;
  /**
   * Called with the text of each comment line (without the leading colon).
   * @default none: comments are skipped
   */
  onComment?: (text: string) => void;
}

/** The event stream interpretation: text in, dispatched events out. */
class EventStreamParser {
  #buffer = "";
  #first = true;
  #event = "";
  #data: string[] = [];
  #id: string | undefined;
  /** A chunk ended in CR: an LF starting the next chunk belongs to the same line end. */
  #pendingCr = false;

  readonly #onComment: ((text: string) => void) | undefined;

  constructor(onComment?: (text: string) => void) {
    this.#onComment = onComment;
  }

  /** The events that a chunk of decoded text completes. */
  push(text: string): SseEvent[] {
    if (this.#pendingCr && text.startsWith("\n")) text = text.slice(1);
    this.#pendingCr = false;
    this.#buffer += text;
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = 0; i < this.#buffer.length; i++) {
      const c = this.#buffer[i];
      if (c !== "\n" && c !== "\r") continue;
      const event = this.#line(this.#buffer.slice(start, i));
      if (event) events.push(event);
      if (c === "\r") {
        if (i + 1 === this.#buffer.length) this.#pendingCr = true;
        else if (this.#buffer[i + 1] === "\n") i++;
      }
      start = i + 1;
    }
    this.#buffer = this.#buffer.slice(start);
    return events;
  }

  #line(text: string): SseEvent | undefined {
    if (this.#first) {
      this.#first = false;
      if (text.startsWith("\uFEFF")) text = text.slice(1);
    }
    if (text === "") return this.#dispatch();
    if (text.startsWith(":")) {
      this.#onComment?.(text.slice(1).replace(/^ /, ""));
      return undefined;
    }
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    const value = colon === -1 ? "" : text.slice(colon + 1).replace(/^ /, "");
    if (field === "event") this.#event = value;
    else if (field === "data") this.#data.push(value);
    else if (field === "id" && !value.includes("\0")) this.#id = value;
    // `retry` and unknown fields are ignored.
    return undefined;
  }

  #dispatch(): SseEvent | undefined {
    const data = this.#data;
    const event = this.#event || "message";
    this.#event = "";
    this.#data = [];
    return data.length > 0 ? { event, data: data.join("\n"), id: this.#id, receivedAt: performance.now() } : undefined;
  }
}

/** Yield the events of an event stream body as they arrive. */
export async function* readSse(body: ReadableStream<Uint8Array>, options: ReadSseOptions = {}): AsyncGenerator<SseEvent> {
  const { signal } = options;
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8");
  const parser = new EventStreamParser(options.onComment);
  const cancel = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener("abort", cancel, { once: true });
  try {
    while (true) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal?.aborted) return;
        throw error;
      }
      // An event not closed by a blank line when the stream ends is discarded (as the WHATWG rules say).
      yield* parser.push(chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true }));
      if (chunk.done || signal?.aborted) return;
    }
  } finally {
    signal?.removeEventListener("abort", cancel);
    // Breaking out of a for-await (or an abort) lets go of the body, which closes the connection.
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** A fetch whose answer is read as an event stream. */
export interface SseResponse {
  response: Response;
  /** The events; empty when the answer is not `text/event-stream`. */
  events: AsyncGenerator<SseEvent>;
  /** Aborts the request (and ends `events` quietly). */
  abort(): void;
  signal: AbortSignal;
}

/** `fetch` with an AbortController of its own, the body read by {@link readSse} when it is an event stream. */
export async function fetchSse(url: string, init: RequestInit = {}, options: Omit<ReadSseOptions, "signal"> = {}): Promise<SseResponse> {
  const controller = new AbortController();
  if (init.signal) init.signal.addEventListener("abort", () => controller.abort(init.signal!.reason), { once: true });
  const response = await fetch(url, { ...init, signal: controller.signal });
  const isStream = /^text\/event-stream\b/i.test(response.headers.get("content-type") ?? "");
  const events = isStream && response.body ? readSse(response.body, { ...options, signal: controller.signal }) : (async function* () {})();
  return { response, events, abort: () => controller.abort(), signal: controller.signal };
}

/** Read every event until the stream ends. */
export async function collectSse(events: AsyncIterable<SseEvent>): Promise<SseEvent[]> {
  const all: SseEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}
