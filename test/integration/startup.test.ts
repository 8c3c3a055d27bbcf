import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { HAS_STORIES_MODEL, STORIES_MODEL, runCli, startServer, testModel, type CliResult } from "../helpers/server.js";

/** A start-up failure is one clear line and a non-zero exit, never a stack trace. */
function expectOneLineFailure(result: CliResult, pattern: RegExp) {
  expect(result.code).not.toBe(0);
  const lines = `${result.stdout}${result.stderr}`.split("\n").filter((l) => l.trim());
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
  expect(lines[0]).not.toMatch(/\s+at\s+\S+\s+\(|node_modules/);
}

describe("start-up problems", () => {
  let model: string;
  let emptyDir: string;
  beforeAll(async () => {
    model = await testModel("plain");
    emptyDir = await mkdtemp(path.join(tmpdir(), "inkpress-empty-"));
  });
  const keys = { INKPRESS_API_KEYS: "startup-test-key-0123" };

  it("no model configured, models/ empty and no hub: says how to get one", async () => {
    await mkdir(path.join(emptyDir, "models"), { recursive: true });
    // A hub that cannot be reached (nothing listens on port 9 here): the first start cannot pull.
    const result = await runCli(["serve"], { ...keys, HF_ENDPOINT: "http://127.0.0.1:9/", MODEL_ENDPOINT: undefined }, emptyDir);
    expectOneLineFailure(result, /no model in .*models\/ and the model hub is unreachable.*inkpress models pull.*INKPRESS_MODEL/);
  });

  it("a model file that does not exist", async () => {
    expectOneLineFailure(
      await runCli(["serve", "--model", "/nonexistent/model.gguf"], keys),
      /model file not found: \/nonexistent\/model\.gguf/,
    );
  });

  it("a file that is not GGUF", async () => {
    const fake = path.join(emptyDir, "fake.gguf");
    await writeFile(fake, "this is not a model");
    expectOneLineFailure(await runCli(["serve", "--model", fake], keys), /not a GGUF model file/);
  });

  it("no API key configured", async () => {
    expectOneLineFailure(await runCli(["serve", "--model", model], {}), /no API key configured.*INKPRESS_API_KEYS/);
  });

  it("a port that is taken is an error, not a move to another port", async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const result = await runCli(["serve", "--model", model, "--port", String(port)], keys);
      expectOneLineFailure(result, new RegExp(`port ${port} on 127\\.0\\.0\\.1 is already in use`));
    } finally {
      blocker.close();
    }
  });

  it("a bad number in the configuration names the setting", async () => {
    expectOneLineFailure(
      await runCli(["serve", "--model", model], { ...keys, INKPRESS_THREADS: "many" }),
      /threads must be a whole number/,
    );
  });

  it("finds a model in models/ when none is configured", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-models-"));
    await mkdir(path.join(dir, "models"));
    await writeFile(path.join(dir, "models", "fake.gguf"), "GGUF but broken");
    // It picked models/fake.gguf: the failure names that file.
    const result = await runCli(["serve"], keys, dir);
    expectOneLineFailure(result, /models\/fake\.gguf/);
  });
});

describe("the model's name", () => {
  it("is the GGUF general.name, in the start-up line and /healthz", async () => {
    const server = await startServer(await testModel("plain"));
    try {
      expect(server.output()).toMatch(/model inkpress-test-tiny loaded/);
      expect(await (await fetch(`${server.url}/healthz`)).json()).toMatchObject({ model: "inkpress-test-tiny" });
    } finally {
      await server.stop();
    }
  });

  it.skipIf(!HAS_STORIES_MODEL)("is the file name when the GGUF has no general.name, never the architecture", async () => {
    const server = await startServer(STORIES_MODEL);
    try {
      expect(server.output()).toMatch(/model stories260K loaded/);
      expect(await (await fetch(`${server.url}/healthz`)).json()).toMatchObject({ model: "stories260K" });
    } finally {
      await server.stop();
    }
  });
});
