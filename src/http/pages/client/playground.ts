/**
 * The playground's script (`/assets/playground.js`), a browser module bundled with what it
 * imports: a person enters a key and the request, presses Generate, and watches the article
 * stream in, rendered, then reads its SEO report and takes the article away. The second tab,
 * Check an article (client/check.ts), measures a pasted article with the same report.
 *
 * The stream is read by the package's own client (`inkpress/client`): `meta` (accepted),
 * `outline` (title and headings planned), `delta` (Markdown deltas, rendered as they come),
 * then `done`, whose `article.html` (the server's rendering) replaces the streamed one. The
 * request body is read from the form (client/form.ts), so a new field is a new control in
 * the page, not new code here. Outline first asks `POST /api/v1/outline` for the plan and
 * shows it to edit (client/outline.ts); Write sends the request with the edited outline.
 */
import {
  createClient,
  IncompleteStreamError,
  InkpressApiError,
  type ArticleRequest,
  type ArticleResponse,
  type StreamEvent,
} from "../../../client/index.js";
import "./check.js";
import "./voice.js";
import { byId, el } from "./dom.js";
import { hideError, showError, showProblem } from "./errors.js";
import { clearInvalid, missingFields, requestBody } from "./form.js";
import { keyInput, rememberKey } from "./key.js";
import { renderMarkdown } from "./markdown.js";
import { offerPublishing } from "./publish.js";
import { discardOutline, editedOutline, markOutlineErrors, showOutline } from "./outline.js";
import { articleReport, hideReport, seconds, showReport } from "./report.js";
import "./tabs.js";
import { offer } from "./takeaway.js";

const form = byId<HTMLFormElement>("form");
const articleEl = byId("article");
const stopButton = byId<HTMLButtonElement>("stop");

/** What the form's buttons start, each button's words at rest and while its task runs. */
const TASKS = {
  generate: { button: byId<HTMLButtonElement>("generate"), idle: "Generate", busy: "Generating…" },
  outline: { button: byId<HTMLButtonElement>("outline-first"), idle: "Outline first", busy: "Planning…" },
  write: { button: byId<HTMLButtonElement>("write"), idle: "Write", busy: "Writing…" },
};
type Task = keyof typeof TASKS;

let controller: AbortController | null = null;
let markdown = "";
let renderQueued = false;
/** Deltas are arriving: a queued render still applies (once the answer is done, its HTML is shown instead). */
let streaming = false;

const text = (id: string) => byId<HTMLInputElement>(id).value.trim();
const placeholder = (words: string) => articleEl.replaceChildren(el("p", "placeholder", words));

// --- output --------------------------------------------------------------------------------

function setStatus(words: string): void {
  byId("status").textContent = words;
}

function setBusy(busy: boolean, task: Task): void {
  byId("app").classList.toggle("busy", busy);
  articleEl.setAttribute("aria-busy", String(busy && task !== "outline"));
  for (const [name, { button, idle, busy: working }] of Object.entries(TASKS)) {
    button.disabled = busy;
    button.textContent = busy && name === task ? working : idle;
  }
  stopButton.disabled = !busy;
}

/** Links open in a tab of their own: following one must not lose the article. */
function linksOpenApart(): void {
  for (const link of articleEl.querySelectorAll("a[href]")) {
    link.setAttribute("target", "_blank");
    link.setAttribute("rel", "noopener noreferrer");
  }
}

function showArticle(): void {
  if (markdown.trim()) articleEl.replaceChildren(renderMarkdown(markdown));
  else placeholder("Waiting for the first words…");
  linksOpenApart();
}

/** The server's own rendering of the finished article (escaped there), in place of the streamed one. */
function showFinished(answer: ArticleResponse): void {
  const template = document.createElement("template");
  template.innerHTML = answer.article.html;
  articleEl.replaceChildren(template.content);
  linksOpenApart();
}

function queueRender(): void {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    if (streaming) showArticle();
  });
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });
const countWords = (words: string) => [...segmenter.segment(words)].filter((part) => part.isWordLike).length;

/** Fold the form to one line (only narrow screens show it folded), so the article is near the top. */
function fold(folded: boolean): void {
  form.classList.toggle("folded", folded);
  byId("unfold").setAttribute("aria-expanded", String(!folded));
  if (!folded) return;
  byId("form-summary").textContent = `${text("f-topic")} · ${text("f-length") || "default"} words`;
  if (getComputedStyle(byId("fields")).display === "none") form.scrollIntoView({ block: "start" });
}

function reset(): void {
  markdown = "";
  hideError(form);
  hideReport();
  byId("summary").hidden = true;
  offer(undefined);
  void offerPublishing(undefined);
  byId("source").hidden = true;
  clearInvalid(form);
  keyInput.removeAttribute("aria-invalid");
  placeholder("Waiting for a free slot and the first words…");
}

/** The summary bar above the article (narrow screens show it): score, words and time. */
function showSummary(answer: ArticleResponse): void {
  byId("summary-score").textContent = String(answer.seo.score);
  byId("summary-words").textContent = `${answer.article.wordCount} words`;
  byId("summary-time").textContent = seconds(answer.usage.durationMs);
  byId("summary").hidden = false;
}

