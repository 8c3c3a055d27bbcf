/**
 * `GET /`: the playground. One self-contained page (inline CSS and JS, nothing fetched but
 * the API itself): a person enters a key and the request, presses Generate (or Outline first,
 * edits the planned headings and presses Write: playground-outline.ts), and watches
 * the article stream in, rendered, then sees its SEO report: beside the article on wide
 * screens, in view while the article scrolls; below it on narrow ones, with a summary
 * above it and the form folded away once an article streams. A second tab, Check an article
 * (playground-check.ts), measures a pasted article with the same report; the key above the
 * tabs serves both.
 *
 * The form's limits (lengths, ranges, defaults) are read from the OpenAPI request schema,
 * like the reference table. The page's script is client/playground.ts, served at
 * `/assets/playground.js`; it reads the request from the form's named controls.
 */
import { LABELLED_LANGUAGES, languageName } from "../../contract/languages.js";
import { componentSchema, fieldAt, inputLimits, requestBodySchema, schemaPlaceholder, type SchemaNode } from "./fields.js";
import { escapeHtml, renderPage, type Page } from "./html.js";
import { CHECK_STYLE, checkPanel } from "./playground-check.js";
import { OUTLINE_SECTION, OUTLINE_STYLE } from "./playground-outline.js";
import { REPORT_STYLE, reportSection } from "./playground-report.js";
import { VOICE_PANEL, VOICE_STYLE } from "./playground-voice.js";

