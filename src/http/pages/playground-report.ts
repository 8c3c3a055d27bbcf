/**
 * The playground's SEO report panel: the markup and look that both tabs' reports share
 * (client/report.ts fills it in). Each tab has one, its ids behind a prefix of its own.
 */
import { escapeHtml } from "./html.js";

/** The report's look. */
export const REPORT_STYLE = `
.report { padding: 18px 22px; }
.report .pending { color: var(--muted); margin: 0; }
.report h2 { font-size: 16px; margin: 0 0 12px; display: flex; align-items: baseline; gap: 10px; }
.failed-count { font-size: 13px; font-weight: 600; border-radius: 999px; padding: 1px 10px; }
.failed-count.fail { background: var(--bad-bg); color: var(--bad); }
.failed-count.pass { background: var(--ok-bg); color: var(--ok); }
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
.checks-summary { font-size: 13px; color: var(--muted); margin: 0 0 8px; }
details.na-checks { margin-top: 10px; }
details.na-checks summary { cursor: pointer; font-size: 13px; color: var(--muted); margin-bottom: 6px; }
.checks { list-style: none; margin: 0; padding: 0; display: grid; gap: 6px; grid-template-columns: repeat(auto-fill, minmax(290px, 1fr)); }
.checks li { display: grid; grid-template-columns: 26px minmax(0, 1fr); gap: 8px; align-items: start; padding: 8px 10px; border-radius: 8px; background: \
var(--bg); border: 1px solid var(--line); }
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
.outline-box { margin-top: 12px; }
.outline-box summary { cursor: pointer; font-size: 13px; color: var(--muted); margin-bottom: 6px; }
.outline { margin: 0; padding-left: 20px; font-size: 14px; }
.outline li { margin: 2px 0; overflow-wrap: anywhere; }
.outline .level-3 { margin-left: 18px; list-style-type: circle; }
@media (max-width: 560px) { .stats { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
`;

/** What a tab's report is made with. */
export interface ReportSectionOptions {
  /** Put before each id, so that two reports on one page differ: "" for Generate, `check-` for Check. */
  prefix: string;
  /** What the report says before its first answer. */
  pending: string;
  /** Its heading, also its landmark's name: each report on the page needs its own. */
  title: string;
}

/** A report, filled in when an answer arrives (each check of the answer carries its name in words). */
export function reportSection({ prefix, pending, title }: ReportSectionOptions): string {
  const id = (name: string) => `id="${prefix}${name}"`;
  return `<section class="report panel" ${id("report")} aria-labelledby="${prefix}report-title">
<h2 ${id("report-title")}>${escapeHtml(title)} <span class="failed-count" ${id("failed-count")} hidden></span></h2>
<p class="pending" ${id("report-pending")}>${escapeHtml(pending)}</p>
<div ${id("report-body")} hidden>
<div class="score" ${id("score")}><strong ${id("score-value")}>–</strong><div class="bar" aria-hidden="true"><span ${id("score-bar")}></span></div><span \
class="muted">of 100</span></div>
<dl class="stats" ${id("stats")}></dl>
<p class="checks-summary" ${id("checks-summary")}></p>
<ul class="checks" ${id("checks")}></ul>
<details class="na-checks" ${id("na-checks")} hidden><summary ${id("na-summary")}></summary><ul class="checks" ${id("na-list")}></ul></details>
<details class="outline-box" ${id("outline-box")} open hidden><summary ${id("outline-summary")}></summary><ol class="outline" ${id("outline")}></ol></details>
</div>
</section>`;
}
