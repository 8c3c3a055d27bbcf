/**
 * The playground's errors, shown in each form's one box right below its button (Generate,
 * Check): scrolled into view and focused, so whatever the screen's size the person sees
 * what went wrong where they pressed, and a screen reader says it (`role="alert"`).
 */
import type { Problem } from "../../../client/index.js";
import { byId, el } from "./dom.js";

/** A form's error box: its element with `role="alert"`. */
function box(form: HTMLFormElement): HTMLElement {
  const node = form.querySelector<HTMLElement>('[role="alert"]');
  if (!node) throw new Error(`The form #${form.id} has no error box.`);
  return node;
}

/** Show an error below a form's button: a heading, a sentence, and optionally a list and a link to its reference entry. */
export function showError(form: HTMLFormElement, title: string, detail?: string, items: string[] = [], href?: string): void {
  const errorBox = box(form);
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
  errorBox.scrollIntoView({ block: "nearest" });
  errorBox.focus({ preventScroll: true });
}

/**
 * A problem+json body, readable: status and title, detail, and the invalid fields marked in
 * the form (a control's name is the field's path; a list member's error, `links[2].url`,
 * marks the control of the whole list; a 401 marks the key, which both forms share).
 */
export function showProblem(form: HTMLFormElement, problem: Problem, retryAfter?: number): void {
  const status = Number(problem.status) || 0;
  const title = `${status ? `${status} ` : ""}${problem.title || "Error"}`;
  const detail = `${problem.detail ?? ""}${retryAfter !== undefined ? ` Retry in ${retryAfter} s.` : ""}`;
  const named = (name: string) => form.querySelector(`[name="${CSS.escape(name)}"]`);
  const items = (Array.isArray(problem.errors) ? problem.errors : []).map((error) => {
    (named(error.path) ?? named(error.path.replace(/\[.*$/, "")))?.setAttribute("aria-invalid", "true");
    return `${error.path}: ${error.message}`;
  });
  if (status === 401) byId("f-key").setAttribute("aria-invalid", "true");
  const type = typeof problem.type === "string" && /^\/docs#[a-z-]+$/.test(problem.type) ? problem.type : undefined;
  showError(form, title, detail, items, type);
}

/** Hide a form's error box until its next error. */
export function hideError(form: HTMLFormElement): void {
  box(form).hidden = true;
  box(form).replaceChildren();
}
