/**
 * Every value of a flag that may be given more than once (`--avoid a --avoid b`,
 * `--avoid=c`), in order: citty keeps only the last one. Nothing after `--` is a flag.
 */
export function repeatedFlag(rawArgs: readonly string[], name: string): string[] {
  const values: string[] = [];
  const flag = `--${name}`;
  for (let i = 0; i < rawArgs.length; i++) {
    const token = rawArgs[i]!;
    if (token === "--") break;
    if (token === flag && i + 1 < rawArgs.length) values.push(rawArgs[++i]!);
    else if (token.startsWith(`${flag}=`)) values.push(token.slice(flag.length + 1));
  }
  return values;
}
