import { describe, expect, it } from "vitest";
import { resolveServeConfig } from "../../src/config.js";
import { ConfigError } from "../../src/errors.js";

// Where articles are written: a local model or an inference server, and the GPU settings.
// The model file is never opened here, so a made-up path does.

const MODEL = "/models/some.gguf";

describe("a local model or an inference server", () => {
  it("--backend writes with the server: no model needed, its key from INKPRESS_BACKEND_KEY, sequences from the server unless set", () => {
    const { source } = resolveServeConfig({
      flags: { backend: "http://10.0.0.5:8080" },
      env: { INKPRESS_BACKEND_KEY: "s3cret" },
      cwd: "/nowhere",
    });
    expect(source).toEqual({ kind: "backend", url: "http://10.0.0.5:8080", key: "s3cret", sequences: undefined });
    expect(
      resolveServeConfig({ flags: {}, env: { INKPRESS_BACKEND: "https://llm.internal", INKPRESS_SEQUENCES: "8" }, cwd: "/nowhere" }).source,
    ).toEqual({
      kind: "backend",
      url: "https://llm.internal",
      key: undefined,
      sequences: 8,
    });
  });

  it("a model: GPU auto and as many layers as fit by default; the flags and variables set them", () => {
    expect(resolveServeConfig({ flags: { model: MODEL }, env: {} }).source).toMatchObject({
      kind: "model",
      modelPath: MODEL,
      gpu: "auto",
      gpuLayers: "auto",
    });
    expect(resolveServeConfig({ flags: { model: MODEL, gpu: "off", "gpu-layers": "12" }, env: {} }).source).toMatchObject({
      gpu: "off",
      gpuLayers: 12,
    });
    expect(resolveServeConfig({ flags: { model: MODEL }, env: { INKPRESS_GPU: "cuda", INKPRESS_GPU_LAYERS: "0" } }).source).toMatchObject({
      gpu: "cuda",
      gpuLayers: 0,
    });
  });

  it("flags win over the environment; a model and a backend at the same level are an error", () => {
    expect(resolveServeConfig({ flags: { backend: "http://a:1" }, env: { INKPRESS_MODEL: MODEL } }).source.kind).toBe("backend");
    expect(resolveServeConfig({ flags: { model: MODEL }, env: { INKPRESS_BACKEND: "http://a:1" } }).source.kind).toBe("model");
    const both = /a model and a backend are both configured/;
    expect(() => resolveServeConfig({ flags: { model: MODEL, backend: "http://a:1" }, env: {} })).toThrow(both);
    expect(() => resolveServeConfig({ flags: {}, env: { INKPRESS_MODEL: MODEL, INKPRESS_BACKEND: "http://a:1" } })).toThrow(both);
  });

  it("refuses what it cannot use, naming the setting", () => {
    for (const url of ["127.0.0.1:8080", "ftp://a", "http://", "not a url"]) {
      expect(() => resolveServeConfig({ flags: { backend: url }, env: {} })).toThrow(
        new ConfigError(`backend must be an http:// or https:// URL, got "${url}"`),
      );
    }
    expect(() => resolveServeConfig({ flags: { model: MODEL, gpu: "rocm" }, env: {} })).toThrow(
      /gpu must be one of auto, cuda, vulkan, metal, off, got "rocm"/,
    );
    expect(() => resolveServeConfig({ flags: { model: MODEL, "gpu-layers": "-1" }, env: {} })).toThrow(
      /gpu layers must be "auto" or a whole number/,
    );
  });
});
