/** The playground's SEO report: the score, the article's figures and every check, named in words. */
import type { ArticleResponse, SeoCheck } from "../../../article/wire/response.js";
import { byId, el } from "./dom.js";

type CheckKind = "pass" | "fail" | "na";

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

function stat(dl: HTMLElement, label: string, text: string, wide = false): void {
  const box = el("div", wide ? "wide" : null);
  box.append(el("dt", null, label), el("dd", null, text));
  dl.append(box);
}

function showStats(answer: ArticleResponse): void {
  const { article, seo, request, usage } = answer;
  const stats = byId("stats");
  stats.replaceChildren();
  stat(stats, "Words", `${article.wordCount}${request.length ? ` of ${request.length}` : ""}`);
  stat(stats, "Reading time", `${article.readingTimeMinutes} min`);
  stat(stats, "Language", article.language);
  stat(stats, "Structure", request.structure);
  stat(stats, "Seed", String(request.seed));
  stat(stats, "Time", seconds(usage.durationMs));
  stat(stats, "Title", article.title, true);
  stat(stats, "Slug", article.slug, true);
  stat(stats, "Meta description", article.metaDescription, true);
  const density = Object.entries(seo.keywordDensity).map(([keyword, share]) => `${keyword} ${share}%`);
  if (density.length) stat(stats, "Keyword density", density.join(" · "), true);
}

const kindOf = (check: SeoCheck): CheckKind => (check.passed === true ? "pass" : check.passed === false ? "fail" : "na");

/**
 * The failed checks first, then the passed ones, each group in the answer's order; checks
 * that cannot apply to this article (passed: null) are folded away below them. The report's
 * heading counts the failed ones, so they are seen without scrolling.
 */
function showChecks(checks: readonly SeoCheck[]): void {
  const list = byId("checks");
  const naList = byId("na-list");
  const counts: Record<CheckKind, number> = { pass: 0, fail: 0, na: 0 };
  list.replaceChildren();
  naList.replaceChildren();
  const failedFirst = [...checks].sort((a, b) => Number(kindOf(a) !== "fail") - Number(kindOf(b) !== "fail"));
  for (const check of failedFirst) {
    const kind = kindOf(check);
    counts[kind]++;
    (kind === "na" ? naList : list).append(checkItem(check, kind));
  }
  const failed = byId("failed-count");
  failed.textContent = counts.fail ? `${counts.fail} failed` : "none failed";
  failed.className = `failed-count ${counts.fail ? "fail" : "pass"}`;
  failed.hidden = false;
  byId("checks-summary").textContent = `${counts.pass} passed · ${counts.fail} failed`;
  byId("na-summary").textContent = `${counts.na}${counts.na === 1 ? " check does" : " checks do"} not apply to this article`;
  const folded = byId<HTMLDetailsElement>("na-checks");
  folded.hidden = counts.na === 0;
  folded.open = false;
}

/** Show the report of a finished article, and its summary bar (for narrow screens). */
export function showReport(answer: ArticleResponse): void {
  const score = Number(answer.seo.score) || 0;
  byId("score-value").textContent = String(score);
  byId("score-bar").style.width = `${Math.max(0, Math.min(100, score))}%`;
  byId("score").className = `score ${score >= 80 ? "high" : score >= 50 ? "mid" : "low"}`;
  showStats(answer);
  showChecks(answer.seo.checks);
  byId("report-pending").hidden = true;
  byId("report-body").hidden = false;
  byId("summary-score").textContent = String(score);
  byId("summary-words").textContent = `${answer.article.wordCount} words`;
  byId("summary-time").textContent = seconds(answer.usage.durationMs);
  byId("summary").hidden = false;
}

/** Hide the report until the next article is done. */
export function hideReport(): void {
  byId("failed-count").hidden = true;
  byId("report-body").hidden = true;
  byId("report-pending").hidden = false;
  byId("summary").hidden = true;
}
