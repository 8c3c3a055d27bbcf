import { HTTPError, assertBodySize, type H3Event } from "h3";
import { CLIENT_CLOSED, problem } from "./problem.js";

/** Largest request body accepted, in bytes: room for 100 KiB of sources and 50 links beside the rest. */
export const BODY_LIMIT = 256 * 1024;
/** Deepest nesting of arrays and objects accepted in a JSON body. */
const MAX_JSON_DEPTH = 16;

/**
 * The request body as parsed JSON, within the size, time and nesting limits: an
 * over-large body is a 413, one not sent within `timeoutMs` a 408, an empty, malformed
 * or too deeply nested one a 400.
 */
export async function readJson(event: H3Event, timeoutMs: number): Promise<unknown> {
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
export function assertJson(event: H3Event): void {
  const type = (event.req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") {
    throw problem(415, `Send the request body as application/json${type ? `, not ${type}` : ""}.`, {
      headers: { "accept-post": "application/json" },
    });
  }
}
