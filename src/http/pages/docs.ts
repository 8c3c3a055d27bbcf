/**
 * `GET /docs`: the human-readable API reference, rendered on the server from the OpenAPI
 * document (its request table, formats and response fields come from the document's
 * schemas, so the page cannot drift from validation), with one anchor per problem type
 * (`/docs#invalid-request`, …) for the `type` of every problem+json answer.
 */
import { STATUS_CODES } from "node:http";
import { BODY_LIMIT } from "../body.js";
import { FORMATS, STREAM_EVENTS } from "../openapi/articles.js";
import { PROBLEM_NOTES } from "../openapi/problems.js";
import { PROBLEM_TYPES } from "../problem.js";
import {
  componentSchema,
  defaultText,
  fieldsOf,
  pathId,
  requestBodySchema,
  rulesText,
  typeText,
  type Field,
  type SchemaNode,
} from "./fields.js";
import { escapeHtml, renderPage, type Page, prose } from "./html.js";

const STYLE = `
.layout { display: grid; grid-template-columns: 210px minmax(0, 1fr); gap: 32px; max-width: 1180px; margin: 0 auto; padding: 28px 24px 64px; }
.toc { position: sticky; top: 20px; align-self: start; font-size: 14px; }
.toc ol { list-style: none; margin: 0; padding: 0; }
.toc li { margin: 2px 0; }
.toc a { display: block; padding: 4px 10px; border-radius: 6px; color: var(--muted); text-decoration: none; }
.toc a:hover { background: var(--panel); color: var(--text); }
main { min-width: 0; }
main > header h1 { font-size: 28px; margin: 0 0 6px; letter-spacing: -0.02em; }
.lead { color: var(--muted); margin: 0 0 8px; max-width: 72ch; }
section { margin-top: 36px; }
section > h2 { font-size: 21px; margin: 0 0 12px; padding-bottom: 6px; border-bottom: 1px solid var(--line); letter-spacing: -0.01em; }
h3 { font-size: 16px; margin: 22px 0 8px; }
p, li { max-width: 80ch; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); overflow: hidden; \
font-size: 14px; }
th, td { text-align: left; vertical-align: top; padding: 9px 12px; border-bottom: 1px solid var(--line); }
th { background: var(--code-bg); font-weight: 600; white-space: nowrap; }
tr:last-child td { border-bottom: none; }
td.nowrap, .rule { white-space: nowrap; }
td .nested { padding-left: 18px; }
tr:target { background: color-mix(in srgb, var(--accent) 14%, var(--panel)); }
.muted { color: var(--muted); }
.method { display: inline-block; min-width: 48px; text-align: center; font: 700 12px var(--mono); padding: 3px 8px; border-radius: 6px; margin-right: 8px; \
background: var(--code-bg); }
.method.post { background: #2f5bd3; color: #fff; }
.method.get { background: #1f7a46; color: #fff; }
.endpoint { padding: 14px 18px; margin: 12px 0; }
.endpoint h3 { margin: 0 0 6px; font-size: 16px; }
.endpoint p { margin: 4px 0; }
.badge { font-size: 12px; border: 1px solid var(--line); border-radius: 999px; padding: 1px 8px; color: var(--muted); margin-left: 6px; white-space: nowrap; }
@media (max-width: 820px) { .layout { grid-template-columns: 1fr; } .toc { position: static; } }
`;

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  security?: unknown[];
}

/**
 * Stands for the origin the page is requested from, filled in per request by the route:
 * the examples then work as pasted, whatever host and port the reader used.
 */
export const ORIGIN = "__INKPRESS_ORIGIN__";

