import { execFile, spawn } from "node:child_process";
import { mkdtemp, readFile, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { CLEAN_ENV, ROOT, testModel } from "../helpers/server.js";

const run = promisify(execFile);

/** `npx inkpress …` in the install folder as a person runs it: piped, colour not switched off by us, no keys of the developer's. */
async function npx(cwd: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = { ...process.env, ...CLEAN_ENV, NO_COLOR: undefined, CI: undefined, TEST: undefined, ...env };
  const options = {
    cwd,
    env: Object.fromEntries(Object.entries<string | undefined>(clean).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  };
  const result = await run("npx", ["--no", "--", "inkpress", ...args], options).then(
    (done) => ({ code: 0, ...done }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
  // npm's own warnings about the machine's npm configuration are not the CLI's output.
  return { ...result, stderr: result.stderr.replace(/^npm warn .*\n/gm, "") };
}

// What `npx inkpress` gets: the packed tarball, installed into an empty folder.
describe("the npm package", () => {
  let installDir: string;
  let bin: string;

  beforeAll(async () => {
    const packDir = await mkdtemp(path.join(tmpdir(), "inkpress-pack-"));
    await run("npm", ["pack", "--pack-destination", packDir], { cwd: ROOT });
    const tarball = path.join(packDir, (await readdir(packDir)).find((f) => f.endsWith(".tgz"))!);
    installDir = await mkdtemp(path.join(tmpdir(), "inkpress-install-"));
    await run("npm", ["init", "-y"], { cwd: installDir });
    await run("npm", ["install", "--no-audit", "--no-fund", tarball], { cwd: installDir });
    bin = path.join(installDir, "node_modules/.bin/inkpress");
  }, 600_000);

  it("holds built JavaScript, not the TypeScript sources", async () => {
    const files = await readdir(path.join(installDir, "node_modules/inkpress/dist/cli"));
    expect(files).toContain("main.js");
    expect(files.some((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))).toBe(false);
  });

  it("carries the MIT licence", async () => {
    const licence = await readFile(path.join(installDir, "node_modules/inkpress/LICENSE"), "utf8");
    expect(licence).toMatch(/^MIT License\n/);
    const manifest = JSON.parse(await readFile(path.join(installDir, "node_modules/inkpress/package.json"), "utf8"));
    expect(manifest.license).toBe("MIT");
  });

  it("runs `npx inkpress --help`: the commands, one line each, in plain text when piped", async () => {
    const { stdout } = await npx(installDir, ["--help"]);
    expect(stdout).not.toContain("\x1b[");
    expect(stdout).toMatch(/USAGE npx inkpress serve\|generate\|batch\|keys\|models/);
    for (const command of ["serve", "generate", "batch", "keys", "models"]) expect(stdout).toMatch(new RegExp(`^ +${command} {2,}\\S`, "m"));
    expect(stdout).not.toMatch(/--port/);
  });

  it("runs `npx inkpress generate`: progress on stderr, the article on stdout; a typo is named, with the flag meant", async () => {
    const model = await testModel("plain");
    const generate = ["generate", "--model", model, "--threads", "1", "--topic", "Urban beekeeping", "--length", "150"];
    const { stdout, stderr } = await npx(installDir, generate);
    expect(stdout).toMatch(/^# .+\n\n/);
    expect(stderr).toMatch(/^loading model tiny-plain\.gguf … [\d.]+ [kM]B\nplanning outline\nwriting ".+": \d+ headings?, about 150 words\n/);
    expect(stderr).toMatch(/\ndone: \d+ words in [\d.]+ s, SEO score \d+\n$/);
    const typo = await npx(installDir, [...generate, "--lenght", "300"]);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toBe("inkpress: unknown flag --lenght for generate; did you mean --length?\n");
  });

  it("names itself `npx inkpress` in hints when run through npx", async () => {
    const { stdout } = await npx(installDir, ["keys", "list"], { INKPRESS_KEYS_FILE: path.join(installDir, "none.json") });
    expect(stdout).toBe("no keys yet; create one with npx inkpress keys create --name NAME\n");
  });

  it("starts `inkpress serve`, answers /healthz, and stops cleanly on SIGTERM", async () => {
    const model = await testModel("plain");
    const child = spawn(bin, ["serve", "--model", model, "--port", "0", "--threads", "1"], {
      cwd: installDir,
      env: { ...process.env, INKPRESS_API_KEYS: "package-test-key", INKPRESS_KEYS_FILE: path.join(installDir, "keys.json") },
    });
    let output = "";
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const url = await new Promise<string>((resolve, reject) => {
      const onData = (d: Buffer) => {
        output += d;
        const match = output.match(/listening on (http:\/\/\S+)/);
        if (match && /model .* loaded/.test(output)) resolve(match[1]!);
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      exited.then((code) => reject(new Error(`exited ${code}: ${output}`)));
    });
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", model: "inkpress-test-tiny" });
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