const VIEW_STYLE = `
.wrap { display: flex; flex-direction: column; gap: 18px; max-width: 1600px; margin: 0 auto; padding: 24px; }
/* The heading, and the key both tabs send (before the tabs, so the tabs lead straight to their panel). */
.intro { display: flex; align-items: flex-end; justify-content: space-between; gap: 10px 24px; flex-wrap: wrap; }
.lede { display: flex; align-items: baseline; gap: 14px; flex-wrap: wrap; }
.lede h1 { margin: 0; font-size: 24px; letter-spacing: -0.02em; }
.lede p { margin: 0; color: var(--muted); }
.tabs { display: flex; gap: 4px; border-bottom: 1px solid var(--line); }
.tabs [role=tab] { border: 1px solid transparent; border-bottom: 0; border-radius: 8px 8px 0 0; background: none; color: var(--muted); padding: 9px 16px; \
margin-bottom: -1px; }
.tabs [role=tab]:hover { color: var(--text); }
.tabs [role=tab][aria-selected=true] { background: var(--panel); border-color: var(--line); color: var(--text); box-shadow: inset 0 3px 0 var(--accent); }
.keyfield { display: grid; grid-template-columns: auto minmax(160px, 260px); align-items: center; gap: 2px 10px; }
.keyfield > span { font-size: 13px; font-weight: 600; }
.keyfield small { grid-column: 1 / -1; color: var(--muted); font-size: 12px; }
.view { display: grid; gap: 24px; align-items: start; }
.view.generate-view { grid-template-columns: minmax(320px, 380px) minmax(0, 1fr); }
.view.generate-view .report { grid-column: 2; }
form.panel { padding: 18px; position: sticky; top: 16px; display: flex; flex-direction: column; max-height: calc(100vh - 32px); }
/* The fields scroll inside the form, so the Generate button and its error stay in view at any height. */
.fields { overflow-y: auto; min-height: 0; flex: 0 1 auto; margin: -4px; padding: 4px; }
.folded-bar { display: none; align-items: center; gap: 10px; margin-bottom: 12px; }
.folded-bar span { flex: 1; min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; font-weight: 600; }
.folded-bar button { padding: 5px 12px; font-size: 13px; }
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
.actions { display: flex; gap: 10px; margin-top: 14px; flex: none; }
button { font: inherit; font-weight: 600; font-size: 14px; border-radius: 8px; padding: 9px 16px; cursor: pointer; border: 1px solid var(--line); \
background: var(--panel); color: var(--text); }
button.primary { background: var(--accent); border-color: var(--accent); color: var(--accent-text); flex: 1; }
button:disabled { opacity: 0.55; cursor: default; }
.out { display: flex; flex-direction: column; gap: 16px; min-width: 0; }
.status { display: flex; align-items: center; gap: 10px; min-height: 24px; color: var(--muted); font-size: 14px; }
.status .spinner { width: 14px; height: 14px; border-radius: 50%; border: 2px solid var(--line); border-top-color: var(--accent); animation: spin 0.8s \
linear infinite; display: none; }
.busy .status .spinner { display: inline-block; }
@keyframes spin { to { transform: rotate(360deg); } }
.error { border: 1px solid var(--bad); background: var(--bad-bg); color: var(--text); border-radius: var(--radius); padding: 12px 16px; margin-top: 12px; \
flex: none; max-height: 40vh; overflow-y: auto; scroll-margin: 8px; }
.error:focus { outline: 2px solid var(--bad); outline-offset: 2px; }
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
.article > * { overflow-wrap: anywhere; }
.article p { margin: 0 0 14px; }
.article ul, .article ol { margin: 0 0 14px; padding-left: 24px; }
.busy .article > :last-child::after { content: "▍"; color: var(--accent); animation: blink 1s steps(2) infinite; margin-left: 2px; }
@keyframes blink { 50% { opacity: 0; } }
.summary-bar { display: flex; align-items: baseline; gap: 6px 14px; flex-wrap: wrap; margin: 0; padding: 10px 16px; font-size: 14px; }
.summary-bar strong { font-size: 20px; }
details.source { padding: 10px 16px; }
details.source summary { cursor: pointer; font-weight: 600; font-size: 14px; }
details.source pre { white-space: pre-wrap; overflow-wrap: anywhere; max-height: 420px; margin: 10px 0 4px; }
.toolbar { display: flex; gap: 8px; flex-wrap: wrap; }
.toolbar button { padding: 5px 12px; font-size: 13px; }
.publish-result { margin: 0; font-size: 14px; overflow-wrap: anywhere; }
[hidden] { display: none !important; }
/* Wide: the report beside the article, in view while the article scrolls; the summary bar is redundant there. */
@media (min-width: 1100px) {
  .view.generate-view { grid-template-columns: minmax(280px, 340px) minmax(0, 1fr) minmax(280px, 340px); }
  .view.generate-view .report { grid-column: 3; grid-row: 1; position: sticky; top: 16px; max-height: calc(100vh - 32px); overflow-y: auto; }
  .report .checks { grid-template-columns: 1fr; }
  .report .stats { grid-template-columns: repeat(2, minmax(0, 1fr)); }
  .summary-bar { display: none !important; }
}
/* Narrow: one column; once an article streams the form folds to one line, so the article is near the top. */
@media (max-width: 899px) {
  .wrap { padding: 16px; gap: 14px; }
  .view { gap: 16px; }
  .view.generate-view { grid-template-columns: minmax(0, 1fr); }
  .view.generate-view .report { grid-column: 1; }
  .keyfield { grid-template-columns: auto minmax(0, 1fr); flex: 1; }
  form.panel { position: static; max-height: none; }
  .fields { overflow: visible; }
  form.folded .fields { display: none; }
  form.folded .folded-bar { display: flex; }
  form.folded .actions { margin-top: 0; }
  .article { padding: 20px; }
}
`;

/** A field of the request schema by its dotted path. */
type FieldOf = (path: string) => SchemaNode;

/**
 * The form's fieldsets. Each control's `name` is its dotted path in the request body (a 422
 * marks the control of each invalid field by it) and its id `f-` and the path with hyphens
 * for dots (`f-seo-keywords`): a new request field is a new control here, which the page's
 * script sends without a change of its own.
 */
