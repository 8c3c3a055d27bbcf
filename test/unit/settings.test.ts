import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolveModelConfig, resolveServeConfig } from "../../src/config.js";
import { ConfigError } from "../../src/errors.js";
import { NoModelError, defaultSequences, defaultThreads, type Setting } from "../../src/setting-parsers.js";
import { SETTINGS, readSetting, documentedSettingsTable, settingArgs, settingsTable } from "../../src/settings.js";

// The settings table is the one description of every setting: these tests hold the
// resolution, the CLI flags and docs/operating.md to it.

const MODEL = "/models/some.gguf";
const all = Object.entries(SETTINGS) as [string, Setting<unknown>][];

describe("a setting's value", () => {
  it("comes from its flag, else its variable, else its default", () => {
    expect(readSetting("port", { flags: { port: "4000" }, env: { INKPRESS_PORT: "5000" } })).toBe(4000);
    expect(readSetting("port", { flags: {}, env: { INKPRESS_PORT: "5000" } })).toBe(5000);
    expect(readSetting("port", { flags: {}, env: {} })).toBe(3000);
    // An empty variable counts as unset, as `INKPRESS_PORT= inkpress` means.
    expect(readSetting("port", { env: { INKPRESS_PORT: "" } })).toBe(3000);
  });

  it("is parsed: numbers, durations, lists and paths against the working folder", () => {
    const env = { INKPRESS_JOBS_RETENTION: "12h", INKPRESS_CORS_ORIGINS: " https://a.example , ,https://b.example" };
    expect(readSetting("jobsRetention", { env })).toBe(12 * 3600);
    expect(readSetting("jobsRetention", { env: {} })).toBe(7 * 86_400);
    expect(readSetting("corsOrigins", { env })).toEqual(["https://a.example", "https://b.example"]);
    expect(readSetting("corsOrigins", { env: {} })).toEqual([]);
    expect(readSetting("dataDir", { env: {}, cwd: "/srv/inkpress" })).toBe("/srv/inkpress/data");
    expect(readSetting("keysFile", { flags: { "keys-file": "k.json" }, env: {}, cwd: "/srv" })).toBe("/srv/k.json");
    expect(readSetting("gpuLayers", { env: { INKPRESS_GPU_LAYERS: "12" } })).toBe(12);
    expect(readSetting("threads", { env: {} })).toBe(defaultThreads());
    expect(readSetting("sequences", { env: {} })).toBeUndefined();
  });

  it("bad text is a ConfigError naming the setting and what it got", () => {
    const cases: [Parameters<typeof readSetting>[0], Record<string, string>, RegExp][] = [
      ["port", { INKPRESS_PORT: "80a" }, /^port must be a whole number from 0 to 65535, got "80a"$/],
      ["port", { INKPRESS_PORT: "70000" }, /^port must be a whole number/],
      [
        "jobsRetention",
        { INKPRESS_JOBS_RETENTION: "7 weeks" },
        /^jobs retention must be a duration such as 90s, 30m, 12h or 7d, got "7 weeks"$/,
      ],
      ["jobsRetention", { INKPRESS_JOBS_RETENTION: "0s" }, /^jobs retention must be a duration/],
      ["redis", { INKPRESS_REDIS_URL: "http://cache:6379" }, /^redis must be a redis:\/\/ or rediss:\/\/ URL, got "http:\/\/cache:6379"$/],
      ["gpu", { INKPRESS_GPU: "rocm" }, /^gpu must be one of auto, cuda, vulkan, metal, off, got "rocm"$/],
      ["logLevel", { INKPRESS_LOG_LEVEL: "9" }, /^log level must be a whole number from 0 to 5, got "9"$/],
    ];
    for (const [name, env, message] of cases) {
      expect(() => readSetting(name, { env }), name).toThrow(ConfigError);
      expect(() => readSetting(name, { env }), name).toThrow(message);
    }
  });

  it("no model configured and none in models/ is a NoModelError naming the folder searched", async () => {
    const cwd = await mkdtemp(path.join(os.tmpdir(), "inkpress-settings-"));
    const error = (() => {
      try {
        readSetting("model", { env: {}, cwd });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(NoModelError);
    expect((error as NoModelError).modelsDir).toBe(path.join(cwd, "models"));
    await mkdir(path.join(cwd, "models"));
    await writeFile(path.join(cwd, "models", "b.gguf"), "");
    await writeFile(path.join(cwd, "models", "a.gguf"), "");
    expect(readSetting("model", { env: {}, cwd })).toBe(path.join(cwd, "models", "a.gguf"));
  });

  it("every default parses, and the table names each flag and variable once", () => {
    for (const [name, setting] of all) {
      expect(setting.env, name).toMatch(/^INKPRESS_[A-Z_]+$/);
      if (setting.default !== undefined) expect(() => setting.parse(setting.default!, "/"), name).not.toThrow();
      expect(setting.default !== undefined || setting.defaultNote !== undefined, `${name} says what it is when unset`).toBe(true);
    }
    const flags = all.map(([, s]) => s.flag).filter(Boolean);
    expect(new Set(flags).size).toBe(flags.length);
    expect(new Set(all.map(([, s]) => s.env)).size).toBe(all.length);
  });
});

describe("the configuration", () => {
  it("takes every setting from the table", () => {
    const config = resolveServeConfig({
      flags: { model: MODEL, host: "0.0.0.0", "jobs-queue-size": "40" },
      env: {
        INKPRESS_API_KEYS: "a, b",
        INKPRESS_TIMEOUT_S: "60",
        INKPRESS_REDIS_URL: "redis://cache:6379",
        INKPRESS_WEBHOOK_ALLOW: "10.0.0.0/8",
      },
      cwd: "/srv",
    });
    expect(config).toMatchObject({
      host: "0.0.0.0",
      port: 3000,
      queueSize: 16,
      timeoutS: 60,
      shutdownGraceS: 30,
      apiKeys: ["a", "b"],
      keysFile: "/srv/data/keys.json",
      corsOrigins: [],
      headersTimeoutS: 10,
      bodyTimeoutS: 30,
      dataDir: "/srv/data",
      redisUrl: "redis://cache:6379",
      webhookAllow: ["10.0.0.0/8"],
      authFailures: 20,
      jobs: { queueSize: 40, perKey: 10, retentionS: 7 * 86_400, pageSize: 100 },
    });
    expect(config.source).toEqual({
      kind: "model",
      modelPath: MODEL,
      threads: defaultThreads(),
      window: 512,
      gpu: "auto",
      gpuLayers: "auto",
      sequences: defaultSequences(),
    });
    expect(resolveServeConfig({ flags: { model: MODEL }, env: {} }).redisUrl).toBeUndefined();
  });

  it("the model settings of generate and batch are the server's", () => {
    expect(
      resolveModelConfig({
        flags: { model: MODEL, threads: "3" },
        env: { INKPRESS_GPU: "off", INKPRESS_GPU_LAYERS: "0", INKPRESS_WINDOW: "0" },
      }),
    ).toEqual({
      modelPath: MODEL,
      threads: 3,
      window: 0,
      gpu: "off",
      gpuLayers: 0,
    });
  });
});

describe("the CLI flags", () => {
  it("are the settings that have a flag, each described with its variable and default, none with a citty default", () => {
    const args = settingArgs();
    expect(Object.keys(args).sort()).toEqual(all.flatMap(([, s]) => (s.flag ? [s.flag] : [])).sort());
    expect(args.port).toEqual({ type: "string", description: "Port to listen on (INKPRESS_PORT, default 3000)" });
    expect(args["gpu-layers"].description).toBe("Model layers to offload to the GPU (INKPRESS_GPU_LAYERS, default auto (as many as fit))");
    for (const arg of Object.values(args)) expect(arg.description).not.toMatch(/[`[\]]/);
  });

  it("can be a few of them, for commands that share those settings", () => {
    expect(Object.keys(settingArgs("model", "threads", "gpu", "gpuLayers"))).toEqual(["model", "threads", "gpu", "gpu-layers"]);
    expect(settingArgs("apiKeys")).toEqual({});
  });
});

describe("docs/operating.md", () => {
  it("configuration table is the settings table (npx tsx scripts/docs-settings.ts rewrites it)", () => {
    const page = readFileSync(new URL("../../docs/operating.md", import.meta.url), "utf8");
    const table = documentedSettingsTable(page);
    expect(table, "docs/operating.md has a configuration table under ## Configuration").toBeDefined();
    expect(table!.split("\n")).toEqual(settingsTable().split("\n"));
  });

  it("shows each setting's variable, flag, default and meaning", () => {
    const rows = settingsTable().split("\n");
    expect(rows).toContain(
      "| `INKPRESS_PORT` | `--port` | `3000` | port to listen on; a taken port is an error, never a silent move to another one (`0` picks a free port) |",
    );
    expect(rows).toContain(
      "| `INKPRESS_BACKEND_KEY` | | none | token for the inference server of `--backend`; sent as `Authorization: Bearer …` |",
    );
    expect(rows).toHaveLength(all.length + 2);
  });
});
