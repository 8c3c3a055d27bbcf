/**
 * How the user runs the CLI, for hints that name a command: `npx inkpress …` through npx,
 * `npm run -s cli -- …` from a checkout (also under `npm start`, whose script only serves;
 * `-s` keeps npm's banner out of a piped key), plain `inkpress …` otherwise. npm names the running script in npm_lifecycle_event, and
 * what npx runs in npm_lifecycle_script (quoted).
 */
export function cliName(): string {
  const env = process.env;
  switch (env.npm_lifecycle_event) {
    case "npx":
      return /^'?inkpress\b/.test(env.npm_lifecycle_script ?? "") ? "npx inkpress" : "inkpress";
    case "cli":
    case "start":
      return "npm run -s cli --";
    default:
      return "inkpress";
  }
}

/** A command line to suggest, e.g. `cliCommand("keys create --name NAME")`. */
export function cliCommand(rest: string): string {
  return `${cliName()} ${rest}`;
}

/**
 * Where the user ran the command. npm runs a checkout's scripts (`npm start`, `npm run cli`)
 * in the package's folder and names the user's own in INIT_CWD: the CLI works from there, so
 * relative paths (`-o`, `--source`, `--model`, `models/`, `./data`) mean what they mean to
 * `inkpress` run in that folder.
 */
export function userDirectory(): string {
  const { npm_lifecycle_event: script, INIT_CWD: initial } = process.env;
  return (script === "cli" || script === "start") && initial ? initial : process.cwd();
}
