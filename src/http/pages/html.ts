/**
 * Shared parts of the server-rendered pages (`/docs`, `/`): escaping, the page shell and
 * a response with a strict Content-Security-Policy. The pages are self-contained: one
 * inline stylesheet, allowed by its SHA-256 hash, and at most one script, a module served
 * by this server (`/assets/…`); nothing inline runs, and nothing comes from elsewhere (the
 * machines they run on are offline).
 */
import { createHash } from "node:crypto";
import { scriptUrl } from "./assets.js";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escape text for element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

/** Our own prose (never request data) as HTML: escaped, with `code` spans. */
export function prose(text: string): string {
  return escapeHtml(text).replace(/`([^`]+)`/g, "<code>$1</code>");
}

const hash = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** The colours, type and building blocks both pages share. */
const BASE_STYLE = `
:root {
  color-scheme: light dark;
  --bg: #f6f7f9; --panel: #ffffff; --text: #1c2430; --muted: #5c6776; --line: #dde2e8;
  --accent: #2f5bd3; --accent-text: #ffffff; --code-bg: #eef1f5;
  --ok: #1f7a46; --ok-bg: #e6f4ec; --bad: #b42318; --bad-bg: #fdecea; --na: #6b7280; --na-bg: #eef0f3;
  --radius: 10px;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #14181e; --panel: #1c2129; --text: #e4e8ee; --muted: #9aa5b4; --line: #2e3642;
    --accent: #7ea2ff; --accent-text: #0d1320; --code-bg: #262d38;
    --ok: #6fd39a; --ok-bg: #1b3326; --bad: #ff8a80; --bad-bg: #3a1f1d; --na: #a0a8b5; --na-bg: #2a3039;
  }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--text);
  font: 15px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
a { color: var(--accent); }
code, pre, kbd { font-family: var(--mono); font-size: 0.88em; }
code { background: var(--code-bg); padding: 0.1em 0.35em; border-radius: 4px; }
pre { background: var(--code-bg); padding: 12px 14px; border-radius: 8px; overflow-x: auto; line-height: 1.45; }
pre code { background: none; padding: 0; }
.topbar {
  display: flex; align-items: center; gap: 20px; flex-wrap: wrap;
  padding: 12px 24px; background: var(--panel); border-bottom: 1px solid var(--line);
}
.brand { font-weight: 700; font-size: 17px; letter-spacing: -0.01em; color: var(--text); text-decoration: none; }
.brand span { color: var(--accent); }
.topbar nav { display: flex; gap: 16px; flex-wrap: wrap; }
.topbar nav a { color: var(--muted); text-decoration: none; font-size: 14px; }
.topbar nav a:hover, .topbar nav a[aria-current="page"] { color: var(--text); }
.panel { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); }
`;

/** What a page is made of. */
export interface PageParts {
  title: string;
  description: string;
  /** Which top-bar link is the current page. */
  current: "/" | "/docs";
  /** Extra CSS after {@link BASE_STYLE}. */
  style: string;
  /** The body's HTML, below the top bar. */
  body: string;
  /** The page's script, by the name of its module in `client/` (`playground`), if any. */
  script?: string;
}

/** A rendered page: its markup and the headers to answer it with. */
export interface Page {
  markup: string;
  headers: Record<string, string>;
}

/** A complete HTML page, with a CSP that allows only its own inline style and this origin's scripts. */
export function renderPage(parts: PageParts): Page {
  const style = BASE_STYLE + parts.style;
  const link = (href: string, label: string) => `<a href="${href}"${parts.current === href ? ' aria-current="page"' : ""}>${label}</a>`;
  const markup = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(parts.title)}</title>
<meta name="description" content="${escapeHtml(parts.description)}">
<link rel="icon" href="data:,">
<style>${style}</style>
</head>
<body>
<header class="topbar">
<a class="brand" href="/">ink<span>press</span></a>
<nav aria-label="Site">${link("/", "Playground")}${link("/docs", "API reference")}<a href="/api/v1/openapi.json">OpenAPI</a></nav>
</header>
${parts.body}
${parts.script ? `<script type="module" src="${scriptUrl(parts.script)}"></script>` : ""}
</body>
</html>
`;
  const csp = [
    "default-src 'none'",
    `style-src ${hash(style)}`,
    `script-src ${parts.script ? "'self'" : "'none'"}`,
    "connect-src 'self'",
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
  return {
    markup,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": csp,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": "no-cache",
    },
  };
}
