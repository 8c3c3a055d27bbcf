/**
 * The playground's outline editor (playground-outline.ts): the headings of an outline answer
 * as a list to rename in place, reorder from the keyboard (each row's Up and Down buttons,
 * or Alt+ArrowUp/ArrowDown in its box), add and remove. {@link editedOutline} reads it back as
 * generate's `outline` field: the headings as the person left them, each keeping its kind and
 * keyword. Budgets move with the headings so they still add up to the length: a new heading
 * takes half of the one it follows (or of the largest), a removed one's are shared among the others.
 */
import type { OutlineResponse, Problem } from "../../../client/index.js";
import { SECTION_MIN_WORDS } from "../../../article/plan/limits.js";
import { byId, el } from "./dom.js";

type Outline = OutlineResponse["outline"];
type Heading = Outline["headings"][number];

const editor = byId("outline-editor");
const list = byId<HTMLOListElement>("outline-list");
const titleInput = byId<HTMLInputElement>("outline-title");

/** The answered outline, its introduction's budget as edited. */
let planned: Outline | undefined;
/** Each row's heading: its budget as edited (the text is read from its box). */
const headingOf = new Map<HTMLLIElement, Heading>();
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
    const [up, down, add, remove] = row.querySelectorAll("button");
    up!.setAttribute("aria-label", `Move “${headingText(row)}” up`);
    down!.setAttribute("aria-label", `Move “${headingText(row)}” down`);
    add!.setAttribute("aria-label", `Add a heading after “${headingText(row)}”`);
    remove!.setAttribute("aria-label", `Remove “${headingText(row)}”`);
    row.querySelector(".budget")!.textContent = `${headingOf.get(row)!.words} words`;
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

/** A new heading after a row, at its level, with half the words of the row (or, when that leaves too few, of the largest). */
function add(row: HTMLLIElement): void {
  const all = rows();
  const donor =
    headingOf.get(row)!.words >= 2 * SECTION_MIN_WORDS
      ? row
      : all.reduce((a, b) => (headingOf.get(b)!.words > headingOf.get(a)!.words ? b : a));
  const from = headingOf.get(donor)!;
  const words = Math.floor(from.words / 2);
  from.words -= words;
  const added = headingRow({ level: headingOf.get(row)!.level, text: "", words });
  row.after(added);
  relabel();
  headingInput(added).focus();
  announce(`Added a heading after “${headingText(row)}” with ${words} words from “${headingText(donor)}”. Type its words.`);
}

/** Remove a row, its words shared among the other headings that hold prose (so none passes a section's limit); the last heading stays. */
function remove(row: HTMLLIElement): void {
  const all = rows();
  if (all.length === 1) {
    announce("An outline keeps at least one heading.");
    return;
  }
  const words = headingOf.get(row)!.words;
  const others = all.filter((other) => other !== row && headingOf.get(other)!.words > 0);
  for (const [i, other] of others.entries())
    headingOf.get(other)!.words += Math.floor(words / others.length) + (i < words % others.length ? 1 : 0);
  if (!others.length) planned!.introduction += words;
  const focus = (row.previousElementSibling ?? row.nextElementSibling) as HTMLLIElement;
  const name = headingText(row);
  row.remove();
  headingOf.delete(row);
  relabel();
  headingInput(focus).focus();
  announce(`Removed “${name}”; its ${words} words were shared among the other headings.`);
}

function button(text: string, press: (button: HTMLButtonElement) => void): HTMLButtonElement {
  const node = el("button", null, text);
  node.type = "button";
  node.addEventListener("click", () => press(node));
  return node;
}

/** One heading's row: its level, its words in a box, its budget and its move, add and remove buttons. */
function headingRow(heading: Heading): HTMLLIElement {
  const row = el("li", `h${heading.level}`);
  headingOf.set(row, { ...heading });
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
  row.append(
    level,
    input,
    el("span", "budget", `${heading.words} words`),
    button("↑", (up) => move(row, -1, up)),
    button("↓", (down) => move(row, 1, down)),
    button("+", () => add(row)),
    button("×", () => remove(row)),
  );
  return row;
}

/** Show an outline answer to edit, focus its first heading, and say moves with `say`. */
export function showOutline(answer: OutlineResponse, say: (words: string) => void): void {
  planned = { ...answer.outline };
  announce = say;
  headingOf.clear();
  titleInput.value = planned.title;
  const titles = [...new Set([planned.title, ...answer.alternatives.titles].filter(Boolean))];
  byId("outline-titles").replaceChildren(...titles.map((title) => Object.assign(el("option"), { value: title })));
  list.replaceChildren(...planned.headings.map((heading) => headingRow(heading)));
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
  return {
    ...planned,
    title: titleInput.value.trim(),
    headings: rows().map((row) => ({ ...headingOf.get(row)!, text: headingInput(row).value.trim() })),
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
  headingOf.clear();
}

titleInput.addEventListener("input", () => titleInput.removeAttribute("aria-invalid"));
