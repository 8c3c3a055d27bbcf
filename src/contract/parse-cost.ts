/**
 * What parsing Markdown will cost, read in one linear pass before the parser sees it. The
 * Markdown parser (micromark) does work that grows with the square of a few constructs, each
 * found by measuring: a setext underline (`=` or `-` under text) and a line that does not
 * continue every open blockquote or list item (a lazy line, or the block it starts) each
 * rewrite the document's whole event list, and an emphasis, strikethrough or bracket mark
 * that finds no partner scans back over its whole paragraph. 8,000 setext pairs (40 KB) took
 * 23 s, 4,000 lazy lines after one `>` 1.9 s, 8,000 `*a_` 16 s. Text whose counts pass
 * {@link PARSE_BUDGET} parses in about half a second at most, whatever its size within the
 * body limit; more is refused before parsing, naming what to change.
 */

/**
 * Work units one parse may cost, per kind (about half a second on a loaded machine; the costliest of 618 Markdown files read, a 72 KB rule
 * book, costs 16% of it).
 */
export const PARSE_BUDGET = 2_000_000;

/** The quadratic work a Markdown text asks of the parser, in units of {@link PARSE_BUDGET}. */
export interface ParseCost {
  /** Setext underlines and lines that leave a blockquote or list item open or end it, times the text's lines. */
  structure: number;
  /** Per paragraph (a run of lines between blank lines), its emphasis and bracket marks times those marks and its lines. */
  inline: number;
}

/** An ordered list item's marker at the start of a line's text (`1.`, `12)`), then a space or the end. */
export const ORDERED = /^\d{1,9}[.)](?=[ \t]|$)/u;

/** A line's blockquote markers, whether a list item starts after them, and the indent before its text. */
function lineShape(line: string): { quotes: number; item: boolean; indent: number; rest: string } {
  let i = 0;
  let quotes = 0;
  for (;;) {
    let j = i;
    while (line[j] === " " || line[j] === "\t") j++;
    if (line[j] !== ">") break;
    quotes++;
    i = j + 1;
  }
  let j = i;
  while (line[j] === " " || line[j] === "\t") j++;
  const rest = line.slice(j);
  const c = rest[0];
  const spaced = (at: number) => at === rest.length || rest[at] === " " || rest[at] === "\t";
  const item =
    ((c === "-" || c === "+" || c === "*") && spaced(1)) || (c !== undefined && c >= "0" && c <= "9" && ORDERED.test(rest.slice(0, 12)));
  return { quotes, item, indent: j - i, rest };
}

/** A line of only `=` or only `-` (spaces around): a setext underline under text. */
function isUnderline(rest: string): boolean {
  const trimmed = rest.trimEnd();
  if (!trimmed) return false;
  const c = trimmed[0];
  if (c !== "=" && c !== "-") return false;
  for (const d of trimmed) if (d !== c) return false;
  return true;
}

/** Emphasis and strikethrough runs (`*`, `_`, `~`, a run counted once) and brackets in a line. */
function marksIn(line: string): number {
  let marks = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === "[" || c === "]") marks++;
    else if ((c === "*" || c === "_" || c === "~") && line[i - 1] !== c) marks++;
  }
  return marks;
}

const FENCE = /^(`{3,}|~{3,})/u;

/**
 * The parse cost of Markdown, counted line by line in linear time. It reads blocks as the
 * parser would only roughly, always erring on the side of more: a line counts as lazy when it
 * has fewer `>` than the open quote or, after a list item, no marker and no indent; fenced
 * code is not read for marks (the parser never reads it as inline text).
 */
export function parseCost(text: string): ParseCost {
  let reshapes = 0;
  let lines = 0;
  let inline = 0;
  let marks = 0;
  let blockLines = 0;
  let openQuotes = 0;
  let listOpen = false;
  let previousBlank = true;
  let fence: string | undefined;
  const endBlock = () => {
    inline += marks * (marks + blockLines);
    marks = 0;
    blockLines = 0;
  };
  for (let start = 0; start <= text.length; lines++) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    const { quotes, item, indent, rest } = lineShape(text.slice(start, end));
    start = end + 1;
    // Blank as the parser reads it: nothing but spaces and tabs (lineShape skipped them).
    const blank = rest === "" || rest === "\r";
    if (blank) {
      if (quotes === 0) openQuotes = 0;
      endBlock();
      previousBlank = true;
      continue;
    }
    const fenced = FENCE.exec(rest)?.[1];
    if (fenced && (fence === undefined || (fenced[0] === fence[0] && fenced.length >= fence.length))) fence = fence ? undefined : fenced;
    else if (fence === undefined) marks += marksIn(rest);
    blockLines++;
    const lazy = quotes < openQuotes || (listOpen && !item && indent < 2);
    if (lazy || (!previousBlank && isUnderline(rest))) reshapes++;
    if (lazy && previousBlank) listOpen = false;
    if (item) listOpen = true;
    openQuotes = Math.max(openQuotes, quotes);
    previousBlank = false;
  }
  endBlock();
  return { structure: reshapes * lines, inline };
}

/** What makes Markdown too costly to parse, as words completing "… is", or undefined when it is within the budget. */
export function parseCostProblem(text: string): string | undefined {
  const cost = parseCost(text);
  if (cost.structure > PARSE_BUDGET)
    return (
      `too costly to parse: it has too many setext headings (a line of = or - under text) or lines that continue a blockquote or list item without its ` +
      `marker for its length; write headings with #, and start each quoted line with >`
    );
  if (cost.inline > PARSE_BUDGET)
    return (
      `too costly to parse: a paragraph has too many *, _, ~, [ or ] marks (about ${Math.floor(Math.sqrt(PARSE_BUDGET))} at most between blank lines); ` +
      `split it with blank lines or escape the marks with \\`
    );
  return undefined;
}
