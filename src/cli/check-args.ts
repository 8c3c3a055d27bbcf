import type { ArgsDef, CommandDef, Resolvable } from "citty";
import { meantName } from "../did-you-mean.js";
import { cliCommand } from "../invocation.js";
import { UsageError } from "./fail.js";

/** A command of any arguments, as citty types subcommands. */
// biome-ignore lint/suspicious/noExplicitAny: citty types a command by its own args; any command of the CLI fits here.
export type AnyCommand = CommandDef<any>;

const resolve = <T>(value: Resolvable<T>): Promise<T> => Promise.resolve(typeof value === "function" ? (value as () => T)() : value);

/**
 * Refuse unknown flags and commands before anything runs, naming the nearest valid one:
 * citty parses leniently, so a typo such as `--lenght` would otherwise be ignored in silence.
 * Walks the command tree the way citty picks subcommands (the first word that is not a
 * flag or a flag's value).
 */
export async function checkArgs(command: AnyCommand, rawArgs: string[], path: string[] = []): Promise<void> {
  const args = await resolve(command.args ?? {});
  const subCommands = await resolve(command.subCommands);
  const flags = flagsOf(args);
  const given = new Set<string>();
  for (let i = 0; i < rawArgs.length; i++) {
    const token = rawArgs[i]!;
    if (token === "--") return;
    if (token.startsWith("-") && token !== "-") {
      const name = token.split("=", 1)[0]!;
      const takesValue = flags.get(name);
      // Flags of a command that runs a default subcommand are that one's (`inkpress --port 1` serves).
      if (takesValue === undefined)
        throw unknown("flag", name, [...flags.keys()], path.length || !command.default ? path : [await resolve(command.default)]);
      given.add(canonicalFlag(args, name));
      if (takesValue && !token.includes("=")) i++;
      continue;
    }
    if (!subCommands) continue; // a positional argument
    const sub = subCommands[token];
    if (!sub) throw unknown("command", token, Object.keys(subCommands), path);
    return checkArgs(await resolve(sub), rawArgs.slice(i + 1), [...path, token]);
  }
  if (!subCommands && !given.has("--help") && !given.has("-h")) assertRequired(args, given, path);
}

/** A required flag missing is one line with the command's usage, rather than the whole help page. */
function assertRequired(args: ArgsDef, given: Set<string>, path: string[]): void {
  const required = Object.entries(args).filter(([, def]) => def.type !== "positional" && def.type !== "boolean" && def.required);
  const missing = required.find(([name]) => !given.has(`--${name}`));
  if (!missing) return;
  const positionals = Object.entries(args).filter(([, def]) => def.type === "positional" && def.required !== false);
  const usage = [...positionals.map(([name]) => name.toUpperCase()), ...required.map(([name]) => `--${name} ${name.toUpperCase()}`)].join(
    " ",
  );
  throw new UsageError(
    `${path.join(" ")} needs --${missing[0]}; usage: ${cliCommand(`${path.join(" ")} ${usage}`)}, or see ${cliCommand([...path, "--help"].join(" "))}`,
  );
}

/** A flag by its own name: `-o` is `--out`. */
function canonicalFlag(args: ArgsDef, spelled: string): string {
  for (const [name, def] of Object.entries(args)) {
    const aliases = ["alias" in def ? (def.alias ?? []) : []].flat();
    if (aliases.some((alias) => spelled === (alias.length === 1 ? `-${alias}` : `--${alias}`))) return `--${name}`;
  }
  return spelled;
}

/** Every spelling a command accepts, and whether it takes the next word as its value. */
function flagsOf(args: ArgsDef): Map<string, boolean> {
  const flags = new Map<string, boolean>([
    ["--help", false],
    ["-h", false],
  ]);
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    const takesValue = def.type !== "boolean";
    flags.set(`--${name}`, takesValue);
    for (const alias of ["alias" in def ? (def.alias ?? []) : []].flat())
      flags.set(alias.length === 1 ? `-${alias}` : `--${alias}`, takesValue);
    if (def.type === "boolean") flags.set(`--no-${name}`, false);
  }
  return flags;
}

/** "unknown flag --lenght for generate; did you mean --length?", or where to find the valid ones. */
function unknown(kind: "flag" | "command", given: string, valid: string[], path: string[]): UsageError {
  const here = path.length ? ` for ${path.join(" ")}` : "";
  const meant = meantName(given, valid);
  const hint = meant ? `did you mean ${meant}?` : `see ${cliCommand([...path, "--help"].join(" "))}`;
  return new UsageError(`unknown ${kind} ${given}${here}; ${hint}`);
}
