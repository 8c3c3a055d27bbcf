/**
 * The CLI as a newcomer meets it, run as real processes: typos are errors that name the
 * nearest valid flag or command, help lists what there is (in colour only on a colour
 * terminal), and hints name the command the way the user ran it.
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createKey, keysCli, revokeKey, runInTerminal, tempKeysFile } from "../helpers/cli.js";
import { runCli } from "../helpers/server.js";

const ESCAPE = "\x1b[";

/** The lines of a help section ("OPTIONS", "COMMANDS"), without the blank ones. */
function section(help: string, title: string): string[] {
  const start = help.indexOf(`${title}\n`);
  if (start < 0) return [];
  const rest = help.slice(start + title.length + 1).replace(/^\n+/, "");
  return rest.slice(0, rest.search(/\n\n|$/)).split("\n");
}

describe("unknown flags and commands", () => {
  it("refuse a misspelt flag, naming it and the nearest valid one, before anything runs", async () => {
    const result = await runCli(["generate", "--topic", "Urban beekeeping", "--lenght", "300"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("inkpress: unknown flag --lenght for generate; did you mean --length?\n");
    expect(result.stdout).toBe("");
  });

  it("refuse a flag that is nothing like a valid one, pointing at the command's help", async () => {
    const result = await runCli(["generate", "--turbo", "--topic", "Urban beekeeping"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("inkpress: unknown flag --turbo for generate; see inkpress generate --help\n");
  });

  it("check the flags of nested commands, and write nothing when one is wrong", async () => {
    const keysFile = await tempKeysFile();
    const result = await keysCli(keysFile, ["create", "--nmae", "shop"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("inkpress: unknown flag --nmae for keys create; did you mean --name?\n");
    expect(existsSync(keysFile)).toBe(false);
  });

  it("refuse a misspelt command with the nearest one", async () => {
    const result = await runCli(["keys", "lsit"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("inkpress: unknown command lsit for keys; did you mean list?\n");
  });

  it("take `--no-` only for on/off flags, and values that look like flags", async () => {
    const negated = await runCli(["generate", "--no-topic", "x"]);
    expect(negated.stderr).toBe("inkpress: unknown flag --no-topic for generate; did you mean --topic?\n");
    // `-5` is the value of --length, not a flag: validation answers, as for the API.
    const valued = await runCli(["generate", "--no-heading-tags", "--topic", "x", "--length", "-5", "--model", "/nonexistent.gguf"]);
    expect(valued.code).toBe(1);
    expect(valued.stderr).toMatch(/^inkpress: invalid request: length: /);
  });
});

describe("help", () => {
  it("lists the commands at the top level, a line each (a long description goes on under itself), and leaves the server flags to `serve --help`", async () => {
    const result = await runCli(["--help"]);
    expect(result.code).toBe(0);
    const commands = section(result.stdout, "COMMANDS")
      .filter((line) => /^\s{0,7}\S/.test(line))
      .map((line) => line.trim().split(/\s{2,}/));
    expect(commands.map(([name]) => name)).toEqual([
      "serve",
      "generate",
      "outline",
      "plan",
      "batch",
      "analyse",
      "voice",
      "audit",
      "links",
      "refresh",
      "publish",
      "keys",
      "models",
    ]);
    for (const [, description] of commands) expect(description?.length).toBeGreaterThan(10);
    expect(result.stdout).not.toMatch(/--port/);
    expect(result.stdout).toMatch(/Without a command, inkpress runs serve; its flags: inkpress serve --help\./);
    const serve = await runCli(["serve", "--help"]);
    expect(section(serve.stdout, "OPTIONS").join("\n")).toMatch(/--port=<port>\s+Port to listen on/);
  });

  it.each([
    "serve",
    "generate",
    "batch",
    "refresh",
    "keys create",
    "keys list",
    "keys revoke",
    "keys rotate-secret",
    "models pull",
    "models list",
  ])("describes every option of %s", async (command) => {
    const result = await runCli([...command.split(" "), "--help"]);
    expect(result.code).toBe(0);
    const options = section(result.stdout, "OPTIONS");
    expect(options.length).toBeGreaterThan(0);
    // A description too long for 80 columns goes on under itself, indented.
    for (const line of options) expect(line, `no description: ${line}`).toMatch(/^\s+-\S*.*?\s{2,}\S|^\s{8,}\S/);
  });

  it("says what --no-heading-tags does", async () => {
    const result = await runCli(["generate", "--help"]);
    expect(section(result.stdout, "OPTIONS").find((line) => line.includes("--no-heading-tags"))).toMatch(
      /--no-heading-tags\s+No headings at all/,
    );
  });

  it("is plain text when piped, in colour on a terminal, and plain on a terminal with NO_COLOR", async () => {
    const piped = await runCli(["--help"], { NO_COLOR: undefined, CI: undefined, TEST: undefined });
    expect(piped.stdout).not.toContain(ESCAPE);
    const terminal = await runInTerminal(["--help"], { NO_COLOR: undefined, CI: undefined, TEST: undefined });
    expect(terminal.code).toBe(0);
    expect(terminal.output).toContain(ESCAPE);
    expect(terminal.output).toMatch(/COMMANDS/);
    const noColor = await runInTerminal(["--help"], { NO_COLOR: "yes", CI: undefined, TEST: undefined });
    expect(noColor.output).toMatch(/COMMANDS/);
    expect(noColor.output).not.toContain(ESCAPE);
  });
});

describe("hints", () => {
  it("name the command the way it was run, and `keys list` tells no keys yet from all revoked", async () => {
    const keysFile = await tempKeysFile();
    const fresh = await keysCli(keysFile, ["list"], { npm_lifecycle_event: "npx", npm_lifecycle_script: "inkpress" });
    expect(fresh.code).toBe(0);
    expect(fresh.stdout).toBe("no keys yet; create one with npx inkpress keys create --name NAME\n");

    await createKey(keysFile, "shop");
    await revokeKey(keysFile, "shop");
    const revoked = await keysCli(keysFile, ["list"], { npm_lifecycle_event: "cli" });
    expect(revoked.stdout).toBe("no active keys: every key was revoked; create one with npm run -s cli -- keys create --name NAME\n");
    const plain = await keysCli(keysFile, ["list"]);
    expect(plain.stdout).toMatch(/create one with inkpress keys create/);
  });

  it("name the help the same way in a typo's error", async () => {
    const result = await runCli(["models", "list", "--turbo"], { npm_lifecycle_event: "cli" });
    expect(result.stderr).toBe("inkpress: unknown flag --turbo for models list; see npm run -s cli -- models list --help\n");
  });
});
