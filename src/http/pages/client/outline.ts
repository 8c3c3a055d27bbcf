/**
 * The playground's outline editor (playground-outline.ts): the headings of an outline answer
 * as a list to rename in place and reorder from the keyboard (each row's Up and Down buttons,
 * or Alt+ArrowUp/ArrowDown in its box). {@link editedOutline} reads it back as generate's
 * `outline` field: the headings as the person left them, each keeping its budget, kind and
 * keyword, so the budgets still add up to the length.
 */
import type { OutlineResponse, Problem } from "../../../client/index.js";
import { byId, el } from "./dom.js";

type Outline = OutlineResponse["outline"];
type Heading = Outline["headings"][number];

const editor = byId("outline-editor");
const list = byId<HTMLOListElement>("outline-list");
const titleInput = byId<HTMLInputElement>("outline-title");

/** The answered outline; each row's `data-index` is its heading's place in it. */
let planned: Outline | undefined;
/** Says a move aloud (the page's status line is a polite live region). */
let announce: (words: string) => void = () => {};

const rows = () => [...list.children] as HTMLLIElement[];
const headingInput = (row: Element) => row.querySelector("input")!;
const headingText = (row: Element) => headingInput(row).value.trim() || "untitled heading";

/** Name each row's box and buttons after its place and words, as a screen reader reads them. */
function relabel(): void {
  const all = rows();
  for (const [i, row] of all.entries()) {
    const level = row.classList.contains("h3") ? "H3" : "H2";
    headingInput(row).setAttribute("aria-label", `Heading ${i + 1} of ${all.length} (${level})`);
    const [up, down] = row.querySelectorAll("button");
    up!.setAttribute("aria-label", `Move “${headingText(row)}” up`);
    down!.setAttribute("aria-label", `Move “${headingText(row)}” down`);
  }
}

/** Move a row one place up (-1) or down (1), keeping the focus where it was. */
function move(row: HTMLLIElement, step: -1 | 1, focus: HTMLElement): void {
  const sibling = step < 0 ? row.previousElementSibling : row.nextElementSibling;
  if (!sibling) {
    announce(`“${headingText(row)}” is already ${step < 0 ? "first" : "last"}.`);
    return;
  }
  if (step < 0) sibling.before(row);
  else sibling.after(row);
  focus.focus();
  relabel();
  announce(`Moved “${headingText(row)}” to place ${rows().indexOf(row) + 1} of ${rows().length}.`);
}

function moveButton(row: HTMLLIElement, step: -1 | 1): HTMLButtonElement {
  const button = el("button", null, step < 0 ? "↑" : "↓");
  button.type = "button";
  button.addEventListener("click", () => move(row, step, button));
  return button;
}

/** One heading's row: its level, its words in a box, its budget and its move buttons. */
function headingRow(heading: Heading, index: number): HTMLLIElement {
  const row = el("li", `h${heading.level}`);
  row.dataset.index = String(index);
  const input = el("input");
  input.type = "text";
  input.value = heading.text;
  input.setAttribute("aria-describedby", "outline-hint");
  input.addEventListener("keydown", (event) => {
    if (!event.altKey || (event.key !== "ArrowUp" && event.key !== "ArrowDown")) return;
    event.preventDefault();
    move(row, event.key === "ArrowUp" ? -1 : 1, input);
  });
  input.addEventListener("input", () => input.removeAttribute("aria-invalid"));
  input.addEventListener("change", relabel);
  const level = el("span", "level", `H${heading.level}`);
  level.setAttribute("aria-hidden", "true");
  row.append(level, input, el("span", "budget", `${heading.words} words`), moveButton(row, -1), moveButton(row, 1));
  return row;
}

/** Show an outline answer to edit, focus its first heading, and say moves with `say`. */
export function showOutline(answer: OutlineResponse, say: (words: string) => void): void {
  planned = answer.outline;
  announce = say;
  titleInput.value = planned.title;
  const titles = [...new Set([planned.title, ...answer.alternatives.titles].filter(Boolean))];
  byId("outline-titles").replaceChildren(...titles.map((title) => Object.assign(el("option"), { value: title })));
  list.replaceChildren(...planned.headings.map(headingRow));
  relabel();
  editor.hidden = false;
  (list.querySelector("input") ?? titleInput).focus();
}

/**
 * The outline as edited, for a new request: the chosen title and the headings in their new
 * order and words (the boxes an earlier answer marked are unmarked); undefined when none is shown.
 */
export function editedOutline(): Outline | undefined {
  if (!planned || editor.hidden) return undefined;
  for (const box of editor.querySelectorAll("[aria-invalid]")) box.removeAttribute("aria-invalid");
  const headings = planned.headings;
  return {
    ...planned,
    title: titleInput.value.trim(),
    headings: rows().map((row) => ({ ...headings[Number(row.dataset.index)]!, text: headingInput(row).value.trim() })),
  };
}

/** Mark the boxes a 422 names (`outline.headings[2]` is the third row as it stands, `outline.title` the title). */
export function markOutlineErrors(problem: Problem): void {
  for (const error of Array.isArray(problem.errors) ? problem.errors : []) {
    const at = /^outline\.headings\[(\d+)\]/.exec(error.path);
    const row = at ? rows()[Number(at[1])] : undefined;
    if (row) headingInput(row).setAttribute("aria-invalid", "true");
    else if (error.path === "outline.title") titleInput.setAttribute("aria-invalid", "true");
  }
}

/** Put the outline away: the next article is written without one. */
export function discardOutline(): void {
  planned = undefined;
  editor.hidden = true;
  list.replaceChildren();
}

titleInput.addEventListener("input", () => titleInput.removeAttribute("aria-invalid"));
