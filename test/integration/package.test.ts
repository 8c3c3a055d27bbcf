import { execFile, spawn } from "node:child_process";
import { mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { ROOT, testModel } from "../helpers/server.js";

const run = promisify(execFile);

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

  it("runs `npx inkpress --help`", async () => {
    const { stdout } = await run("npx", ["--no", "--", "inkpress", "--help"], { cwd: installDir });
    expect(stdout).toMatch(/inkpress/);
    expect(stdout).toMatch(/serve/);
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
