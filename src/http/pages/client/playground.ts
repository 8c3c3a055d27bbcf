/**
 * The playground's script (`/assets/playground.js`), a browser module bundled with what it
 * imports: a person enters a key and the request, presses Generate, and watches the article
 * stream in, rendered, then reads its SEO report and takes the article away.
 *
 * The stream is read by the package's own client (`inkpress/client`): `meta` (accepted),
 * `outline` (title and headings planned), `delta` (Markdown pieces, rendered as they come),
 * then `done`, whose `article.html` (the server's rendering) replaces the streamed one. The
 * request body is read from the form (see {@link requestBody}), so a new field is a new
 * control in the page, not new code here.
 */
import { createClient, IncompleteStreamError, InkpressApiError, type ArticleRequest, type ArticleResponse, type StreamEvent } from "../../../client/index.js";
import { byId, el } from "./dom.js";
import { hideError, showError, showProblem } from "./errors.js";
import { linksFromText, sourcesFromText } from "./grounding.js";
import { renderMarkdown } from "./markdown.js";
import { hideReport, seconds, showReport } from "./report.js";
import { offer } from "./takeaway.js";

const form = byId<HTMLFormElement>("form");
const articleEl = byId("article");
const keyInput = byId<HTMLInputElement>("f-key");
const generateButton = byId<HTMLButtonElement>("generate");
const stopButton = byId<HTMLButtonElement>("stop");
const KEY_STORAGE = "inkpress.key";

let controller: AbortController | null = null;
let markdown = "";
let renderQueued = false;
/** Deltas are arriving: a queued render still applies (once the answer is done, its HTML is shown instead). */
let streaming = false;

const text = (id: string) => byId<HTMLInputElement>(id).value.trim();
const placeholder = (words: string) => articleEl.replaceChildren(el("p", "placeholder", words));

// --- the request ---------------------------------------------------------------------------

/** The value a control sends, or undefined for none. */
function controlValue(control: HTMLInputElement | HTMLTextAreaElement): unknown {
  if (control instanceof HTMLInputElement && control.type === "checkbox") return control.checked;
  const raw = control.value.trim();
  if (control.dataset.list === "lines") return raw ? raw.split(/\r?\n/).map((line) => line.trim()).filter(Boolean) : undefined;
  if (raw === "") return undefined;
  if (control.dataset.list === "sources") return sourcesFromText(raw);
  if (control.dataset.list === "links") return linksFromText(raw);
  return control instanceof HTMLInputElement && control.type === "number" ? Number(raw) : raw;
}

/**
 * The request body from the form: every control with a `name` is the field of the body at
 * that dotted path (`seo.keywords`). A checkbox sends a boolean (always), a number input a
 * number, a control marked `data-list="lines"` a list of its non-empty lines, one marked
 * `data-list="sources"` or `"links"` the objects its text describes (client/grounding.ts);
 * other text is sent trimmed, or left out when empty. The key has no name: it goes in a header.
 */
function requestBody(): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const control of form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>("input[name], textarea[name]")) {
    const value = controlValue(control);
    if (value === undefined) continue;
    const path = control.name.split(".");
    let parent = body;
    for (const key of path.slice(0, -1)) parent = (parent[key] ??= {}) as Record<string, unknown>;
    parent[path.at(-1)!] = value;
  }
  return body;
}

// --- output --------------------------------------------------------------------------------

function setStatus(words: string): void {
  byId("status").textContent = words;
}

function setBusy(busy: boolean): void {
  byId("app").classList.toggle("busy", busy);
  articleEl.setAttribute("aria-busy", String(busy));
  generateButton.disabled = busy;
  stopButton.disabled = !busy;
  generateButton.textContent = busy ? "Generating…" : "Generate";
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
  hideError();
  hideReport();
  offer(undefined);
  byId("source").hidden = true;
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
  placeholder("Waiting for a free slot and the first words…");
}

/** The fields a request cannot go without, marked when empty. */
function missingFields(key: string): string[] {
  const missing: string[] = [];
  if (!key) {
    missing.push("API key");
    keyInput.setAttribute("aria-invalid", "true");
  }
  if (!text("f-topic")) {
    missing.push("topic");
    byId("f-topic").setAttribute("aria-invalid", "true");
  }
  return missing;
}

// --- the stream ----------------------------------------------------------------------------

/** Show the finished answer: its HTML, report, Markdown and the buttons to take it away. */
function finish(answer: ArticleResponse, started: number): void {
  streaming = false;
  markdown = answer.article.markdown;
  showFinished(answer);
  showReport(answer);
  byId("markdown").textContent = markdown;
  byId("source").hidden = false;
  offer({ markdown, html: answer.article.html, slug: answer.article.slug });
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

/** Send the request and show its stream, or why there is none. */
async function generate(key: string, signal: AbortSignal): Promise<void> {
  const started = performance.now();
  const inkpress = createClient({ baseUrl: location.origin, apiKey: key });
  let accepted = false;
  streaming = true;
  try {
    for await (const event of inkpress.stream(requestBody() as ArticleRequest, { signal })) {
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
    setStatus(accepted ? "Generation stopped with an error." : error.status === 401 ? "Check the API key." : "The request failed.");
  } finally {
    streaming = false;
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (controller) return;
  reset();
  const key = keyInput.value.trim();
  const missing = missingFields(key);
  if (missing.length) {
    showError(`Missing ${missing.join(" and ")}`, "Fill in the highlighted fields, then press Generate again.");
    placeholder("The article appears here as it is written.");
    return;
  }
  try {
    sessionStorage.setItem(KEY_STORAGE, key);
  } catch {
    // storage off
  }
  controller = new AbortController();
  fold(true);
  setBusy(true);
  setStatus("Sending the request…");
  try {
    await generate(key, controller.signal);
  } catch (error) {
    if (error instanceof DOMException && error.name === "AbortError") {
      setStatus("Stopped. Nothing more will be generated for this request.");
    } else if (error instanceof IncompleteStreamError) {
      showError("The stream ended early", "The server closed the connection before the article was finished.");
      setStatus("The request failed.");
    } else {
      showError("Could not reach the server", error instanceof Error ? error.message : String(error));
      setStatus("The request failed.");
    }
  } finally {
    controller = null;
    setBusy(false);
  }
});

stopButton.addEventListener("click", () => controller?.abort());

byId("unfold").addEventListener("click", () => {
  fold(false);
  byId("f-topic").focus();
});

form.addEventListener("input", (event) => {
  if (event.target instanceof Element) event.target.removeAttribute("aria-invalid");
});

try {
  keyInput.value = sessionStorage.getItem(KEY_STORAGE) ?? "";
} catch {
  // storage off
}
