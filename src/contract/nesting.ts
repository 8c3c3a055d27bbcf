/**
 * How deeply Markdown or HTML nests, read in one pass before any parser sees it: the parsers
 * and every walk over their trees recurse once per level (thousands of levels overflow the
 * stack) and take time growing with the square of the depth, so text nested deeper than
 * {@link MAX_NESTING} levels is refused before it is parsed. Both readings are upper bounds
 * of the depth the parser builds, tight for what articles hold.
 */
import { InvalidFieldError } from "../errors.js";
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

/** Elements that never hold others. */
const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
  "param",
  "keygen",
]);
/** Elements whose content is text up to their end tag, never tags. */
const RAW = new Set(["script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "plaintext"]);
/** Start tags that close an open `<p>` (HTML's "close a p element"). */
const CLOSES_P = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "details",
  "div",
  "dl",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "main",
  "menu",
  "nav",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "ul",
  "li",
  "dd",
  "dt",
]);
/** Elements an open one of the same kinds ends (a new `<li>` ends the last one). */
const SIBLINGS: Record<string, readonly string[]> = {
  li: ["li"],
  dt: ["dt", "dd"],
  dd: ["dt", "dd"],
  tr: ["tr", "td", "th"],
  td: ["td", "th"],
  th: ["td", "th"],
  option: ["option"],
};
/** A tag read by {@link nextTag}: its name (lower case), whether it ends an element or closes itself, and where it ends. */
interface Tag {
  name: string;
  end: boolean;
  selfClosing: boolean;
  after: number;
}

const isLetter = (c: string | undefined) => c !== undefined && ((c >= "a" && c <= "z") || (c >= "A" && c <= "Z"));
const endsName = (c: string) => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\f" || c === "/" || c === ">";

/**
 * The next start or end tag from `from`, comments skipped, read by one forward scan (no
 * backtracking: a backtracking tag pattern took time growing with the cube of `<a<a<a…`). A
 * name runs to a space, `/` or `>`; the tag ends at the next `>`. Without a `>` left no tag
 * can follow, so the scan ends there.
 */
function nextTag(text: string, from: number): Tag | undefined {
  for (let at = text.indexOf("<", from); at >= 0; at = text.indexOf("<", at + 1)) {
    if (text.startsWith("<!--", at)) {
      const close = text.indexOf("-->", at + 4);
      if (close < 0) return undefined;
      at = close + 2;
      continue;
    }
    const end = text[at + 1] === "/";
    const start = at + (end ? 2 : 1);
    if (!isLetter(text[start])) continue;
    let stop = start + 1;
    while (stop < text.length && !endsName(text[stop]!)) stop++;
    const gt = text.indexOf(">", stop);
    if (gt < 0) return undefined;
    return { name: text.slice(start, stop).toLowerCase(), end, selfClosing: gt > stop && text[gt - 1] === "/", after: gt + 1 };
  }
  return undefined;
}

/**
 * The open elements as HTML's tree builder keeps them: void elements never open, an end tag
 * closes up to the element it names (an end tag naming none is ignored), a new paragraph,
 * list item, row or cell ends the open one, raw text (`<script>`, `<style>`…) is skipped,
 * and `/>` closes only inside SVG and MathML. One pass, time linear in the text (the open
 * elements stay under `limit`); stops once over `limit`.
 */
export function htmlDepth(text: string, limit = MAX_NESTING): number {
  const open: string[] = [];
  let deepest = 0;
  for (let tag = nextTag(text, 0); tag && deepest <= limit; tag = nextTag(text, tag.after)) {
    const { name } = tag;
    if (tag.end) {
      const at = open.lastIndexOf(name);
      if (at >= 0) open.length = at;
      continue;
    }
    if (VOID.has(name) || (tag.selfClosing && (open.includes("svg") || open.includes("math")))) continue;
    if (CLOSES_P.has(name) && open.at(-1) === "p") open.pop();
    if (SIBLINGS[name]?.includes(open.at(-1)!)) open.pop();
    if (RAW.has(name)) {
      // A literal search, from the tag on: each raw element's text is read once.
      const close = new RegExp(`</${name}`, "giu");
      close.lastIndex = tag.after;
      tag.after = close.exec(text)?.index ?? text.length;
      continue;
    }
    open.push(name);
    deepest = Math.max(deepest, open.length);
  }
  return deepest;
}

/** What keeps Markdown or HTML from being parsed, as words completing "… is": nested too deeply, or (Markdown) too costly to parse. */
function readProblem(text: string, format: "markdown" | "html"): string | undefined {
  // A schema's check and its message read the same text one after the other: the second reading is the first's.
  if (last?.text === text && last.format === format) return last.problem;
  const problem =
    (format === "html" ? htmlDepth(text) : markdownDepth(text)) > MAX_NESTING
      ? nestingProblem(format)
      : format === "markdown"
        ? parseCostProblem(text)
        : undefined;
  last = { text, format, problem };
  return problem;
}

let last: { text: string; format: "markdown" | "html"; problem: string | undefined } | undefined;

/** Whether Markdown or HTML can be parsed: nested no deeper than {@link MAX_NESTING}, and (Markdown) within the parse budget (a schema's check). */
export const withinNesting = (format: "markdown" | "html") => (text: string) => readProblem(text, format) === undefined;

/** What is wrong with text nested too deeply, in a few words; given the text, what keeps it from being parsed. */
export const nestingProblem = (format: "markdown" | "html", text?: string) =>
  (text === undefined ? undefined : readProblem(text, format)) ??
  `nested deeper than ${MAX_NESTING} levels (${format === "html" ? "elements" : "blockquotes, lists, emphasis or brackets"}); inkpress reads at most ${MAX_NESTING}`;

/** Refuse Markdown or HTML that cannot be parsed safely ({@link readProblem}): a 422 naming `field`. */
export function assertNesting(text: string, format: "markdown" | "html", field: string): void {
  const problem = readProblem(text, format);
  if (problem === undefined) return;
  throw new InvalidFieldError(field, problem, `${field}: ${problem}`);
}
