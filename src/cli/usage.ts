import { stripVTControlCharacters } from "node:util";
import { renderUsage } from "citty";
import { cliCommand, cliName } from "../invocation.js";
import type { AnyCommand } from "./check-args.js";

/**
 * Whether to colour what goes to this stream: only a terminal that has colours, which
 * Node decides from TERM, NO_COLOR and FORCE_COLOR. (citty colours its help unless
 * NO_COLOR is exactly "1", pipes included.)
 */
function colourful(stream: NodeJS.WriteStream = process.stdout): boolean {
  return Boolean(stream.isTTY) && stream.hasColors();
}

/** Help fits a terminal of this many columns. */
const HELP_COLUMNS = 80;
/** The widest flag column whose descriptions wrap under themselves; past it they wrap under the line's indent. */
const MAX_COLUMN = 50;

/**
 * `--help`: citty's usage, coloured only where {@link colourful}, each line fitted to
 * {@link HELP_COLUMNS}. The top level lists the commands; the serve flags it also accepts
 * (`inkpress --port 4000`) are shown by `serve --help`.
 */
export async function showUsage(command: AnyCommand, parent?: AnyCommand): Promise<void> {
  const top = !parent;
  // citty writes a flag's `default` as "(Default: md)"; the descriptions say "(default 800)": one style.
  let text = (await renderUsage(top ? { ...command, args: {} } : command, parent)).replaceAll("(Default: ", "(default ");
  if (top) text += `\nWithout a command, ${cliName()} runs serve; its flags: ${cliCommand("serve --help")}.`;
  const shown = colourful() ? text : stripVTControlCharacters(text);
  process.stdout.write(`${shown.split("\n").flatMap(fitLine).join("\n")}\n\n`);
}

const visible = (text: string) => stripVTControlCharacters(text).length;

/**
 * One help line as lines of at most {@link HELP_COLUMNS} visible characters (colour codes kept):
 * its words wrapped under the column its text starts in (a flag's description, after the flag
 * and two spaces or more).
 */
function fitLine(raw: string): string[] {
  const line = raw.trimEnd();
  if (visible(line) <= HELP_COLUMNS) return [line];
  const plain = stripVTControlCharacters(line);
  const gap = /^\s*\S.*?\s{2,}(?=\S)/.exec(plain)?.[0].length;
  const column = gap !== undefined && gap <= MAX_COLUMN ? gap : plain.length - plain.trimStart().length;
  // The head is the line up to that visible column, colour codes included.
  let end = 0;
  for (let seen = 0; seen < column; ) {
    const code = /^\x1b\[[0-9;]*m/.exec(line.slice(end));
    if (code) end += code[0].length;
    else {
      end++;
      seen++;
    }
  }
  const lines: string[] = [];
  let current = line.slice(0, end);
  let empty = true;
  // A list of names too long for a line (the top level's `serve|generate|…`) breaks after a `|`.
  const words = line
    .slice(end)
    .trim()
    .split(/\s+/)
    .flatMap((word) => (visible(word) > HELP_COLUMNS - column ? word.split(/(?<=\|)/) : [word]));
  let glued = false;
  for (const word of words) {
    const gap = glued ? "" : " ";
    if (!empty && visible(current) + gap.length + visible(word) > HELP_COLUMNS) {
      lines.push(current);
      current = " ".repeat(column);
      empty = true;
    }
    current += empty ? word : `${gap}${word}`;
    empty = false;
    glued = word.endsWith("|");
  }
  lines.push(current);
  return lines;
}
