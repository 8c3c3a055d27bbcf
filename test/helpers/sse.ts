/**
 * A small Server-Sent Events reader over fetch's ReadableStream, as the WHATWG
 * "event stream interpretation" describes it: lines end in CRLF, LF or CR (also when a
 * CRLF is split across chunks), `:` lines are comments, `data` lines join with "\n",
 * one space after the colon is dropped, a blank line dispatches, and an event without
 * data is not dispatched. Events are yielded as they arrive, not when the body ends.
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
   */
  signal?: AbortSignal;
  /** Called with the text of each comment line (without the leading colon). */
  onComment?: (text: string) => void;
}

/** Yield the events of an event stream body as they arrive. */
export async function* readSse(body: ReadableStream<Uint8Array>, options: ReadSseOptions = {}): AsyncGenerator<SseEvent> {
  const { signal, onComment } = options;
  const reader = body.getReader();
  const decoder = new TextDecoder("utf-8");
  const cancel = () => void reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener("abort", cancel, { once: true });
  let buffer = "";
  let first = true;
  let event = "";
  let data: string[] = [];
  let id: string | undefined;
  /** A chunk ended in CR: an LF starting the next chunk belongs to the same line end. */
  let pendingCr = false;

  function* lines(text: string): Generator<string> {
    if (pendingCr && text.startsWith("\n")) text = text.slice(1);
    pendingCr = false;
    buffer += text;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const c = buffer[i];
      if (c !== "\n" && c !== "\r") continue;
      yield buffer.slice(start, i);
      if (c === "\r") {
        if (i + 1 === buffer.length) pendingCr = true;
        else if (buffer[i + 1] === "\n") i++;
      }
      start = i + 1;
    }
    buffer = buffer.slice(start);
  }

  function line(text: string): SseEvent | undefined {
    if (first) {
      first = false;
      if (text.startsWith("\uFEFF")) text = text.slice(1);
    }
    if (text === "") {
      const dispatched = data.length > 0 ? { event: event || "message", data: data.join("\n"), id, receivedAt: performance.now() } : undefined;
      event = "";
      data = [];
      return dispatched;
    }
    if (text.startsWith(":")) {
      onComment?.(text.slice(1).replace(/^ /, ""));
      return undefined;
    }
    const colon = text.indexOf(":");
    const field = colon === -1 ? text : text.slice(0, colon);
    const value = colon === -1 ? "" : text.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\0")) id = value;
    // `retry` and unknown fields are ignored.
    return undefined;
  }

  try {
    while (true) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal?.aborted) return;
        throw error;
      }
      if (chunk.done) {
        // An event not closed by a blank line when the stream ends is discarded (per the spec).
        for (const text of lines(decoder.decode())) {
          const dispatched = line(text);
          if (dispatched) yield dispatched;
        }
        return;
      }
      for (const text of lines(decoder.decode(chunk.value, { stream: true }))) {
        const dispatched = line(text);
        if (dispatched) yield dispatched;
      }
      if (signal?.aborted) return;
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
