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

/**
 * `--help`: citty's usage, coloured only where {@link colourful}. The top level lists the
 * commands; the serve flags it also accepts (`inkpress --port 4000`) are shown by `serve --help`.
 */
export async function showUsage(command: AnyCommand, parent?: AnyCommand): Promise<void> {
  const top = !parent;
  let text = await renderUsage(top ? { ...command, args: {} } : command, parent);
  if (top) text += `\nWithout a command, ${cliName()} runs serve; its flags: ${cliCommand("serve --help")}.`;
  process.stdout.write(`${colourful() ? text : stripVTControlCharacters(text)}\n\n`);
}
