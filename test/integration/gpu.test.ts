import { getLlamaGpuTypes } from "node-llama-cpp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli, startServer, testModel, type CliResult, type TestServer } from "../helpers/server.js";

// `--gpu` on the machine the suite runs on, through the real CLI. On a machine without a GPU,
// `auto` runs on the CPU and says why, and a named GPU type is a
// one-line start-up error; where the GPU exists, those cases are skipped.

const supported = await getLlamaGpuTypes("supported");
const HAS_GPU = supported.some((type) => type !== false);
const KEYS = { INKPRESS_API_KEYS: "gpu-test-key-0123456" };

/** A start-up failure: one line on stderr, exit code 1, the server never listening. */
function expectOneLine(result: CliResult, line: string): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(`inkpress: ${line}\n`);
  expect(result.stdout).not.toContain("listening");
}

describe("--gpu", () => {
  let model: string;
  beforeAll(async () => {
    model = await testModel("plain");
  });

  describe.skipIf(HAS_GPU)("auto (the default) on a machine without a GPU", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer(model);
    });
    afterAll(() => server?.stop());

    it("runs on the CPU with one log line saying why; /healthz and the start-up line say so", async () => {
      const fallbackLines = server
        .output()
        .split("\n")
        .filter((line) => line.includes("--gpu auto"));
      expect(fallbackLines).toEqual([expect.stringMatching(/^(\[log\] )?--gpu auto: no CUDA or Vulkan GPU found; running on the CPU$/)]);
      expect(server.output()).toMatch(/^(\[log\] )?model \S+ loaded on the CPU$/m);
      const health = await (await fetch(`${server.url}/healthz`)).json();
      expect(health.backend).toEqual({
        kind: "in-process",
        gpu: "cpu",
        gpuLayers: 0,
        layers: expect.any(Number),
        fallback: "no CUDA or Vulkan GPU found",
      });
      expect(health.backend.layers).toBeGreaterThan(0);
    });
  });

  it("off: the CPU, without a fallback line", async () => {
    const server = await startServer(model, {}, { args: ["--gpu", "off", "--gpu-layers", "4"] });
    try {
      expect(server.output()).not.toContain("--gpu auto");
      expect(server.output()).toMatch(/^(\[log\] )?model \S+ loaded on the CPU$/m);
      const health = await (await fetch(`${server.url}/healthz`)).json();
      expect(health.backend).toEqual({ kind: "in-process", gpu: "cpu", gpuLayers: 0, layers: expect.any(Number) });
    } finally {
      await server.stop();
    }
  });

  it.skipIf(supported.includes("cuda"))("cuda where there is none: one line, exit code 1", async () => {
    expectOneLine(
      await runCli(["serve", "--model", model, "--gpu", "cuda", "--port", "0"], KEYS),
      'cannot use the GPU "cuda": no CUDA driver or libraries found on this machine; choose --gpu auto or --gpu off (INKPRESS_GPU)',
    );
  });

  it.skipIf(process.platform === "darwin")("metal off macOS (from INKPRESS_GPU): one line, exit code 1", async () => {
    expectOneLine(
      await runCli(["serve", "--model", model, "--port", "0"], { ...KEYS, INKPRESS_GPU: "metal" }),
      `cannot use the GPU "metal": Metal is not available on ${process.platform} ${process.arch}; choose --gpu auto or --gpu off (INKPRESS_GPU)`,
    );
  });

  it("values it does not know are configuration errors naming the setting", async () => {
    expectOneLine(
      await runCli(["serve", "--model", model, "--gpu", "fast"], KEYS),
      'gpu must be one of auto, cuda, vulkan, metal, off, got "fast"',
    );
    expectOneLine(
      await runCli(["serve", "--model", model], { ...KEYS, INKPRESS_GPU_LAYERS: "all" }),
      'gpu layers must be "auto" or a whole number from 0 to 10000, got "all"',
    );
  });
});
