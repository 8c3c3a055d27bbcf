/**
 * The playground's SEO report: the score, the article's figures, every check named in words
 * and, where given, the article's outline. One renderer for both tabs: a generate answer and
 * an analyse answer each become a {@link ReportView}; each tab's report has the same
 * elements, their ids behind a prefix of its own (none for Generate, `check-` for Check).
 */
import type { ArticleResponse, SeoCheck } from "../../../contract/response.js";
import { byId, el } from "./dom.js";

type CheckKind = "pass" | "fail" | "na";

/** One figure of the report: a label and its text, `wide` for a whole row (titles, densities). */
export interface Stat {
  label: string;
  text: string;
  wide?: boolean;
}

/** What a report shows, whichever answer it came from. */
export interface ReportView {
  seo: { score: number; checks: readonly SeoCheck[] };
  stats: Stat[];
  /** The article's H2 and H3 headings; left out where the article itself is shown beside the report. */
  outline?: ReadonlyArray<{ level: number; text: string }>;
}

const CHECK_STATES: Record<CheckKind, [icon: string, state: string]> = {
  pass: ["✓", "passed"],
  fail: ["✗", "failed"],
  na: ["–", "not applicable"],
};

function checkItem(check: SeoCheck, kind: CheckKind): HTMLLIElement {
  const [icon, state] = CHECK_STATES[kind];
  const label = check.label;
  const li = el("li", kind);
  li.dataset.check = check.id;
  const mark = el("span", "icon", icon);
  // The state is said in words beside the name; the mark is for the eye.
  mark.setAttribute("aria-hidden", "true");
  li.append(mark);
  const name = el("div", "name", label);
  name.append(el("span", "state", state));
  const text = el("div");
  text.append(name, el("div", "msg", check.message));
  li.append(text);
  return li;
}

/** Milliseconds as seconds with one decimal, such as "12.3 s". */
export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The keyword density as one line, or nothing when no keyword was measured. */
export function densityStat(keywordDensity: Record<string, number>): Stat[] {
  const density = Object.entries(keywordDensity).map(([keyword, share]) => `${keyword} ${share}%`);
  return density.length ? [{ label: "Keyword density", text: density.join(" · "), wide: true }] : [];
}

/** The report of a generated article: its figures and how it was asked for (the article is beside it, so no outline). */
export function articleReport(answer: ArticleResponse): ReportView {
  const { article, seo, request, usage } = answer;
  return {
    seo,
    stats: [
      { label: "Words", text: `${article.wordCount}${request.length ? ` of ${request.length}` : ""}` },
      { label: "Reading time", text: `${article.readingTimeMinutes} min` },
      { label: "Language", text: article.language },
      { label: "Structure", text: request.structure },
      { label: "Seed", text: String(request.seed) },
      { label: "Time", text: seconds(usage.durationMs) },
      { label: "Title", text: article.title, wide: true },
      { label: "Slug", text: article.slug, wide: true },
      { label: "Meta description", text: article.metaDescription, wide: true },
      ...densityStat(seo.keywordDensity),
    ],
  };
}

function showStats(stats: HTMLElement, view: ReportView): void {
  stats.replaceChildren();
  for (const { label, text, wide } of view.stats) {
    const box = el("div", wide ? "wide" : null);
    box.append(el("dt", null, label), el("dd", null, text));
    stats.append(box);
  }
}

const kindOf = (check: SeoCheck): CheckKind => (check.passed === true ? "pass" : check.passed === false ? "fail" : "na");

/**
 * The failed checks first, then the passed ones, each group in the answer's order; checks
 * that cannot apply to this article (passed: null) are folded away below them. The report's
 * heading counts the failed ones, so they are seen without scrolling.
 */
function showChecks(checks: readonly SeoCheck[], id: (name: string) => HTMLElement): void {
  const list = id("checks");
  const naList = id("na-list");
  const counts: Record<CheckKind, number> = { pass: 0, fail: 0, na: 0 };
  list.replaceChildren();
  naList.replaceChildren();
  const failedFirst = [...checks].sort((a, b) => Number(kindOf(a) !== "fail") - Number(kindOf(b) !== "fail"));
  for (const check of failedFirst) {
    const kind = kindOf(check);
    counts[kind]++;
    (kind === "na" ? naList : list).append(checkItem(check, kind));
  }
  const failed = id("failed-count");
  failed.textContent = counts.fail ? `${counts.fail} failed` : "none failed";
  failed.className = `failed-count ${counts.fail ? "fail" : "pass"}`;
  failed.hidden = false;
  id("checks-summary").textContent = `${counts.pass} passed · ${counts.fail} failed`;
  id("na-summary").textContent = `${counts.na}${counts.na === 1 ? " check does" : " checks do"} not apply to this article`;
  const folded = id("na-checks") as HTMLDetailsElement;
  folded.hidden = counts.na === 0;
  folded.open = false;
}

/** The outline as a list, H3s indented under their H2; hidden when the view has none. */
function showOutline(view: ReportView, id: (name: string) => HTMLElement): void {
  const outline = view.outline ?? [];
  id("outline").replaceChildren(...outline.map((entry) => el("li", `level-${entry.level}`, entry.text)));
  id("outline-summary").textContent = outline.length
    ? `Outline: ${outline.length} heading${outline.length === 1 ? "" : "s"}`
    : "Outline: no H2 or H3 headings";
  id("outline-box").hidden = view.outline === undefined;
}

/** Show a report in the tab whose report ids start with `prefix`. */
export function showReport(view: ReportView, prefix = ""): void {
  const id = (name: string) => byId(`${prefix}${name}`);
  const score = Number(view.seo.score) || 0;
  id("score-value").textContent = String(score);
  id("score-bar").style.width = `${Math.max(0, Math.min(100, score))}%`;
  id("score").className = `score ${score >= 80 ? "high" : score >= 50 ? "mid" : "low"}`;
  showStats(id("stats"), view);
  showChecks(view.seo.checks, id);
  showOutline(view, id);
  id("report-pending").hidden = true;
  id("report-body").hidden = false;
}

/** Hide a tab's report until its next answer. */
export function hideReport(prefix = ""): void {
  byId(`${prefix}failed-count`).hidden = true;
  byId(`${prefix}report-body`).hidden = true;
  byId(`${prefix}report-pending`).hidden = false;
}
