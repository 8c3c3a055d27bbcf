import { createParser, type EventSourceMessage } from "eventsource-parser";
import pRetry from "p-retry";
import * as v from "valibot";
import { UpstreamError, upstreamStatus } from "./errors.js";

/** How inkpress talks to an inference server. */
export interface UpstreamOptions {
  /**
   * Sent as `Authorization: Bearer <key>`.
   * @default undefined (no header)
   */
  key?: string;
  /**
   * Milliseconds the server may stay silent (no headers, no byte of the stream) before the
   * request fails with 504. llama-server reports prompt progress and pings, so only a hung server stays silent.
   * @default 120_000
   */
  stallTimeoutMs?: number;
  /**
   * Retries of a request the server did not answer (refused, reset, 502, 503, 504, 429), with
   * exponential backoff. Only before the answer starts: a stream cut mid-answer is never sent again.
   * @default 3
   */
  retries?: number;
  /**
   * Milliseconds before the first retry; each further retry waits twice as long.
   * @default 500
   */
  retryDelayMs?: number;
}

/** Network failures worth one more try before the answer starts, in words. */
const TRANSIENT: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  EPIPE: "connection closed",
  UND_ERR_SOCKET: "connection closed",
  ETIMEDOUT: "connection timed out",
  UND_ERR_CONNECT_TIMEOUT: "connection timed out",
};

/** TLS failures in words, by the socket's error code: what is wrong, and what to do. */
const TLS_WORDS: Record<string, string> = {
  EPROTO: "does not speak HTTPS (is its URL http://?)",
  ERR_SSL_WRONG_VERSION_NUMBER: "does not speak HTTPS (is its URL http://?)",
  DEPTH_ZERO_SELF_SIGNED_CERT: "has a self-signed certificate (trust it with NODE_EXTRA_CA_CERTS=its-ca.pem)",
  SELF_SIGNED_CERT_IN_CHAIN: "has a certificate signed by an unknown authority (trust it with NODE_EXTRA_CA_CERTS=its-ca.pem)",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "has a certificate signed by an unknown authority (trust it with NODE_EXTRA_CA_CERTS=its-ca.pem)",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "has a certificate signed by an unknown authority (trust it with NODE_EXTRA_CA_CERTS=its-ca.pem)",
  CERT_HAS_EXPIRED: "has an expired certificate",
  ERR_TLS_CERT_ALTNAME_INVALID: "has a certificate for another host name",
};

/** An inference server's HTTP API: JSON requests and server-sent event streams, with its faults as {@link UpstreamError}. */
export class Upstream {
  private readonly stallMs: number;
  private readonly retries: number;
  private readonly retryDelayMs: number;

  /** How faults name the server: its origin, or its kind and origin once known ("Ollama at http://…"). */
  private label: string;

  constructor(
    /** The server's root URL. */
    readonly base: URL,
    private readonly options: UpstreamOptions = {},
  ) {
    this.stallMs = options.stallTimeoutMs ?? 120_000;
    this.retries = options.retries ?? 3;
    this.retryDelayMs = options.retryDelayMs ?? 500;
    this.label = base.origin;
  }

  /** Name the server's kind in every fault from now on. */
  named(kind: string): void {
    this.label = `${kind} at ${this.base.origin}`;
  }

  /** GET (no body) or POST a JSON request and return the JSON answer. */
  async json(path: string, body?: unknown, signal?: AbortSignal): Promise<unknown> {
    const watch = new Watchdog(this.stallMs, signal);
    try {
      const response = await this.open(path, body, watch);
      const text = await response.text();
      try {
        return JSON.parse(text);
      } catch {
        throw new UpstreamError(502, `${this.label}${path} answered with something that is not JSON`);
      }
    } catch (error) {
      signal?.throwIfAborted();
      throw this.fault(error, watch);
    } finally {
      watch.dispose();
    }
  }

  /**
   * POST a JSON request and yield the server-sent events of its answer. Ends quietly when
   * `signal` aborts; leaving the loop early closes the connection, which cancels the work upstream.
   */
  async *events(path: string, body: unknown, signal?: AbortSignal): AsyncGenerator<EventSourceMessage, void, undefined> {
    const events: EventSourceMessage[] = [];
    // Comments (llama-server's pings) are not events, but they reset the watchdog like any byte.
    const parser = createParser({ onEvent: (event) => events.push(event) });
    for await (const text of this.stream(path, body, signal)) {
      parser.feed(text);
      yield* events.splice(0);
    }
  }

