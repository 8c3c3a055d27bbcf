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

/**
 * What an article answered as HTML may do: nothing but show itself with inline styles. The
 * article holds model text and request fields, so no script of any origin may run in it, and
 * no link or form may send anyone elsewhere under its name.
 */
const ARTICLE_HTML_POLICY = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/** The headers of an article answered as text: its type, never sniffed as another; HTML under {@link ARTICLE_HTML_POLICY}. */
export function textFormatHeaders(format: "text/markdown" | "text/html"): Record<string, string> {
  const headers: Record<string, string> = { "content-type": `${format}; charset=utf-8`, "x-content-type-options": "nosniff" };
  if (format === "text/html") headers["content-security-policy"] = ARTICLE_HTML_POLICY;
  return headers;
}
