/**
 * The playground's outline editor: after "Outline first" (`POST /api/v1/outline`) it shows the
 * planned title and headings above the article, each heading renamed in place and moved with
 * its buttons or Alt+ArrowUp/ArrowDown, added and removed (client/outline.ts); "Write" then sends generate with
 * the edited outline, so the article has exactly those headings in that order.
 */

/** The editor's own look, in the page's style. */
export const OUTLINE_STYLE = `
.outline-editor { padding: 16px 18px; }
.outline-editor h2 { margin: 0 0 4px; font-size: 18px; }
.outline-editor .hint { margin: 0 0 12px; color: var(--muted); font-size: 13px; }
.outline-list { list-style: none; margin: 12px 0 0; padding: 0; display: flex; flex-direction: column; gap: 6px; }
.outline-list li { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
.outline-list li.h3 { padding-left: 28px; }
.outline-list .level { flex: none; width: 26px; font-size: 12px; font-weight: 700; color: var(--muted); }
.outline-list input { flex: 1 1 180px; min-width: 0; }
.outline-list .budget { flex: none; font-size: 12px; color: var(--muted); min-width: 64px; text-align: right; }
.outline-list button { flex: none; padding: 4px 9px; font-size: 13px; }
#outline-first { white-space: nowrap; }
`;

/** The editor, hidden until an outline is answered; its list is filled by the script. */
export const OUTLINE_SECTION = `<section class="outline-editor panel" id="outline-editor" aria-labelledby="outline-heading" hidden>
<h2 id="outline-heading">Outline</h2>
<p class="hint" id="outline-hint">Rename a heading in place. Move it with its Up and Down buttons, or Alt+↑ and Alt+↓ in its box; add one after it with +, \
remove it with ×. Then press Write: the article gets these headings in this order.</p>
<label class="field"><span>Title</span>
<input type="text" id="outline-title" list="outline-titles" spellcheck="true"></label>
<datalist id="outline-titles"></datalist>
<ol class="outline-list" id="outline-list"></ol>
<div class="actions"><button type="button" class="primary" id="write">Write</button><button type="button" id="outline-discard">Discard outline</button></div>
</section>`;
