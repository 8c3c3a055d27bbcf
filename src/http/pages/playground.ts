/**
 * `GET /`: the playground. One self-contained page (inline CSS and JS, nothing fetched but
 * the API itself): a person enters a key and the request, presses Generate, and watches
 * the article stream in, rendered, then sees its SEO report.
 *
 * The form's limits (lengths, ranges, defaults) are read from the OpenAPI request schema,
 * like the reference table. The stream is read with fetch and a ReadableStream
 * (EventSource cannot POST nor send headers), and the growing Markdown is rendered by a
 * tiny renderer for the subset the engine writes (headings, paragraphs, lists, escapes)
 * that builds DOM nodes with `textContent` only: model text never becomes markup.
 */
import { LABELLED_LANGUAGES, languageName } from "../../engine/labels.js";
import { componentSchema, fieldAt, type SchemaNode } from "./fields.js";
import { escapeHtml, renderPage, type Page } from "./html.js";

const STYLE = `
.wrap { display: grid; grid-template-columns: minmax(320px, 400px) minmax(0, 1fr); gap: 24px; max-width: 1320px; margin: 0 auto; padding: 24px; align-items: start; }
.intro { grid-column: 1 / -1; display: flex; align-items: baseline; gap: 14px; flex-wrap: wrap; }
.intro h1 { margin: 0; font-size: 24px; letter-spacing: -0.02em; }
.intro p { margin: 0; color: var(--muted); }
form.panel { padding: 18px; position: sticky; top: 16px; }
fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
legend { font-size: 12px; font-weight: 700; text-transform: uppercase; letter-spacing: 0.06em; color: var(--muted); padding: 0; margin: 14px 0 8px; }
fieldset:first-of-type legend { margin-top: 0; }
.field { display: flex; flex-direction: column; gap: 4px; margin-bottom: 10px; min-width: 0; }
.field > span { font-size: 13px; font-weight: 600; }
.field small { color: var(--muted); font-size: 12px; }
.row { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; }
input[type=text], input[type=password], input[type=number], textarea {
  width: 100%; font: inherit; font-size: 14px; color: var(--text); background: var(--bg);
  border: 1px solid var(--line); border-radius: 8px; padding: 7px 10px;
}
textarea { resize: vertical; min-height: 54px; }
input:focus, textarea:focus, button:focus-visible, summary:focus-visible { outline: 2px solid var(--accent); outline-offset: 1px; }
[aria-invalid=true] { border-color: var(--bad) !important; background: var(--bad-bg) !important; }
.check { display: flex; align-items: center; gap: 8px; font-size: 14px; margin: 4px 0 10px; }
.check input { width: 16px; height: 16px; accent-color: var(--accent); }
.actions { display: flex; gap: 10px; margin-top: 14px; }
button { font: inherit; font-weight: 600; font-size: 14px; border-radius: 8px; padding: 9px 16px; cursor: pointer; border: 1px solid var(--line); background: var(--panel); color: var(--text); }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-text); flex: 1; }
button:disabled { opacity: 0.55; cursor: default; }
.out { display: flex; flex-direction: column; gap: 16px; min-width: 0; }
.status { display: flex; align-items: center; gap: 10px; min-height: 24px; color: var(--muted); font-size: 14px; }
.status .spinner { width: 14px; height: 14px; border-radius: 50%; border: 2px solid var(--line); border-top-color: var(--accent); animation: spin 0.8s linear infinite; display: none; }
.busy .status .spinner { display: inline-block; }
@keyframes spin { to { transform: rotate(360deg); } }
.error { border: 1px solid var(--bad); background: var(--bad-bg); color: var(--text); border-radius: var(--radius); padding: 12px 16px; }
.error h2 { margin: 0 0 4px; font-size: 16px; color: var(--bad); }
.error p { margin: 4px 0; }
.error ul { margin: 6px 0 0; padding-left: 20px; }
.article { padding: 28px 36px; min-height: 220px; }
.article .placeholder { color: var(--muted); margin: 60px 0; text-align: center; }
.article h1 { font-size: 28px; line-height: 1.25; margin: 0 0 16px; letter-spacing: -0.02em; }
.article h2 { font-size: 21px; margin: 28px 0 10px; letter-spacing: -0.01em; }
.article h3 { font-size: 17px; margin: 20px 0 8px; }
.article h4, .article h5, .article h6 { font-size: 15px; margin: 16px 0 6px; }
.article p, .article li { font-size: 16px; line-height: 1.7; max-width: 72ch; }
.article p { margin: 0 0 14px; }
.article ul, .article ol { margin: 0 0 14px; padding-left: 24px; }
.busy .article > :last-child::after { content: "▍"; color: var(--accent); animation: blink 1s steps(2) infinite; margin-left: 2px; }
@keyframes blink { 50% { opacity: 0; } }
.report { padding: 18px 22px; }
.report h2 { font-size: 16px; margin: 0 0 12px; }
.score { display: flex; align-items: center; gap: 16px; margin-bottom: 14px; }
.score strong { font-size: 34px; line-height: 1; letter-spacing: -0.02em; }
.score .bar { flex: 1; height: 10px; border-radius: 999px; background: var(--na-bg); overflow: hidden; }
.score .bar span { display: block; height: 100%; width: 0; background: var(--ok); border-radius: 999px; transition: width 0.4s; }
.score.mid .bar span { background: #c98a0b; }
.score.low .bar span { background: var(--bad); }
.stats { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 10px; margin: 0 0 16px; }
.stats div { background: var(--bg); border: 1px solid var(--line); border-radius: 8px; padding: 8px 10px; min-width: 0; }
.stats dt { font-size: 12px; color: var(--muted); }
.stats dd { margin: 2px 0 0; font-weight: 600; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.stats .wide { grid-column: 1 / -1; }
.stats .wide dd { font-weight: 400; white-space: normal; overflow-wrap: anywhere; }
.summary { font-size: 13px; color: var(--muted); margin: 0 0 8px; }
.checks { list-style: none; margin: 0; padding: 0; display: grid; gap: 6px; grid-template-columns: repeat(auto-fill, minmax(290px, 1fr)); }
.checks li { display: grid; grid-template-columns: 26px minmax(0, 1fr); gap: 8px; align-items: start; padding: 8px 10px; border-radius: 8px; background: var(--bg); border: 1px solid var(--line); }
.checks .icon { width: 22px; height: 22px; border-radius: 50%; display: grid; place-items: center; font-weight: 700; font-size: 13px; }
.checks .pass .icon { background: var(--ok-bg); color: var(--ok); }
.checks .fail .icon { background: var(--bad-bg); color: var(--bad); }
.checks .na .icon { background: var(--na-bg); color: var(--na); }
.checks .name { font-weight: 600; font-size: 14px; }
.checks .state { font-size: 12px; font-weight: 600; margin-left: 6px; }
.checks .pass .state { color: var(--ok); }
.checks .fail .state { color: var(--bad); }
.checks .na .state { color: var(--na); }
.checks .msg { font-size: 13px; color: var(--muted); overflow-wrap: anywhere; }
details.source { padding: 10px 16px; }
details.source summary { cursor: pointer; font-weight: 600; font-size: 14px; }
details.source pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 420px; margin: 10px 0 4px; }
.toolbar { display: flex; gap: 8px; margin-top: 8px; }
.toolbar button { padding: 5px 12px; font-size: 13px; }
[hidden] { display: none !important; }
@media (max-width: 560px) { .stats { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
@media (max-width: 900px) { .wrap { grid-template-columns: 1fr; } form.panel { position: static; } .article { padding: 20px; } }
`;

