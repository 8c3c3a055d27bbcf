import Negotiator from "negotiator";
import type { H3Event } from "h3";
import { problem } from "./problem.js";

/** Response formats of the generate endpoint, the default first. */
export const ARTICLE_FORMATS = ["application/json", "text/markdown", "text/html", "text/event-stream"] as const;

/** One of {@link ARTICLE_FORMATS}. */
export type ArticleFormat = (typeof ARTICLE_FORMATS)[number];

/** The format the client's `Accept` header prefers; JSON when it has none; 406 when nothing fits. */
export function negotiateFormat(event: H3Event): ArticleFormat {
  const accept = event.req.headers.get("accept");
  if (!accept) return ARTICLE_FORMATS[0];
  const chosen = new Negotiator({ headers: { accept } }).mediaType([...ARTICLE_FORMATS]);
  if (!chosen) throw problem(406, `Accept one of: ${ARTICLE_FORMATS.join(", ")}.`);
  return chosen as ArticleFormat;
}
