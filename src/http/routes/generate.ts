import { assertBodySize, defineHandler, readValidatedBody, type H3Event } from "h3";
import { writeArticle } from "../../engine/article.js";
import { GenerateRequestSchema } from "../../engine/request.js";
import type { ModelRuntime } from "../../model/runtime.js";
import { negotiateFormat } from "../negotiate.js";
import { problem } from "../problem.js";
import { validationProblem } from "../validation.js";

/** Largest request body accepted, in bytes. */
export const BODY_LIMIT = 64 * 1024;

/** `POST /api/v1/generate`: validate, write the article, answer in the negotiated format. */
export function generateRoute(runtime: ModelRuntime) {
  return defineHandler(async (event) => {
    if (event.req.method !== "POST") {
      throw problem(405, `${event.req.method} is not allowed here; use POST.`, { headers: { allow: "POST" } });
    }
    const format = negotiateFormat(event);
    assertJson(event);
    assertBodySize(event, BODY_LIMIT);
    const request = await readValidatedBody(event, GenerateRequestSchema, { onError: validationProblem });
    const { response, document } = await writeArticle(request, { runtime, signal: event.req.signal });
    if (format === "text/markdown") return text(response.article.markdown, "text/markdown");
    if (format === "text/html") return text(document, "text/html");
    return response;
  });
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

function text(body: string, type: string): Response {
  return new Response(body, { headers: { "content-type": `${type}; charset=utf-8` } });
}