/** The attributes of an input, from its schema: limits, default as placeholder or value. */
function limits(schema: SchemaNode): string {
  const attrs: string[] = [];
  if (schema.maxLength !== undefined) attrs.push(`maxlength="${schema.maxLength}"`);
  if (schema.minimum !== undefined) attrs.push(`min="${schema.minimum}"`);
  if (schema.maximum !== undefined) attrs.push(`max="${schema.maximum}"`);
  if (schema.type === "integer") attrs.push('step="1"');
  return attrs.join(" ");
}

const placeholder = (schema: SchemaNode, fallback = "") =>
  escapeHtml(schema.default !== undefined && schema.default !== "" ? String(schema.default) : fallback);

/** The playground page, its form limits from the OpenAPI request schema. */
export function playgroundPage(doc: Record<string, unknown>): Page {
  const request = componentSchema(doc, "GenerateRequest");
  const normalised = componentSchema(doc, "NormalisedRequest");
  const f = (path: string) => fieldAt(request, path);
  const presets = (fieldAt(normalised, "structure").enum ?? []).map(String);
  const languages = [...LABELLED_LANGUAGES].sort();
  const lengthDefault = f("length").default;
  const headingDefault = f("seo.headingTags").default !== false;

  const body = `
<div class="wrap" id="app">
<div class="intro">
<h1>Playground</h1>
<p>Write an article with the model on this server and watch it arrive. The reference is at <a href="/docs">/docs</a>.</p>
</div>
<form class="panel" id="form" novalidate autocomplete="off">
<fieldset>
<legend>Access</legend>
<label class="field"><span>API key</span>
<input type="password" id="f-key" name="key" required autocomplete="off" spellcheck="false" placeholder="x-api-key">
<small>Sent only in the <code>x-api-key</code> header; kept in this tab only.</small></label>
</fieldset>
<fieldset>
<legend>Article</legend>
<label class="field"><span>Topic</span>
<textarea id="f-topic" name="topic" rows="2" required ${limits(f("topic"))} placeholder="Home composting for beginners"></textarea></label>
<div class="row">
<label class="field"><span>Length (words)</span>
<input type="number" id="f-length" name="length" ${limits(f("length"))} value="${escapeHtml(String(lengthDefault ?? ""))}"></label>
<label class="field"><span>Language</span>
<input type="text" id="f-language" name="language" list="languages" ${limits(f("language"))} placeholder="${placeholder(f("language"))}" spellcheck="false"></label>
</div>
<div class="row">
<label class="field"><span>Tone</span>
<input type="text" id="f-tone" name="tone" ${limits(f("tone"))} placeholder="${placeholder(f("tone"))}"></label>
<label class="field"><span>Structure</span>
<input type="text" id="f-structure" name="structure" list="structures" ${limits(f("structure"))} placeholder="${placeholder(f("structure"))}"></label>
</div>
<label class="field"><span>Seed <small>(optional)</small></span>
<input type="number" id="f-seed" name="seed" ${limits(f("seed"))} placeholder="random">
<small>The same seed gives the same article on the same model.</small></label>
</fieldset>
<fieldset>
<legend>SEO</legend>
<label class="field"><span>Keywords</span>
<input type="text" id="f-seo.keywords" name="seo.keywords" ${limits(f("seo.keywords"))} placeholder="compost bin, garden waste">
<small>Comma-separated; the first is the primary keyword.</small></label>
<label class="field"><span>Title <small>(optional, used verbatim)</small></span>
<input type="text" id="f-seo.title" name="seo.title" ${limits(f("seo.title"))} placeholder="generated"></label>
<label class="field"><span>Meta description <small>(optional, used verbatim)</small></span>
<textarea id="f-seo.description" name="seo.description" rows="2" ${limits(f("seo.description"))} placeholder="generated"></textarea></label>
<label class="check"><input type="checkbox" id="f-seo.headingTags" name="seo.headingTags"${headingDefault ? " checked" : ""}> Heading tags (H1, H2, H3)</label>
</fieldset>
<div class="actions">
<button type="submit" class="primary" id="generate">Generate</button>
<button type="button" id="stop" disabled>Stop</button>
</div>
<datalist id="structures">${presets.map((p) => `<option value="${escapeHtml(p)}"></option>`).join("")}</datalist>
<datalist id="languages">${languages.map((code) => `<option value="${escapeHtml(code)}">${escapeHtml(languageName(code) ?? code)}</option>`).join("")}</datalist>
</form>
<div class="out" id="out">
<div class="status" role="status" aria-live="polite"><span class="spinner" aria-hidden="true"></span><span id="status">Enter a key and a topic, then press Generate.</span></div>
<div class="error" id="error" role="alert" hidden></div>
<article class="article panel" id="article" aria-live="off" aria-busy="false"><p class="placeholder">The article appears here as it is written.</p></article>
<section class="report panel" id="report" aria-labelledby="report-title" hidden>
<h2 id="report-title">SEO report</h2>
<div class="score" id="score"><strong id="score-value">–</strong><div class="bar" aria-hidden="true"><span id="score-bar"></span></div><span class="muted">of 100</span></div>
<dl class="stats" id="stats"></dl>
<p class="summary" id="checks-summary"></p>
<ul class="checks" id="checks" aria-label="SEO checks"></ul>
</section>
<details class="source panel" id="source" hidden>
<summary>Markdown</summary>
<pre id="markdown"></pre>
<div class="toolbar"><button type="button" id="copy">Copy Markdown</button></div>
</details>
</div>
</div>`;
  return renderPage({
    title: "inkpress playground",
    description: "Write an SEO article with the local model and watch it stream in.",
    current: "/",
    style: STYLE,
    body,
    script: CLIENT,
  });
}

