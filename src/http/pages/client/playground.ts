/**
 * The playground's script (`/assets/playground.js`), a browser module: a person enters a
 * key and the request, presses Generate, and watches the article stream in, rendered, then
 * reads its SEO report.
 *
 * The stream is read with fetch (EventSource cannot POST nor send headers): `meta`
 * (accepted), `outline` (title and headings planned), `delta` (Markdown pieces), then `done`
 * or `error`. The request body is read from the form (see {@link requestBody}), so a new
 * field is a new control in the page, not new code here.
 */
import type { ArticleResponse, StreamOutline } from "../../../article/wire/response.js";
import { byId, el } from "./dom.js";
import { linksFromText, sourcesFromText } from "./grounding.js";
import { renderMarkdown } from "./markdown.js";
import { hideReport, seconds, showReport } from "./report.js";
import { readSse } from "./sse.js";

/** A problem+json body, as far as the page reads it. */
interface Problem {
  status?: number;
  title?: string;
  detail?: string;
  type?: string;
  errors?: { path: string; message: string }[];
}

const form = byId<HTMLFormElement>("form");
const articleEl = byId("article");
const errorBox = byId("error");
const keyInput = byId<HTMLInputElement>("f-key");
const generateButton = byId<HTMLButtonElement>("generate");
const stopButton = byId<HTMLButtonElement>("stop");
const KEY_STORAGE = "inkpress.key";

let controller: AbortController | null = null;
let markdown = "";
let renderQueued = false;

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

function showArticle(): void {
  if (markdown.trim()) articleEl.replaceChildren(renderMarkdown(markdown));
  else placeholder("Waiting for the first words…");
}

function queueRender(): void {
  if (renderQueued) return;
  renderQueued = true;
  requestAnimationFrame(() => {
    renderQueued = false;
    showArticle();
  });
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "word" });
const countWords = (words: string) => [...segmenter.segment(words)].filter((part) => part.isWordLike).length;

/** Show an error: a heading, a sentence, and optionally a list and a link to its reference entry. */
function showError(title: string, detail?: string, items: string[] = [], href?: string): void {
  errorBox.replaceChildren(el("h2", null, title));
  if (detail) errorBox.append(el("p", null, detail));
  if (items.length) {
    const ul = el("ul");
    ul.append(...items.map((item) => el("li", null, item)));
    errorBox.append(ul);
  }
  if (href) {
    const link = el("a", null, "What this error means");
    link.href = href;
    const p = el("p");
    p.append(link);
    errorBox.append(p);
  }
  errorBox.hidden = false;
}

/** A problem+json body, readable: status and title, detail, the invalid fields marked in the form. */
function showProblem(problem: Problem, retryAfter?: string | null): void {
  const status = Number(problem.status) || 0;
  const title = `${status ? `${status} ` : ""}${problem.title || "Error"}`;
  const detail = `${problem.detail ?? ""}${retryAfter ? ` Retry in ${retryAfter} s.` : ""}`;
  const items = (Array.isArray(problem.errors) ? problem.errors : []).map((error) => {
    // A control's name is the field's path; a list member's error (links[2].url) marks the control of the whole list.
    const named = (name: string) => form.querySelector(`[name="${CSS.escape(name)}"]`);
    (named(error.path) ?? named(error.path.replace(/\[.*$/, "")))?.setAttribute("aria-invalid", "true");
    return `${error.path}: ${error.message}`;
  });
  if (status === 401) keyInput.setAttribute("aria-invalid", "true");
  const type = typeof problem.type === "string" && /^\/docs#[a-z-]+$/.test(problem.type) ? problem.type : undefined;
  showError(title, detail, items, type);
  setStatus(status === 401 ? "Check the API key." : "The request failed.");
}

async function showHttpError(response: Response): Promise<void> {
  const body = await response.text();
  if (/json/.test(response.headers.get("content-type") ?? "")) {
    try {
      return showProblem(JSON.parse(body) as Problem, response.headers.get("retry-after"));
    } catch {
      // not JSON after all
    }
  }
  showProblem({ status: response.status, title: response.statusText || "Error", detail: body.slice(0, 300) });
}

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
  errorBox.hidden = true;
  errorBox.replaceChildren();
  hideReport();
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

/** Show one event of the stream; true once the stream has said its last word (done or error). */
function onEvent(name: string, data: string, started: number): boolean {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return false;
  }
  if (name === "meta") setStatus("Planning the outline…");
  else if (name === "outline") setStatus(`Writing “${(payload as StreamOutline).title}”…`);
  else if (name === "delta") {
    markdown += (payload as { text: string }).text;
    queueRender();
    setStatus(`Writing… ${countWords(markdown)} words so far`);
  } else if (name === "done") {
    const answer = payload as ArticleResponse;
    markdown = answer.article.markdown;
    showArticle();
    showReport(answer);
    byId("markdown").textContent = markdown;
    byId("source").hidden = false;
    setStatus(`Done: ${answer.article.wordCount} words in ${seconds(performance.now() - started)}, SEO score ${answer.seo.score}.`);
  } else if (name === "error") {
    showArticle();
    showProblem(payload as Problem);
    setStatus("Generation stopped with an error.");
  }
  return name === "done" || name === "error";
}

/** Send the request and show its stream, or why there is none. */
async function generate(key: string, signal: AbortSignal): Promise<void> {
  const started = performance.now();
  const response = await fetch("/api/v1/generate", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", "x-api-key": key },
    body: JSON.stringify(requestBody()),
    signal,
  });
  if (!response.ok || !response.body || !/^text\/event-stream/.test(response.headers.get("content-type") ?? "")) {
    placeholder("No article: the request was refused.");
    fold(false); // the fields to correct are in the form
    return showHttpError(response);
  }
  setStatus("Waiting for a free slot and the first words…");
  let finished = false;
  for await (const event of readSse(response.body)) finished = onEvent(event.event, event.data, started) || finished;
  if (!finished) showError("The stream ended early", "The server closed the connection before the article was finished.");
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

byId("copy").addEventListener("click", (event) => {
  const button = event.currentTarget as HTMLButtonElement;
  navigator.clipboard?.writeText(markdown).then(
    () => {
      button.textContent = "Copied";
      setTimeout(() => (button.textContent = "Copy Markdown"), 1500);
    },
    () => {},
  );
});

form.addEventListener("input", (event) => {
  if (event.target instanceof Element) event.target.removeAttribute("aria-invalid");
});

try {
  keyInput.value = sessionStorage.getItem(KEY_STORAGE) ?? "";
} catch {
  // storage off
}
