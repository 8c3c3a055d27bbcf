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

/**
 * `--help`: citty's usage, coloured only where {@link colourful}, and fitted to
 * {@link HELP_COLUMNS} (without colour then, since citty pads its table to the longest line).
 * The top level lists the commands; the serve flags it also accepts (`inkpress --port 4000`)
 * are shown by `serve --help`.
 */
export async function showUsage(command: AnyCommand, parent?: AnyCommand): Promise<void> {
  const top = !parent;
  let text = await renderUsage(top ? { ...command, args: {} } : command, parent);
  if (top) text += `\nWithout a command, ${cliName()} runs serve; its flags: ${cliCommand("serve --help")}.`;
  const plain = stripVTControlCharacters(text);
  const fitted = plain.split("\n").flatMap((line) => fitLine(line.trimEnd())).join("\n");
  const fits = plain.split("\n").every((line) => line.trimEnd().length <= HELP_COLUMNS);
  process.stdout.write(`${colourful() && fits ? text : fitted}\n\n`);
}

/**
 * One help line as lines of at most {@link HELP_COLUMNS}: its words wrapped under the column
 * its text starts in (a flag's description, after the flag and two spaces or more).
 */
function fitLine(line: string): string[] {
  if (line.length <= HELP_COLUMNS) return [line];
  const gap = /^\s*\S.*?\s{2,}(?=\S)/.exec(line)?.[0].length;
  const column = gap !== undefined && gap <= HELP_COLUMNS / 2 ? gap : line.length - line.trimStart().length;
  const lines: string[] = [];
  let current = line.slice(0, column);
  let empty = true;
  for (const word of line.slice(column).trim().split(/\s+/)) {
    if (!empty && current.length + 1 + word.length > HELP_COLUMNS) {
      lines.push(current);
      current = " ".repeat(column);
      empty = true;
    }
    current += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(current);
  return lines;
}
