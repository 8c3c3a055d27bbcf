/**
 * How deeply Markdown or HTML nests, read in one pass before any parser sees it: the parsers
 * and every walk over their trees recurse once per level (thousands of levels overflow the
 * stack) and take time growing with the square of the depth, so text nested deeper than
 * {@link MAX_NESTING} levels is refused before it is parsed. Both readings are upper bounds
 * of the depth the parser builds, tight for what articles hold.
 */
import { InvalidFieldError } from "../errors.js";
import { htmlShape, reopenProblem } from "./html-shape.js";
import { ORDERED, parseCostProblem } from "./parse-cost.js";

/** Deepest nesting of Markdown or HTML that inkpress reads: far more than any article holds. */
export const MAX_NESTING = 128;

/**
 * Container markers (`>`, list bullets, ordered list numbers) at a line's start, the indent
 * before a nested list item (each level needs two columns) and the longest run of emphasis
 * or bracket characters (`**…` nests a level per two, `[[…` one per bracket). A line that is
 * only such a run is a rule or a heading underline, not nesting. Stops once over `limit`.
 */
export function markdownDepth(text: string, limit = MAX_NESTING): number {
  let deepest = 0;
  let start = 0;
  while (start <= text.length && deepest <= limit) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    const line = text.slice(start, end);
    deepest = Math.max(deepest, containerDepth(line), runDepth(line));
    start = end + 1;
  }
  return deepest;
}

function containerDepth(line: string): number {
  let depth = 0;
  let i = 0;
  let indent = -1;
  for (;;) {
    const from = i;
    while (line[i] === " " || line[i] === "\t") i++;
    if (indent < 0) indent = i - from;
    const c = line[i];
    if (c === ">") i++;
    else if ((c === "-" || c === "+" || c === "*") && (i + 1 === line.length || line[i + 1] === " " || line[i + 1] === "\t")) i++;
    else if (c !== undefined && c >= "0" && c <= "9" && ORDERED.test(line.slice(i, i + 12)))
      i += ORDERED.exec(line.slice(i, i + 12))![0].length;
    else break;
    depth++;
  }
  return depth === 0 ? 0 : depth + Math.floor(indent / 2);
}

function runDepth(line: string): number {
  if (/^\s*([*_~[])\1*\s*$/u.test(line)) return 0;
  let deepest = 0;
  for (let i = 0; i < line.length; ) {
    const c = line[i]!;
    let j = i + 1;
    if (c === "*" || c === "_" || c === "~" || c === "[") while (line[j] === c) j++;
    if (j - i > 1) deepest = Math.max(deepest, c === "[" ? j - i : Math.floor((j - i) / 2));
    i = j;
  }
  return deepest;
}

/** What keeps Markdown or HTML from being parsed, as words completing "… is": nested too deeply, or too costly to parse. */
function readProblem(text: string, format: "markdown" | "html"): string | undefined {
  // A schema's check and its message read the same text one after the other: the second reading is the first's.
  if (last?.text === text && last.format === format) return last.problem;
  let problem: string | undefined;
  if (format === "html") {
    const shape = htmlShape(text, MAX_NESTING);
    // Reopened elements are named as the cause, even when they are what nests too deep.
    problem = reopenProblem(shape, MAX_NESTING) ?? (shape.depth > MAX_NESTING ? nestingProblem(format) : undefined);
  } else problem = markdownDepth(text) > MAX_NESTING ? nestingProblem(format) : parseCostProblem(text);
  last = { text, format, problem };
  return problem;
}

let last: { text: string; format: "markdown" | "html"; problem: string | undefined } | undefined;

/** Whether Markdown or HTML can be parsed: nested no deeper than {@link MAX_NESTING}, and within the parse budget (a schema's check). */
export const withinNesting = (format: "markdown" | "html") => (text: string) => readProblem(text, format) === undefined;

/** What is wrong with text nested too deeply, in a few words; given the text, what keeps it from being parsed. */
export const nestingProblem = (format: "markdown" | "html", text?: string) =>
  (text === undefined ? undefined : readProblem(text, format)) ??
  `nested deeper than ${MAX_NESTING} levels (${format === "html" ? "elements" : "blockquotes, lists, emphasis or brackets"}); inkpress reads at most ` +
    `${MAX_NESTING}`;

/** Refuse Markdown or HTML that cannot be parsed safely ({@link readProblem}): a 422 naming `field`. */
export function assertNesting(text: string, format: "markdown" | "html", field: string): void {
  const problem = readProblem(text, format);
  if (problem === undefined) return;
  throw new InvalidFieldError(field, problem, `${field}: ${problem}`);
}