/**
 * The page's script: plain ES2022, no modules, no libraries. No backticks nor
 * dollar-brace sequences inside (it lives in a template literal).
 */
const CLIENT = String.raw`
(function () {
  "use strict";
  var $ = function (id) { return document.getElementById(id); };
  var form = $("form"), app = $("app"), statusText = $("status"), errorBox = $("error");
  var articleEl = $("article"), report = $("report"), source = $("source");
  var generateBtn = $("generate"), stopBtn = $("stop"), keyInput = $("f-key");
  var controller = null, markdown = "", renderQueued = false;

  try { keyInput.value = sessionStorage.getItem("inkpress.key") || ""; } catch (e) { /* storage off */ }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  // --- Markdown subset → DOM, text only -------------------------------------------------
  var ENTITIES = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: "\u00a0" };
  var INLINE = /\\([!-\/:-@\[-\x60{-~])|&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});/g;

  /** Backslash escapes and character references of CommonMark, undone: the result is plain text. */
  function inline(text) {
    return text.replace(INLINE, function (match, escaped, ref) {
      if (escaped) return escaped;
      if (ref.charAt(0) === "#") {
        var code = ref.charAt(1) === "x" || ref.charAt(1) === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff) ? String.fromCodePoint(code) : "\ufffd";
      }
      return Object.prototype.hasOwnProperty.call(ENTITIES, ref) ? ENTITIES[ref] : match;
    });
  }

  var HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
  var ITEM = /^ {0,3}([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;

  /** Render Markdown (headings, paragraphs, lists) into a fragment of text-only nodes. */
  function renderMarkdown(md) {
    var fragment = document.createDocumentFragment();
    var block = null, list = null, ordered = false, gap = false;
    md.split(/\r\n|\r|\n/).forEach(function (line) {
      if (!line.trim()) { block = null; gap = true; return; }
      var heading = HEADING.exec(line);
      if (heading) {
        fragment.appendChild(el("h" + heading[1].length, null, inline(heading[2] || "")));
        block = null; list = null; gap = false;
        return;
      }
      var item = ITEM.exec(line);
      if (item) {
        var isOrdered = /\d/.test(item[1]);
        if (!list || ordered !== isOrdered) {
          list = el(isOrdered ? "ol" : "ul");
          ordered = isOrdered;
          fragment.appendChild(list);
        }
        block = el("li", null, inline(item[2]));
        list.appendChild(block);
        gap = false;
        return;
      }
      var text = inline(line.trim());
      if (block && !gap) { block.textContent += " " + text; return; }
      block = el("p", null, text);
      fragment.appendChild(block);
      list = null; gap = false;
    });
    return fragment;
  }

  function showArticle(md) {
    articleEl.replaceChildren(md.trim() ? renderMarkdown(md) : el("p", "placeholder", "Waiting for the first words…"));
  }

  function queueRender() {
    if (renderQueued) return;
    renderQueued = true;
    requestAnimationFrame(function () { renderQueued = false; showArticle(markdown); });
  }

  var segmenter = typeof Intl !== "undefined" && Intl.Segmenter ? new Intl.Segmenter(undefined, { granularity: "word" }) : null;
  function countWords(text) {
    if (!segmenter) return text.split(/\s+/).filter(Boolean).length;
    var n = 0;
    for (var part of segmenter.segment(text)) if (part.isWordLike) n++;
    return n;
  }

  // --- Server-Sent Events over fetch ------------------------------------------------------
  /** Read an event stream, calling onEvent(name, data) per event, as the WHATWG parser does. */
  async function readEvents(body, onEvent) {
    var reader = body.getReader(), decoder = new TextDecoder(), buffer = "", name = "", data = [];
    for (;;) {
      var chunk = await reader.read();
      buffer += chunk.done ? decoder.decode() : decoder.decode(chunk.value, { stream: true });
      for (;;) {
        var end = /\r\n|\r|\n/.exec(buffer);
        if (!end || (end[0] === "\r" && end.index === buffer.length - 1 && !chunk.done)) break;
        var line = buffer.slice(0, end.index);
        buffer = buffer.slice(end.index + end[0].length);
        if (line === "") {
          if (data.length) onEvent(name || "message", data.join("\n"));
          name = ""; data = [];
        } else if (line.charAt(0) !== ":") {
          var colon = line.indexOf(":");
          var field = colon < 0 ? line : line.slice(0, colon);
          var value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (field === "event") name = value;
          else if (field === "data") data.push(value);
        }
      }
      if (chunk.done) return;
    }
  }

  // --- the request -------------------------------------------------------------------------
  function value(id) { return $(id).value.trim(); }

  function buildBody() {
    var body = { topic: value("f-topic") };
    var numbers = { length: "f-length", seed: "f-seed" };
    Object.keys(numbers).forEach(function (name) {
      var raw = value(numbers[name]);
      if (raw !== "") body[name] = Number(raw);
    });
    ["tone", "language", "structure"].forEach(function (name) {
      var raw = value("f-" + name);
      if (raw !== "") body[name] = raw;
    });
    var seo = { headingTags: $("f-seo.headingTags").checked };
    ["keywords", "title", "description"].forEach(function (name) {
      var raw = value("f-seo." + name);
      if (raw !== "") seo[name] = raw;
    });
    body.seo = seo;
    return body;
  }

  // --- output ------------------------------------------------------------------------------
  function setStatus(text) { statusText.textContent = text; }

  function setBusy(busy) {
    app.classList.toggle("busy", busy);
    articleEl.setAttribute("aria-busy", String(busy));
    generateBtn.disabled = busy;
    stopBtn.disabled = !busy;
    generateBtn.textContent = busy ? "Generating…" : "Generate";
  }

  function clearInvalid() {
    form.querySelectorAll("[aria-invalid]").forEach(function (input) { input.removeAttribute("aria-invalid"); });
  }

  /** Show an error: a heading, a sentence, and optionally a list and a link to its reference entry. */
  function showError(title, detail, items, href) {
    errorBox.replaceChildren(el("h2", null, title));
    if (detail) errorBox.appendChild(el("p", null, detail));
    if (items && items.length) {
      var ul = el("ul");
      items.forEach(function (text) { ul.appendChild(el("li", null, text)); });
      errorBox.appendChild(ul);
    }
    if (href) {
      var p = el("p"), a = el("a", null, "What this error means");
      a.href = href;
      p.appendChild(a);
      errorBox.appendChild(p);
    }
    errorBox.hidden = false;
  }

  /** A problem+json body, readable: status and title, detail, the invalid fields. */
  function showProblem(problem, retryAfter) {
    var status = Number(problem && problem.status) || 0;
    var title = (status ? status + " " : "") + ((problem && problem.title) || "Error");
    var detail = (problem && problem.detail) || "";
    if (retryAfter) detail += " Retry in " + retryAfter + " s.";
    var items = [];
    if (problem && Array.isArray(problem.errors)) {
      problem.errors.forEach(function (error) {
        items.push(String(error.path) + ": " + String(error.message));
        var input = document.getElementById("f-" + String(error.path));
        if (input && input.form === form) input.setAttribute("aria-invalid", "true");
      });
    }
    if (status === 401) keyInput.setAttribute("aria-invalid", "true");
    var type = problem && typeof problem.type === "string" && /^\/docs#[a-z-]+$/.test(problem.type) ? problem.type : null;
    showError(title, detail, items, type);
    setStatus(status === 401 ? "Check the API key." : "The request failed.");
  }

  async function showHttpError(response) {
    var type = response.headers.get("content-type") || "";
    var text = await response.text();
    if (/json/.test(type)) {
      try { return showProblem(JSON.parse(text), response.headers.get("retry-after")); } catch (e) { /* not JSON after all */ }
    }
    showProblem({ status: response.status, title: response.statusText || "Error", detail: text.slice(0, 300) });
  }

  var CHECK_STATES = { pass: ["✓", "passed"], fail: ["✗", "failed"], na: ["–", "not applicable"] };

  function humanise(id) {
    var words = String(id).replace(/-/g, " ");
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  function stat(dl, label, text, wide) {
    var box = el("div", wide ? "wide" : null);
    box.appendChild(el("dt", null, label));
    box.appendChild(el("dd", null, text));
    dl.appendChild(box);
  }

  function showReport(answer) {
    var article = answer.article, seo = answer.seo, request = answer.request || {};
    var score = Number(seo.score) || 0;
    $("score-value").textContent = String(score);
    $("score-bar").style.width = Math.max(0, Math.min(100, score)) + "%";
    $("score").className = "score " + (score >= 80 ? "high" : score >= 50 ? "mid" : "low");

    var stats = $("stats");
    stats.replaceChildren();
    stat(stats, "Words", article.wordCount + (request.length ? " of " + request.length : ""));
    stat(stats, "Reading time", article.readingTimeMinutes + " min");
    stat(stats, "Language", article.language);
    stat(stats, "Structure", request.structure || "");
    stat(stats, "Seed", request.seed === undefined ? "" : String(request.seed));
    stat(stats, "Time", answer.usage ? (answer.usage.durationMs / 1000).toFixed(1) + " s" : "");
    stat(stats, "Title", article.title, true);
    stat(stats, "Slug", article.slug, true);
    stat(stats, "Meta description", article.metaDescription, true);
    var density = Object.keys(seo.keywordDensity || {}).map(function (k) { return k + " " + seo.keywordDensity[k] + "%"; });
    if (density.length) stat(stats, "Keyword density", density.join(" · "), true);

    var list = $("checks"), counts = { pass: 0, fail: 0, na: 0 };
    list.replaceChildren();
    (seo.checks || []).forEach(function (check) {
      var kind = check.passed === true ? "pass" : check.passed === false ? "fail" : "na";
      counts[kind]++;
      var li = el("li", kind);
      li.dataset.check = String(check.id);
      li.appendChild(el("span", "icon", CHECK_STATES[kind][0]));
      var text = el("div");
      var name = el("div", "name", humanise(check.id));
      name.appendChild(el("span", "state", CHECK_STATES[kind][1]));
      text.appendChild(name);
      text.appendChild(el("div", "msg", check.message));
      li.appendChild(text);
      li.setAttribute("aria-label", humanise(check.id) + ": " + CHECK_STATES[kind][1] + ". " + check.message);
      list.appendChild(li);
    });
    $("checks-summary").textContent = counts.pass + " passed · " + counts.fail + " failed · " + counts.na + " not applicable";
    report.hidden = false;
  }

  function reset() {
    markdown = "";
    errorBox.hidden = true;
    errorBox.replaceChildren();
    report.hidden = true;
    source.hidden = true;
    clearInvalid();
    articleEl.replaceChildren(el("p", "placeholder", "Waiting for a free slot and the first words…"));
  }

  form.addEventListener("submit", async function (event) {
    event.preventDefault();
    if (controller) return;
    reset();
    var key = keyInput.value.trim();
    var missing = [];
    if (!key) { missing.push("API key"); keyInput.setAttribute("aria-invalid", "true"); }
    if (!value("f-topic")) { missing.push("topic"); $("f-topic").setAttribute("aria-invalid", "true"); }
    if (missing.length) {
      showError("Missing " + missing.join(" and "), "Fill in the highlighted fields, then press Generate again.");
      articleEl.replaceChildren(el("p", "placeholder", "The article appears here as it is written."));
      return;
    }
    try { sessionStorage.setItem("inkpress.key", key); } catch (e) { /* storage off */ }

    controller = new AbortController();
    setBusy(true);
    setStatus("Sending the request…");
    var started = performance.now(), finished = false;
    try {
      var response = await fetch("/api/v1/generate", {
        method: "POST",
        headers: { "content-type": "application/json", accept: "text/event-stream", "x-api-key": key },
        body: JSON.stringify(buildBody()),
        signal: controller.signal,
      });
      if (!response.ok || !/^text\/event-stream/.test(response.headers.get("content-type") || "")) {
        articleEl.replaceChildren(el("p", "placeholder", "No article: the request was refused."));
        await showHttpError(response);
        return;
      }
      setStatus("Waiting for a free slot and the first words…");
      await readEvents(response.body, function (name, data) {
        var payload;
        try { payload = JSON.parse(data); } catch (e) { return; }
        if (name === "meta") {
          setStatus("Writing “" + payload.title + "”…");
        } else if (name === "delta") {
          markdown += payload.text;
          queueRender();
          setStatus("Writing… " + countWords(markdown) + " words so far");
        } else if (name === "done") {
          finished = true;
          markdown = payload.article.markdown;
          showArticle(markdown);
          showReport(payload);
          $("markdown").textContent = markdown;
          source.hidden = false;
          setStatus("Done: " + payload.article.wordCount + " words in " + ((performance.now() - started) / 1000).toFixed(1) + " s.");
        } else if (name === "error") {
          finished = true;
          showArticle(markdown);
          showProblem(payload);
          setStatus("Generation stopped with an error.");
        }
      });
      if (!finished) showError("The stream ended early", "The server closed the connection before the article was finished.");
    } catch (error) {
      if (error && error.name === "AbortError") {
        setStatus("Stopped. Nothing more will be generated for this request.");
      } else {
        showError("Could not reach the server", String((error && error.message) || error));
        setStatus("The request failed.");
      }
    } finally {
      controller = null;
      setBusy(false);
    }
  });

  stopBtn.addEventListener("click", function () { if (controller) controller.abort(); });

  $("copy").addEventListener("click", function () {
    var button = this;
    if (!navigator.clipboard) return;
    navigator.clipboard.writeText(markdown).then(function () {
      button.textContent = "Copied";
      setTimeout(function () { button.textContent = "Copy Markdown"; }, 1500);
    }, function () {});
  });

  form.addEventListener("input", function (event) {
    if (event.target && event.target.removeAttribute) event.target.removeAttribute("aria-invalid");
  });
})();
`;