/** The reference page, from the OpenAPI document. */
export function docsPage(doc: Record<string, unknown>): Page {
  const info = doc.info as { title: string; version: string; description?: string };
  const request = requestBodySchema(doc, "GenerateRequest");
  const response = componentSchema(doc, "ArticleResponse");
  const sections: [id: string, title: string, html: string][] = [
    ["authentication", "Authentication", authentication()],
    ["endpoints", "Endpoints", endpoints(doc)],
    ["request", "Request fields", requestSection(request)],
    ["formats", "Response formats", formats(doc)],
    ["response", "Response fields", responseSection(response)],
    ["streaming", "Streaming", streaming()],
    ["jobs", "Jobs and webhooks", jobs(doc)],
    ["errors", "Errors", errors()],
  ];
  const body = `
<div class="layout">
<nav class="toc" aria-label="Contents"><ol>${sections.map(([id, title]) => `<li><a href="#${id}">${title}</a></li>`).join("")}</ol></nav>
<main>
<header>
<h1>${escapeHtml(info.title)} API reference <span class="badge">v${escapeHtml(info.version)}</span> <span class="badge">OpenAPI \
${escapeHtml(String(doc.openapi))}</span></h1>
<p class="lead">${prose(info.description ?? "")}</p>
<p class="lead">The machine-readable document is at <a href="/api/v1/openapi.json"><code>/api/v1/openapi.json</code></a>; this page is rendered from it.</p>
</header>
${sections.map(([id, title, html]) => `<section id="${id}" aria-labelledby="${id}-title"><h2 id="${id}-title">${title}</h2>${html}</section>`).join("\n")}
</main>
</div>`;
  return renderPage({
    title: `${info.title} API reference`,
    description: "Endpoints, request fields, formats, streaming and errors of the inkpress API.",
    current: "/docs",
    style: STYLE,
    body,
  });
}

function authentication(): string {
  return `<p>Every route under <code>/api/v1/</code> except <code>/api/v1/openapi.json</code> needs an API key in the
<code>x-api-key</code> header; keys in the query string are never read. <code>GET /</code>, <code>GET /docs</code>,
<code>GET /api/v1/openapi.json</code>, <code>GET /healthz</code> and <code>GET /metrics</code> are public. A missing, unknown or doubled key is a
<a href="#unauthorized">401</a>.</p>`;
}

function endpoints(doc: Record<string, unknown>): string {
  const paths = doc.paths as Record<string, Record<string, Operation>>;
  const items: string[] = [];
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const keyed = (op.security ?? [{}]).length > 0;
      items.push(`<div class="endpoint panel" id="op-${escapeHtml(op.operationId ?? `${method}-${path}`)}">
<h3><span class="method ${method}">${method.toUpperCase()}</span><code>${escapeHtml(path)}</code><span \
class="badge">${keyed ? "x-api-key" : "public"}</span></h3>
<p><strong>${prose(op.summary ?? "")}</strong>. ${prose(op.description ?? "")}</p>
</div>`);
    }
  }
  const example = `curl -N ${ORIGIN}/api/v1/generate \\
  -H 'x-api-key: YOUR-KEY' -H 'content-type: application/json' \\
  -H 'accept: text/event-stream' \\
  -d '{"topic": "Home composting for beginners", "length": 800, "seo": {"keywords": "compost bin, garden waste"}}'`;
  const analyse = `curl ${ORIGIN}/api/v1/analyse \\
  -H 'x-api-key: YOUR-KEY' -H 'content-type: application/json' \\
  -d '{"markdown": "---\\ntitle: Home composting for beginners\\n---\\n\\n# Home composting for beginners\\n\\nA compost bin turns…", "seo": {"keywords": \
"compost bin, garden waste"}}'`;
  return `${items.join("\n")}
${health(doc)}
<p><code>GET /metrics</code> is Prometheus text: requests by status, articles, tokens, analyses, queue depth, time to first token and decode rate.</p>
<h3>Example</h3>
<pre><code>${escapeHtml(example)}</code></pre>
<h3>Example: check an existing article</h3>
<p><code>POST /api/v1/analyse</code> takes <code>markdown</code> or <code>html</code> with the targets of a generate request and answers the same SEO \
report, with the title, description, slug, keywords and language it measured and where each came from (the request, the front matter, the page's head, its \
H1, or detected). No model is used; the key's rate limit applies, its daily words do not.</p>
<pre><code>${escapeHtml(analyse)}</code></pre>`;
}

/** The health answer's fields, from its schema: the ready answer (200); `{"status":"loading"}` (503) while the model loads. */
function health(doc: Record<string, unknown>): string {
  const [ready] = (componentSchema(doc, "Health").oneOf ?? []) as SchemaNode[];
  const rows = fieldsOf(ready ?? {}).map((field) => fieldRow(field, "health"));
  return `<p><code>GET /healthz</code> answers 200 with these fields once the model is loaded (or the inference server reached),
or <code>503 {"status":"loading"}</code> while it loads. The backend's fields depend on its <code>kind</code>.</p>
<div class="table-wrap"><table>
<thead><tr><th>Field</th><th>Type</th><th>Rules</th><th>Meaning</th></tr></thead>
<tbody>${rows.join("\n")}</tbody>
</table></div>`;
}