function fieldsets(field: FieldOf, presets: string[]): string {
  const lengthDefault = field("length").default;
  const headingDefault = field("seo.headingTags").default !== false;
  return `<fieldset>
<legend>Article</legend>
<label class="field"><span>Topic</span>
<textarea id="f-topic" name="topic" rows="2" required ${inputLimits(field("topic"))} placeholder="Home composting for beginners"></textarea></label>
<div class="row">
<label class="field"><span>Length (words)</span>
<input type="number" id="f-length" name="length" ${inputLimits(field("length"))} value="${escapeHtml(String(lengthDefault ?? ""))}"></label>
<label class="field"><span>Language</span>
<input type="text" id="f-language" name="language" list="languages" ${inputLimits(field("language"))} placeholder="${schemaPlaceholder(field("language"))}" \
spellcheck="false"></label>
</div>
<div class="row">
<label class="field"><span>Tone</span>
<input type="text" id="f-tone" name="tone" ${inputLimits(field("tone"))} placeholder="${schemaPlaceholder(field("tone"))}"></label>
<label class="field"><span>Structure</span>
<input type="text" id="f-structure" name="structure" list="structures" \
${inputLimits(field("structure"))} placeholder="${schemaPlaceholder(field("structure"))}"></label>
</div>
<label class="field"><span>Seed <small>(optional)</small></span>
<input type="number" id="f-seed" name="seed" ${inputLimits(field("seed"))} placeholder="random">
<small>The same seed gives the same article on the same model.</small></label>
</fieldset>
<fieldset>
<legend>SEO</legend>
<label class="field"><span>Keywords</span>
<input type="text" id="f-seo-keywords" name="seo.keywords" ${inputLimits(field("seo.keywords"))} placeholder="compost bin, garden waste">
<small>Comma-separated; the first is the primary keyword.</small></label>
<label class="field"><span>Title <small>(optional, used verbatim)</small></span>
<input type="text" id="f-seo-title" name="seo.title" ${inputLimits(field("seo.title"))} placeholder="generated"></label>
<label class="field"><span>Meta description <small>(optional, used verbatim)</small></span>
<textarea id="f-seo-description" name="seo.description" rows="2" ${inputLimits(field("seo.description"))} placeholder="generated"></textarea></label>
<label class="check"><input type="checkbox" id="f-seo-headingTags" name="seo.headingTags"${headingDefault ? " checked" : ""}> Heading tags (H1, H2, H3)</label>
</fieldset>
<fieldset>
<legend>Style</legend>
<label class="field"><span>Avoid <small>(optional)</small></span>
<textarea id="f-style-avoid" name="style.avoid" data-list="lines" rows="2" placeholder="once upon a time&#10;game-changer"></textarea>
<small>One phrase per line, up to ${escapeHtml(String(field("style.avoid").maxItems ?? ""))}; none appears in the article.</small></label>
<label class="field"><span>Voice <small>(optional)</small></span>
<input type="text" id="f-style-voice" name="style.voice" ${inputLimits(field("style.voice"))} placeholder="plain British English, second person"></label>
${VOICE_PANEL}
</fieldset>
<fieldset>
<legend>Grounding</legend>
<label class="field"><span>Sources <small>(optional)</small></span>
<textarea id="f-sources" name="sources" data-list="sources" rows="3" placeholder="# Our composting trial&#10;The heap reached 60 °C in nine days."></textarea>
<small>Paste text or Markdown the article draws on and cites; separate sources with a line of <code>---</code>. A first line <code># Title</code> names \
one.</small></label>
<label class="field"><span>Links <small>(optional)</small></span>
<textarea id="f-links" name="links" data-list="links" rows="3" spellcheck="false" placeholder="/guides/compost-bins How to choose a compost bin | compost \
bin, tumbler"></textarea>
<small>Pages of your site to link, one per line: the URL, its title, then optionally <code>|</code> and keywords.</small></label>
</fieldset>
<datalist id="structures">${presets.map((p) => `<option value="${escapeHtml(p)}"></option>`).join("")}</datalist>
<datalist id="languages">${[...LABELLED_LANGUAGES]
    .sort()
    .map((code) => `<option value="${escapeHtml(code)}">${escapeHtml(languageName(code) ?? code)}</option>`)
    .join("")}</datalist>`;
}

