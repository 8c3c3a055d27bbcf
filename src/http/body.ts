import { HTTPError, assertBodySize, type H3Event, type Middleware } from "h3";
import { CLIENT_CLOSED, problem } from "./problem.js";
import type { NamedVoices } from "../voice/named.js";

declare module "h3" {
  interface H3EventContext {
    /** The JSON body as parsed, before validation: what an Idempotency-Key's fingerprint is taken of. */
    body?: unknown;
    /** The voices a body's `style.voice` may name (`serve --voices`); none without. */
    voices?: NamedVoices;
  }
}

/** Largest request body accepted, in bytes: room for 100 KiB of sources and 50 links beside the rest. */
export const BODY_LIMIT = 256 * 1024;
/** Deepest nesting of arrays and objects accepted in a JSON body. */
const MAX_JSON_DEPTH = 16;

/**
 * The middleware of a JSON route, before h3 validates the body: the body must be declared as JSON
 * (415), and is read within the size, time and nesting limits ({@link readJson}); h3's validation
 * then reads it through `event.req.json()`, which gives the body this middleware parsed.
 */
export function jsonBody(timeoutMs: number): Middleware {
  return async (event) => {
    assertJson(event);
    const body = await readJson(event, timeoutMs);
    event.context.body = body;
    // The event takes the wrapped request, as h3's own body tools (assertBodySize, validated routes) do.
    (event as { req: H3Event["req"] }).req = withJson(event.req, withNamedVoice(event, body));
  };
}

/** The body with its style's voice, when that is a name the server knows, replaced by the profile before validation. */
function withNamedVoice(event: H3Event, body: unknown): unknown {
  const voices = event.context.voices;
  if (!voices || typeof body !== "object" || body === null || !("style" in body)) return body;
  return { ...body, style: voices.resolve(body.style) };
}

/** The request with its body already read: `json()` gives `body`, everything else is the request's own. */
function withJson(request: H3Event["req"], body: unknown): H3Event["req"] {
  return new Proxy(request, {
    get(target, key) {
      if (key === "json") return () => Promise.resolve(body);
      const value: unknown = Reflect.get(target, key);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/**
 * The request body as parsed JSON, within the size, time and nesting limits: an
 * over-large body is a 413, one not sent within `timeoutMs` a 408, an empty, malformed
 * or too deeply nested one a 400.
 */
async function readJson(event: H3Event, timeoutMs: number): Promise<unknown> {
  assertBodySize(event, BODY_LIMIT);
  const text = await readText(event, timeoutMs);
  if (!text.trim()) throw problem(400, "The request body is empty; send a JSON object.");
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw problem(400, `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  try {
    return JSON.parse(text);
  } catch {
    throw problem(400, "The request body is not valid JSON.");
  }
}

/** Deepest bracket nesting of a JSON text, strings skipped; checked before parsing so depth can never exhaust the stack. */
function jsonDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === "{" || c === "[") deepest = Math.max(deepest, ++depth);
    else if (c === "}" || c === "]") depth--;
  }
  return deepest;
}

/** The body as text; a sender too slow is cut off, and one that hangs up is no server error. */
async function readText(event: H3Event, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const tooSlow = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(problem(408, `The request body was not received within ${timeoutMs / 1000} s.`, { headers: { connection: "close" } })),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([event.req.text(), tooSlow]);
  } catch (error) {
    if (event.req.signal.aborted && !HTTPError.isError(error)) throw problem(CLIENT_CLOSED, "The client closed the request.");
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The body must be declared as JSON: anything else, or no declaration, is a 415. */
function assertJson(event: H3Event): void {
  const type = (event.req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") {
    throw problem(415, `Send the request body as application/json${type ? `, not ${type}` : ""}.`, {
      headers: { "accept-post": "application/json" },
    });
  }
}