/** A row of a field table; its id (`request-field-seo-keywords`) is unique on the page, as each table names its own. */
function fieldRow(field: Field, table: "request" | "response" | "health", defaultCell?: string): string {
  const rules = rulesText(field.schema);
  const name = field.depth
    ? `<span class="nested"><code>${escapeHtml(field.path)}</code></span>`
    : `<code>${escapeHtml(field.path)}</code>`;
  return `<tr id="${table}-field-${pathId(field.path)}">
<td class="nowrap">${name}</td>
<td class="nowrap">${escapeHtml(typeText(field.schema))}</td>
${defaultCell === undefined ? "" : `<td class="nowrap">${defaultCell}</td>`}
<td>${rules.length ? rules.map((rule) => `<span class="rule">${prose(rule)}</span>`).join("; ") : '<span class="muted">—</span>'}</td>
<td>${prose(field.schema.description ?? "")}</td>
</tr>`;
}

function requestSection(schema: SchemaNode): string {
  const rows = fieldsOf(schema).map((field) => {
    const fallback = defaultText(field.schema);
    const cell = field.required
      ? "<strong>required</strong>"
      : fallback !== undefined
        ? `<code>${escapeHtml(fallback)}</code>`
        : '<span class="muted">none</span>';
    return fieldRow(field, "request", cell);
  });
  return `<p>${prose(schema.description ?? "")}</p>
<p>The body of <code>POST /api/v1/generate</code> is a JSON object (<code>content-type: application/json</code>, at most ${BODY_LIMIT / 1024} KiB).
This table is generated from the request schema in the OpenAPI document, which is converted from the server's own validation schema.</p>
<div class="table-wrap"><table>
<thead><tr><th>Field</th><th>Type</th><th>Default</th><th>Rules</th><th>Meaning</th></tr></thead>
<tbody>${rows.join("\n")}</tbody>
</table></div>`;
}