/** Where the article streams in, with its status line, errors and Markdown. */
const OUTPUT = `<div class="out" id="out">
<div class="status" role="status" aria-live="polite"><span class="spinner" aria-hidden="true"></span><span id="status">Enter a key and a topic, then press \
Generate.</span></div>
${OUTLINE_SECTION}
<p class="summary-bar panel" id="summary" hidden><span>SEO score <strong id="summary-score"></strong></span><span id="summary-words"></span><span \
id="summary-time"></span><a href="#report">Full report</a></p>
<div class="toolbar" id="takeaway" hidden><button type="button" id="copy-md">Copy Markdown</button><button type="button" id="copy-html">Copy \
HTML</button><button type="button" id="download-md">Download .md</button><button type="button" id="publish-draft" hidden>Publish as draft</button></div>
<p class="publish-result" id="publish-result" role="status" hidden></p>
<article class="article panel" id="article" aria-live="off" aria-busy="false"><p class="placeholder">The article appears here as it is written.</p></article>
<details class="source panel" id="source" hidden>
<summary>Markdown</summary>
<pre id="markdown"></pre>
</details>
</div>`;

/** The API key both tabs send (client/key.ts). */
const KEY_FIELD = `<label class="keyfield"><span>API key</span>
<input type="password" id="f-key" required autocomplete="current-password" spellcheck="false" placeholder="x-api-key">
<small>Sent only in the <code>x-api-key</code> header; kept in this tab only.</small></label>`;

/** The tabs (client/tabs.ts makes them keyboard tabs); the first is selected without script too. */
const TABS = `<div class="tabs" role="tablist" aria-label="What the playground does">
<button type="button" role="tab" id="tab-generate" aria-controls="panel-generate" aria-selected="true">Generate an article</button>
<button type="button" role="tab" id="tab-check" aria-controls="panel-check" aria-selected="false" tabindex="-1">Check an article</button>
</div>`;

/** The playground page, its form limits from the OpenAPI request schema. */
export function playgroundPage(doc: Record<string, unknown>): Page {
  const request = requestBodySchema(doc, "GenerateRequest");
  const presets = (fieldAt(componentSchema(doc, "NormalisedRequest"), "structure").enum ?? []).map(String);
  const body = `
<div class="wrap" id="app">
<div class="intro">
<div class="lede">
<h1>Playground</h1>
<p>Write an article with the model on this server and watch it arrive, or check one already written. The reference is at <a href="/docs">/docs</a>.</p>
</div>
${KEY_FIELD}
</div>
${TABS}
<section class="view generate-view" id="panel-generate" role="tabpanel" aria-labelledby="tab-generate">
<form class="panel" id="form" novalidate autocomplete="off">
<div class="folded-bar"><span id="form-summary"></span><button type="button" id="unfold" aria-controls="fields">Edit request</button></div>
<div class="fields" id="fields">
${fieldsets((path) => fieldAt(request, path), presets)}
</div>
<div class="actions">
<button type="submit" class="primary" id="generate">Generate</button>
<button type="button" id="outline-first">Outline first</button>
<button type="button" id="stop" disabled>Stop</button>
</div>
<div class="error" id="error" role="alert" tabindex="-1" hidden></div>
</form>
${OUTPUT}
${reportSection({ prefix: "", title: "SEO report", pending: "The report measures the finished article: it appears here when the article is done." })}
</section>
${checkPanel(doc)}
</div>`;
  return renderPage({
    title: "inkpress playground",
    description: "Write an SEO article with the local model and watch it stream in.",
    current: "/",
    style: VIEW_STYLE + REPORT_STYLE + CHECK_STYLE + OUTLINE_STYLE + VOICE_STYLE,
    body,
    script: "playground",
  });
}
