/**
 * The playground's second tab, Check an article: a person pastes Markdown (and optionally
 * the targets: keywords, title, description, length, language), presses Check, and reads
 * the SEO report of `POST /api/v1/analyse` in the same report view the Generate tab shows,
 * with the article's outline and the title and description found in it. The body is read
 * from the form like Generate's; errors are shown the same way, below the Check button.
 */
import { createClient, InkpressApiError, type AnalyseRequest, type AnalysisResponse } from "../../../client/index.js";
import { byId } from "./dom.js";
import { hideError, showError, showProblem } from "./errors.js";
import { clearInvalid, missingFields, requestBody } from "./form.js";
import { keyInput, rememberKey } from "./key.js";
import { densityStat, hideReport, showReport, type ReportView, type Stat } from "./report.js";

/** The prefix of this tab's report ids. */
const PREFIX = "check-";
const form = byId<HTMLFormElement>("check-form");
const button = byId<HTMLButtonElement>("check");
const status = byId("check-status");

/** Where a measured target came from, in words (the request's own values need none). */
const FROM_WORDS: Record<string, string> = {
  "front-matter": "from the front matter",
  html: "from the page's head",
  h1: "from the H1",
  "file-name": "from the file name",
  detected: "detected",
};

type Target = AnalysisResponse["title"];

/** A measured target: its value, and where it was found when the request did not give it. */
function targetText(target: Target): string {
  if (!target) return "none found";
  const from = FROM_WORDS[target.from];
  return from ? `${target.value} (${from})` : target.value;
}

/** The report of an analysed article: its figures, the targets measured and its outline. */
function analysisReport(analysis: AnalysisResponse, length: unknown): ReportView {
  const slug: Stat[] = analysis.slug ? [{ label: "Slug", text: targetText(analysis.slug), wide: true }] : [];
  return {
    seo: analysis.seo,
    stats: [
      { label: "Words", text: `${analysis.wordCount}${typeof length === "number" ? ` of ${length}` : ""}` },
      { label: "Reading time", text: `${analysis.readingTimeMinutes} min` },
      { label: "Language", text: targetText(analysis.language) },
      { label: "Title", text: targetText(analysis.title), wide: true },
      { label: "Meta description", text: targetText(analysis.description), wide: true },
      ...slug,
      ...densityStat(analysis.seo.keywordDensity),
    ],
    outline: analysis.outline,
  };
}

function setBusy(busy: boolean): void {
  button.disabled = busy;
  button.textContent = busy ? "Checking…" : "Check";
  form.setAttribute("aria-busy", String(busy));
}

/** On a narrow screen the report is below the form: bring its top into view once it is filled. */
function revealReport(): void {
  const report = byId(`${PREFIX}report`);
  if (report.getBoundingClientRect().top > window.innerHeight * 0.6) report.scrollIntoView({ block: "start" });
}

/** Send the form's article and show its report, or why there is none. */
async function check(key: string): Promise<void> {
  const body = requestBody(form);
  status.textContent = "Measuring the article…";
  try {
    const analysis = await createClient({ baseUrl: location.origin, apiKey: key }).analyse(body as AnalyseRequest);
    showReport(analysisReport(analysis, body.length), PREFIX);
    const failed = analysis.seo.checks.filter((item) => item.passed === false).length;
    status.textContent = `Checked: ${analysis.wordCount} words, SEO score ${analysis.seo.score}, ${failed} failed ${failed === 1 ? "check" : "checks"}.`;
    revealReport();
  } catch (error) {
    if (error instanceof InkpressApiError) {
      showProblem(form, error.problem, error.retryAfter);
      status.textContent = error.status === 401 ? "Check the API key." : "The request failed.";
    } else {
      showError(form, "Could not reach the server", error instanceof Error ? error.message : String(error));
      status.textContent = "The request failed.";
    }
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (button.disabled) return;
  hideError(form);
  hideReport(PREFIX);
  clearInvalid(form);
  keyInput.removeAttribute("aria-invalid");
  const missing = missingFields([
    [keyInput, "API key"],
    [byId<HTMLTextAreaElement>("c-markdown"), "article"],
  ]);
  if (missing.length) {
    showError(form, `Missing ${missing.join(" and ")}`, "Fill in the highlighted fields, then press Check again.");
    return;
  }
  const key = keyInput.value.trim();
  rememberKey(key);
  setBusy(true);
  try {
    await check(key);
  } finally {
    setBusy(false);
  }
});

form.addEventListener("input", (event) => {
  if (event.target instanceof Element) event.target.removeAttribute("aria-invalid");
});