function formats(doc: Record<string, unknown>): string {
  const op = (doc.paths as Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>)[
    "/api/v1/generate"
  ]!.post!;
  const types = Object.keys(op.responses["200"]?.content ?? {});
  const rows = types.map(
    (type) =>
      `<tr><td class="nowrap"><code>${escapeHtml(type)}</code></td><td>${prose(FORMATS[type as keyof typeof FORMATS] ?? "")}</td></tr>`,
  );
  return `<p>The <code>Accept</code> header chooses the format of the same article; without one the answer is JSON. A header that names none of these is a \
<a href="#not-acceptable">406</a>.</p>
<div class="table-wrap"><table><thead><tr><th>Accept</th><th>Answer</th></tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
}

function responseSection(schema: SchemaNode): string {
  const rows = fieldsOf(schema).map((field) => fieldRow(field, "response"));
  return `<p>The <code>application/json</code> answer (and the <code>done</code> event of a stream). <code>request</code> is the request as the server \
normalised it: defaults filled in, keywords split into a list, <code>structure</code> mapped to its preset and the words asked for kept in \
<code>structureRequested</code>.</p>
<div class="table-wrap"><table>
<thead><tr><th>Field</th><th>Type</th><th>Rules</th><th>Meaning</th></tr></thead>
<tbody>${rows.join("\n")}</tbody>
</table></div>`;
}

function streaming(): string {
  const rows = STREAM_EVENTS.map(
    (e) =>
      `<tr id="event-${e.event}"><td class="nowrap"><code>${e.event}</code></td><td class="nowrap">${e.schema}</td><td>${prose(e.data)}</td></tr>`,
  );
  const wire = `event: meta
data: {"request":{…},"title":"Home composting for beginners","outline":[{"level":2,"text":"Introduction"},…]}

event: delta
data: {"text":"# Home composting for beginners"}

event: delta
data: {"text":"\\n\\nA compost bin turns kitchen scraps into…"}

: keep-alive

event: done
data: {"id":"art_…","object":"article",…}`;
  return `<p><code>Accept: text/event-stream</code> (or <code>"stream": true</code> in the body) answers with Server-Sent Events while the article is written.
Every event's data is one JSON object. Browsers' <code>EventSource</code> cannot send a POST body or headers: read the stream with <code>fetch</code> and a \
<code>ReadableStream</code>, as the <a href="/">playground</a> does.</p>
<div class="table-wrap"><table><thead><tr><th>Event</th><th>Schema</th><th>Data</th></tr></thead><tbody>${rows.join("")}</tbody></table></div>
<p>Comment lines (<code>: keep-alive</code>) every 15 s keep idle proxies from closing the stream. A client that disconnects stops its generation and frees \
its slot.</p>
<pre><code>${escapeHtml(wire)}</code></pre>`;
}

function jobs(doc: Record<string, unknown>): string {
  const webhook = (doc.webhooks as Record<string, { post: Operation & { parameters: { name: string; description: string }[] } }>).jobEnded!
    .post;
  const example = `curl -i ${ORIGIN}/api/v1/jobs \\
  -H 'x-api-key: YOUR-KEY' -H 'content-type: application/json' \\
  -H 'idempotency-key: calendar-2026-w48-row-3' \\
  -d '{"topic": "Home composting for beginners", "length": 2000, "webhook": {"url": "https://cms.example.com/hooks/inkpress"}}'
# 202, location: /api/v1/jobs/job_…  then poll, or wait for the webhook:
curl ${ORIGIN}/api/v1/jobs/job_… -H 'x-api-key: YOUR-KEY'`;
  const headers = webhook.parameters.map((p) => `<li><code>${escapeHtml(p.name)}</code>: ${prose(p.description)}</li>`).join("");
  return `<p>A long article on a CPU takes minutes, longer than most proxies wait. <code>POST /api/v1/jobs</code> takes the same body as generate (plus an \
optional
<code>webhook: {"url": …}</code>), answers <code>202</code> at once, and writes the article in the background. <code>GET /api/v1/jobs/{id}</code> shows
<code>queued</code>, <code>running</code> (with the words written so far), <code>succeeded</code> (with <code>result</code>, the generate answer),
<code>failed</code> (with <code>error</code>, a problem) or <code>cancelled</code>. A job belongs to the key that created it; to any other key it is a 404.
Jobs survive a restart; finished ones are purged after the server's retention (default 7 days, <code>expiresAt</code>).</p>
<p><code>Idempotency-Key</code> works on <code>POST /api/v1/jobs</code> and <code>POST /api/v1/generate</code>: the same key with the same body gives the \
same job or answer (<code>Idempotent-Replayed: true</code>), with another body a <a href="#invalid-request">422</a>.</p>
<p><strong>Webhooks.</strong> ${prose(webhook.description ?? "")}</p>
<ul>${headers}</ul>
<pre><code>${escapeHtml(example)}</code></pre>`;
}

function errors(): string {
  const statuses = Object.keys(PROBLEM_TYPES).map(Number) as (keyof typeof PROBLEM_TYPES)[];
  const rows = statuses.map((status) => {
    const type = PROBLEM_TYPES[status];
    return (
      `<tr id="${type}"><td class="nowrap"><strong>${status}</strong> ${escapeHtml(STATUS_CODES[status] ?? "")}</td><td ` +
      `class="nowrap"><code>/docs#${type}</code></td><td>${prose(PROBLEM_NOTES[status])}</td></tr>`
    );
  });
  const example = JSON.stringify(
    {
      type: "/docs#invalid-request",
      title: "Unprocessable Entity",
      status: 422,
      detail: "The request has 2 invalid fields: length, language.",
      instance: "/api/v1/generate",
      errors: [
        { path: "length", message: "length must be a number" },
        { path: "language", message: "language must be an ISO 639-1 code such as en, de or ja" },
      ],
    },
    null,
    2,
  );
  return `<p>Every error is <code>application/problem+json</code> (RFC 9457): <code>type</code>, <code>title</code>, <code>status</code>,
<code>detail</code> and <code>instance</code>, never a stack trace. The <code>type</code> links to its row below. A 422 adds
<code>errors</code>, one <code>{ path, message }</code> per invalid field.</p>
<div class="table-wrap"><table><thead><tr><th>Status</th><th>type</th><th>When</th></tr></thead><tbody>${rows.join("\n")}</tbody></table></div>
<h3>Example</h3>
<pre><code>${escapeHtml(example)}</code></pre>`;
}
