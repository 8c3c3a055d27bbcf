/**
 * A playground form as a request body: every control with a `name` is the field of the body
 * at that dotted path, so a new request field is a new control in the page, not new code.
 */
import { linksFromText, sourcesFromText } from "./grounding.js";

/** A control the forms read. */
type Control = HTMLInputElement | HTMLTextAreaElement;

/** The value a control sends, or undefined for none. */
function controlValue(control: Control): unknown {
  if (control instanceof HTMLInputElement && control.type === "checkbox") return control.checked;
  const raw = control.value.trim();
  if (control.dataset.list === "lines")
    return raw
      ? raw
          .split(/\r?\n/)
          .map((line) => line.trim())
          .filter(Boolean)
      : undefined;
  if (raw === "") return undefined;
  if (control.dataset.list === "sources") return sourcesFromText(raw);
  if (control.dataset.list === "links") return linksFromText(raw);
  if (control.dataset.list === "json") return JSON.parse(raw) as unknown;
  return control instanceof HTMLInputElement && control.type === "number" ? Number(raw) : raw;
}

/**
 * The request body from a form: every control with a `name` is the field of the body at
 * that dotted path (`seo.keywords`). A checkbox sends a boolean (always), a number input a
 * number, a control marked `data-list="lines"` a list of its non-empty lines, one marked
 * `data-list="sources"` or `"links"` the objects its text describes (client/grounding.ts),
 * one marked `data-list="json"` the value its JSON holds (a learnt voice); a disabled control
 * nothing; other text is sent trimmed, or left out when empty. The key has no name: it goes in a header.
 */
export function requestBody(form: HTMLFormElement): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const control of form.querySelectorAll<Control>("input[name], textarea[name]")) {
    // A control standing in for another of the same name (a learnt voice for the note) is disabled while not in use.
    if (control.disabled) continue;
    const value = controlValue(control);
    if (value === undefined) continue;
    const path = control.name.split(".");
    let parent = body;
    for (const key of path.slice(0, -1)) parent = (parent[key] ??= {}) as Record<string, unknown>;
    parent[path.at(-1)!] = value;
  }
  return body;
}

/** The names of the required controls left empty (each as the person reads it), each marked invalid. */
export function missingFields(required: ReadonlyArray<[control: Control, name: string]>): string[] {
  const missing = required.filter(([control]) => !control.value.trim());
  for (const [control] of missing) control.setAttribute("aria-invalid", "true");
  return missing.map(([, name]) => name);
}

/** Unmark a form's invalid controls. */
export function clearInvalid(form: HTMLFormElement): void {
  for (const input of form.querySelectorAll("[aria-invalid]")) input.removeAttribute("aria-invalid");
}
