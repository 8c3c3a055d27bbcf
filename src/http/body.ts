import { assertBodySize, type H3Event } from "h3";
import { problem } from "./problem.js";

/** Largest request body accepted, in bytes. */
export const BODY_LIMIT = 64 * 1024;
/** Deepest nesting of arrays and objects accepted in a JSON body. */
export const MAX_JSON_DEPTH = 16;

/**
 * The request body as parsed JSON, within the size and nesting limits: an over-large
 * body is a 413, an empty, malformed or too deeply nested one a 400.
 */
export async function readJson(event: H3Event): Promise<unknown> {
  assertBodySize(event, BODY_LIMIT);
  const text = await event.req.text();
  if (!text.trim()) throw problem(400, "The request body is empty; send a JSON object.");
  if (jsonDepth(text) > MAX_JSON_DEPTH) throw problem(400, `The JSON body is nested deeper than ${MAX_JSON_DEPTH} levels.`);
  try {
    return JSON.parse(text);
  } catch {
    throw problem(400, "The request body is not valid JSON.");
  }
}

/** Deepest bracket nesting of a JSON text, strings skipped; checked before parsing so depth can never exhaust the stack. */
export function jsonDepth(text: string): number {
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
