// What a newcomer meets first, through the real CLI: help that fits 80 columns and names every
// preset, one line for a missing flag, models that are not GGUF marked, and a missing key said
// before any model download, in the words of the command the user ran.
import { copyFile, mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PRESETS } from "../../src/contract/presets.js";
import { tempKeysFile } from "../helpers/cli.js";
import { freePort } from "../helpers/port.js";
import { STORIES_MODEL, runCli, testModel } from "../helpers/server.js";

describe("help", () => {
  it.each(["", "serve", "generate", "batch", "keys", "keys create", "models", "models pull"])(
    "inkpress %s --help fits 80 columns",
    async (command) => {
      const result = await runCli([...(command ? command.split(" ") : []), "--help"]);
      expect(result.code).toBe(0);
      for (const line of result.stdout.split("\n")) expect(line.length, line).toBeLessThanOrEqual(80);
    },
  );

  it.each(["serve", "generate", "batch", "keys create", "models pull", "models list"])(
    "inkpress %s --help says defaults one way: 'default X'",
    async (command) => {
      const help = (await runCli([...command.split(" "), "--help"])).stdout.replace(/\s+/g, " ");
      expect(help).toMatch(/(\(|, )default \S/);
      expect(help).not.toMatch(/Default:|default:/);
    },
  );

  it("generate --help names every preset and takes --gpu and --gpu-layers like serve", async () => {
    const help = (await runCli(["generate", "--help"])).stdout.replace(/\s+/g, " ");
    for (const preset of PRESETS) expect(help).toContain(preset);
    expect(help).toMatch(/--gpu=<gpu> Where a local model runs: auto, cuda, vulkan, metal, off/);
    expect(help).toMatch(/--gpu-layers=<gpu_layers> Model layers to offload to the GPU/);
  });
});

describe("mistakes", () => {
  it("keys create without --name is one inkpress: line with the usage", async () => {
    const result = await runCli(["keys", "create"], { INKPRESS_KEYS_FILE: await tempKeysFile() });
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr.trim().split("\n")).toEqual([
      "inkpress: keys create needs --name; usage: inkpress keys create --name NAME, or see inkpress keys create --help",
    ]);
  });

  it("models list marks a .gguf file that is not a GGUF model", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-models-"));
    const model = await testModel("plain");
    await writeFile(path.join(dir, "broken.gguf"), "<html>Not found</html>");
    await copyFile(model, path.join(dir, "good.gguf"));
    const result = await runCli(["models", "list", "--dir", dir]);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^broken\.gguf +0\.0 MB {2}\(not a GGUF model file \(it starts with "<html>Not found<"\): cannot be used\)$/);
    expect(lines[1]).toMatch(/^good\.gguf +[\d.]+ MB$/);
  });

  it("npx inkpress with no key, offline and no model: the key is asked for first, as npx inkpress, and nothing is downloaded", async () => {
    const cwd = await mkdtemp(path.join(tmpdir(), "inkpress-first-"));
    await mkdir(path.join(cwd, "models"));
    const hub = `http://127.0.0.1:${await freePort()}/`;
    const result = await runCli(
      [],
      { npm_lifecycle_event: "npx", npm_lifecycle_script: "inkpress", HF_ENDPOINT: hub, MODEL_ENDPOINT: undefined },
      cwd,
    );
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      "inkpress: no API key configured: create one with `npx inkpress keys create --name NAME`, or set INKPRESS_API_KEYS",
    ]);
    expect(await readdir(path.join(cwd, "models"))).toEqual([]);
  });

  it("a short INKPRESS_API_KEYS entry is refused before the model is even looked at", async () => {
    const result = await runCli(["serve", "--model", STORIES_MODEL], { INKPRESS_API_KEYS: "secret" });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^inkpress: INKPRESS_API_KEYS entry 1 is 6 characters long; a key needs at least 16/);
  });
});
