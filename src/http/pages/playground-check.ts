/**
 * The playground's Check an article tab: a form for `POST /api/v1/analyse` (the pasted
 * Markdown and the targets it is measured against) and its report. Like the Generate form,
 * each control's `name` is its dotted path in the request body and its limits come from the
 * OpenAPI request schema; the ids are `c-` and the path with hyphens for dots.
 */
import { fieldAt, inputLimits, requestBodySchema, type SchemaNode } from "./fields.js";
import { reportSection } from "./playground-report.js";

/** The tab's own look: a wide form for the article, the report beside it (below on narrow screens). */
export const CHECK_STYLE = `
.view.check-view { grid-template-columns: minmax(0, 1fr) minmax(340px, 480px); }
#c-markdown { min-height: 40vh; font-family: var(--mono); font-size: 13px; line-height: 1.5; }
.check-intro { margin: 0 0 12px; font-size: 14px; color: var(--muted); }
.check-status { margin: 10px 0 0; min-height: 20px; font-size: 14px; color: var(--muted); }
@media (max-width: 899px) { .view.check-view { grid-template-columns: minmax(0, 1fr); } }
@media (min-width: 900px) {
  .view.check-view .report { position: sticky; top: 16px; max-height: calc(100vh - 32px); overflow-y: auto; }
  .view.check-view .report .checks { grid-template-columns: 1fr; }
}
`;

function checkFields(field: (path: string) => SchemaNode): string {
  return `<label class="field"><span>Article (Markdown)</span>
<textarea id="c-markdown" name="markdown" rows="16" required spellcheck="false" placeholder="# Home composting for beginners&#10;&#10;A compost bin turns \
kitchen scraps and garden waste into soil…"></textarea>
<small>Paste the whole article. YAML front matter (<code>title</code>, <code>description</code>, <code>keywords</code>, <code>language</code>) is read as \
targets the fields below leave open.</small></label>
<label class="field"><span>Keywords <small>(optional)</small></span>
<input type="text" id="c-seo-keywords" name="seo.keywords" ${inputLimits(field("seo.keywords"))} placeholder="compost bin, garden waste">
<small>Comma-separated; the first is the primary keyword. Without any, the keyword checks do not apply.</small></label>
<label class="field"><span>Title <small>(optional)</small></span>
<input type="text" id="c-seo-title" name="seo.title" ${inputLimits(field("seo.title"))} placeholder="the article's own">
<small>Measured instead of the title found in the article.</small></label>
<label class="field"><span>Meta description <small>(optional)</small></span>
<textarea id="c-seo-description" name="seo.description" rows="2" ${inputLimits(field("seo.description"))} placeholder="the article's own"></textarea></label>
<div class="row">
<label class="field"><span>Length <small>(optional)</small></span>
<input type="number" id="c-length" name="length" ${inputLimits(field("length"))} placeholder="any"></label>
<label class="field"><span>Language <small>(optional)</small></span>
<input type="text" id="c-language" name="language" list="languages" ${inputLimits(field("language"))} placeholder="detected" spellcheck="false"></label>
</div>`;
}

/** The Check an article tab's panel (hidden until its tab is selected), its limits from the analyse request schema. */
export function checkPanel(doc: Record<string, unknown>): string {
  const request = requestBodySchema(doc, "AnalyseRequest");
  return `<section class="view check-view" id="panel-check" role="tabpanel" aria-labelledby="tab-check" hidden>
<form class="panel" id="check-form" novalidate autocomplete="off" aria-describedby="check-intro">
<p class="check-intro" id="check-intro">Measure an article that is already written: the same SEO report as a generated article gets, with no model and no \
word quota.</p>
<div class="fields">
${checkFields((path) => fieldAt(request, path))}
</div>
<div class="actions"><button type="submit" class="primary" id="check">Check</button></div>
<div class="error" id="check-error" role="alert" tabindex="-1" hidden></div>
<p class="check-status" role="status" id="check-status">Paste an article, then press Check.</p>
</form>
${reportSection({
  prefix: "check-",
  title: "SEO report of the pasted article",
  pending: "The report of the pasted article appears here when you " + "press Check.",
})}
</section>`;
}