// --- the stream ----------------------------------------------------------------------------

/** Show the finished answer: its HTML, report, Markdown and the buttons to take it away. */
function finish(answer: ArticleResponse, started: number): void {
  streaming = false;
  markdown = answer.article.markdown;
  showFinished(answer);
  showReport(articleReport(answer));
  showSummary(answer);
  byId("markdown").textContent = markdown;
  byId("source").hidden = false;
  offer({ markdown, html: answer.article.html, slug: answer.article.slug });
  void offerPublishing(answer);
  setStatus(`Done: ${answer.article.wordCount} words in ${seconds(performance.now() - started)}, SEO score ${answer.seo.score}.`);
}

/** Show one event of the stream. */
function onEvent(event: StreamEvent, started: number): void {
  if (event.event === "meta") setStatus("Planning the outline…");
  else if (event.event === "outline") setStatus(`Writing “${event.data.title}”…`);
  else if (event.event === "delta") {
    markdown += event.data.text;
    queueRender();
    setStatus(`Writing… ${countWords(markdown)} words so far`);
  } else finish(event.data, started);
}

const client = (key: string) => createClient({ baseUrl: location.origin, apiKey: key });

/** Send the request and show its stream, or why there is none. */
async function generate(key: string, signal: AbortSignal, request: ArticleRequest): Promise<void> {
  const started = performance.now();
  let accepted = false;
  streaming = true;
  try {
    for await (const event of client(key).stream(request, { signal })) {
      if (!accepted) setStatus("Waiting for a free slot and the first words…");
      accepted = true;
      onEvent(event, started);
    }
  } catch (error) {
    if (!(error instanceof InkpressApiError)) throw error;
    if (accepted) showArticle();
    else {
      placeholder("No article: the request was refused.");
      fold(false); // the fields to correct are in the form
    }
    showProblem(form, error.problem, error.retryAfter);
    markOutlineErrors(error.problem);
    setStatus(accepted ? "Generation stopped with an error." : error.status === 401 ? "Check the API key." : "The request failed.");
  } finally {
    streaming = false;
  }
}

/** Ask for the outline and show it to edit, or why there is none. */
async function planOutline(key: string, signal: AbortSignal): Promise<void> {
  placeholder("The article appears here once you press Write.");
  setStatus("Planning the outline…");
  try {
    const answer = await client(key).outline(requestBody(form) as ArticleRequest, { signal });
    showOutline(answer, setStatus);
    setStatus(`Outline ready: ${answer.outline.headings.length} headings. Rename or move them, then press Write.`);
  } catch (error) {
    if (!(error instanceof InkpressApiError)) throw error;
    placeholder("No outline: the request was refused.");
    fold(false);
    showProblem(form, error.problem, error.retryAfter);
    setStatus(error.status === 401 ? "Check the API key." : "The request failed.");
  }
}

/** What each task sends: the form's request; Write adds the edited outline. */
function runTask(task: Task, key: string, signal: AbortSignal): Promise<void> {
  if (task === "outline") return planOutline(key, signal);
  if (task === "generate") discardOutline(); // Generate writes without one
  const outline = task === "write" ? editedOutline() : undefined;
  return generate(key, signal, { ...(requestBody(form) as ArticleRequest), ...(outline ? { outline } : {}) });
}

/** Start a task of the form's: check the key and topic, then run it, busy, with its errors shown. */
async function start(task: Task): Promise<void> {
  if (controller) return;
  reset();
  const missing = missingFields([
    [keyInput, "API key"],
    [byId<HTMLTextAreaElement>("f-topic"), "topic"],
  ]);
  if (missing.length) {
    showError(form, `Missing ${missing.join(" and ")}`, `Fill in the highlighted fields, then press ${TASKS[task].idle} again.`);
    placeholder("The article appears here as it is written.");
    return;
  }
  const key = keyInput.value.trim();
  rememberKey(key);
  controller = new AbortController();
  fold(true);
  setBusy(true, task);
  setStatus("Sending the request…");
  try {
    await runTask(task, key, controller.signal);
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") {
      setStatus("Stopped. Nothing more will be generated for this request.");
    } else if (error instanceof IncompleteStreamError) {
      showError(form, "The stream ended early", "The server closed the connection before the article was finished.");
      setStatus("The request failed.");
    } else {
      showError(form, "Could not reach the server", error instanceof Error ? error.message : String(error));
      setStatus("The request failed.");
    }
  } finally {
    controller = null;
    setBusy(false, task);
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  void start("generate");
});
TASKS.outline.button.addEventListener("click", () => void start("outline"));
TASKS.write.button.addEventListener("click", () => void start("write"));
byId("outline-discard").addEventListener("click", () => {
  discardOutline();
  TASKS.outline.button.focus();
});

stopButton.addEventListener("click", () => controller?.abort());

byId("unfold").addEventListener("click", () => {
  fold(false);
  byId("f-topic").focus();
});

form.addEventListener("input", (event) => {
  if (event.target instanceof Element) event.target.removeAttribute("aria-invalid");
});
