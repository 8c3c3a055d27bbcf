/** The client's one way to call the API: fetch with the key, JSON in, an error for any non-2xx answer. */
import { apiError } from "./errors.js";

/** What {@link createClient} needs. */
export interface ClientOptions {
  /**
   * The server's origin (and a path prefix, if a proxy adds one), such as `http://127.0.0.1:3000`.
   * In a browser on the server's own page, `location.origin`.
   */
  baseUrl: string;
  /** The API key, sent in the `x-api-key` header. */
  apiKey: string;
  /**
   * The `fetch` to call.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
}

/** What each call may add. */
export interface CallOptions {
  /**
   * Aborts the call (and, for generate and stream, the generation on the server).
   * @default none: the call runs until the server answers
   */
  signal?: AbortSignal;
}

/** What a call that creates something may add. */
export interface CreateOptions extends CallOptions {
  /**
   * `Idempotency-Key`: sending the same key with the same body again gives the same answer or job.
   * @default none: every call creates anew
   */
  idempotencyKey?: string;
}

/** One request of the API. */
export interface ApiRequest extends CreateOptions {
  method: "GET" | "POST" | "DELETE";
  path: string;
  accept: string;
  body?: unknown;
}

/** The API's calls, bound to a server and a key. */
export type Caller = (request: ApiRequest) => Promise<Response>;

/** A caller for a server and key: a non-2xx answer becomes an {@link InkpressApiError}. */
export function caller({ baseUrl, apiKey, fetch: fetchImpl = globalThis.fetch }: ClientOptions): Caller {
  const origin = baseUrl.replace(/\/+$/, "");
  return async ({ method, path, accept, body, signal, idempotencyKey }) => {
    const headers: Record<string, string> = { accept, "x-api-key": apiKey };
    if (body !== undefined) headers["content-type"] = "application/json";
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    const response = await fetchImpl(`${origin}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    if (!response.ok) throw await apiError(response);
    return response;
  };
}

/** Wait `ms`, or reject with the signal's reason once it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