  /** As {@link events}, for a server that streams one JSON object a line (Ollama's NDJSON): yields each non-empty line. */
  async *lines(path: string, body: unknown, signal?: AbortSignal): AsyncGenerator<string, void, undefined> {
    let rest = "";
    for await (const text of this.stream(path, body, signal)) {
      const lines = (rest + text).split("\n");
      rest = lines.pop()!;
      yield* lines.filter((line) => line.trim());
    }
    if (rest.trim()) yield rest;
  }

  /** The answer's body as text, chunk by chunk, each resetting the watchdog; ends quietly when `signal` aborts. */
  private async *stream(path: string, body: unknown, signal?: AbortSignal): AsyncGenerator<string, void, undefined> {
    const watch = new Watchdog(this.stallMs, signal);
    try {
      const response = await this.open(path, body, watch);
      const decoder = new TextDecoder();
      const reader = response.body!.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        watch.reset();
        yield decoder.decode(value, { stream: true });
      }
    } catch (error) {
      if (signal?.aborted) return;
      throw this.fault(error, watch);
    } finally {
      watch.dispose();
    }
  }

  /** One event's JSON data, checked against what inkpress reads of it. */
  parseEvent<const S extends v.GenericSchema>(schema: S, data: string): v.InferOutput<S> {
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      throw new UpstreamError(502, `${this.label} sent an event that is not JSON`);
    }
    const parsed = v.safeParse(schema, json);
    if (!parsed.success)
      throw new UpstreamError(502, `${this.label} sent an event inkpress does not understand: ${v.summarize(parsed.issues)}`);
    return parsed.output;
  }

  /** Send the request, retrying with backoff while the server has not answered; a non-2xx answer throws. */
  private open(path: string, body: unknown, watch: Watchdog): Promise<Response> {
    const headers: Record<string, string> = {
      accept: body === undefined ? "application/json" : "application/json, text/event-stream, application/x-ndjson",
    };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (this.options.key) headers.authorization = `Bearer ${this.options.key}`;
    const attempt = async () => {
      watch.reset();
      let response: Response;
      try {
        response = await fetch(new URL(path, this.base), {
          method: body === undefined ? "GET" : "POST",
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: watch.signal,
        });
      } catch (error) {
        throw this.fault(error, watch);
      }
      if (response.ok) return response;
      const detail = errorMessage(await response.text().catch(() => ""));
      throw new UpstreamError(
        upstreamStatus(response.status),
        `${this.label}${path} answered ${response.status}${detail ? `: ${detail}` : ""}`,
        {
          retryable: [429, 502, 503, 504].includes(response.status),
          answered: response.status,
        },
      );
    };
    return pRetry(attempt, {
      retries: this.retries,
      minTimeout: this.retryDelayMs,
      factor: 2,
      signal: watch.signal,
      shouldRetry: ({ error }) => error instanceof UpstreamError && error.retryable,
    });
  }

  /** The error as an {@link UpstreamError}, its message one line naming the server. */
  private fault(error: unknown, watch: Watchdog): UpstreamError {
    if (error instanceof UpstreamError) return error;
    if (watch.stalled) return new UpstreamError(504, `${this.label} sent nothing for ${this.stallMs / 1000} s`);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const transient = TRANSIENT[cause?.code ?? ""];
    const tls = TLS_WORDS[cause?.code ?? ""];
    if (tls) return new UpstreamError(502, `the server at ${this.base.origin} ${tls}`, { cause: error });
    const reason = transient ?? cause?.message ?? (error as Error).message;
    return new UpstreamError(502, `${this.label} failed: ${reason}`, { retryable: transient !== undefined, cause: error });
  }
}

/** The `error.message` of a JSON error body (llama-server and the OpenAI API agree on it), or the body's start. */
function errorMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === "string" ? parsed.error : (parsed.error?.message ?? parsed.message);
    if (typeof message === "string") return message;
  } catch {
    // not JSON: the text itself says what went wrong
  }
  return body.slice(0, 200);
}

/** Aborts a request that stays silent for too long, or when the caller's signal aborts; always aborts on dispose, which closes the connection. */
class Watchdog {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  readonly signal: AbortSignal;
  stalled = false;

  constructor(
    private readonly ms: number,
    caller?: AbortSignal,
  ) {
    this.signal = caller ? AbortSignal.any([caller, this.controller.signal]) : this.controller.signal;
  }

  /** Something arrived: the silence starts again. */
  reset(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.stalled = true;
      this.controller.abort();
    }, this.ms);
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.controller.abort();
  }
}
