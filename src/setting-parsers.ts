import { existsSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError } from "./errors.js";
import { cliCommand } from "./invocation.js";
import type { GpuLayers } from "./model/gpu.js";

/*
 * What a setting is, and the parsers the settings table (settings.ts) builds its rows from:
 * each turns a setting's text into its value, and bad text into a ConfigError naming the
 * setting and what it got.
 */

/** What every setting says of itself. */
export interface SettingBase {
  /** The flag, without its dashes; none for a setting only the environment gives (a secret, say). */
  readonly flag?: string;
  /** Its INKPRESS_* environment variable. */
  readonly env: string;
  /** The default in words (Markdown): after the default's text, or alone for a default that is computed. */
  readonly defaultNote?: string;
  /** What it sets, in a few plain words: `--help` and the configuration table of docs/operating.md show it. */
  readonly description: string;
  /** What more the configuration table of docs/operating.md says (Markdown): consequences, formats, links. */
  readonly details?: string;
}

/**
 * One setting: how it is given, what it is when not given, how its text is read. Its parser
 * turns the text into the value, and bad text into a {@link ConfigError} naming the setting.
 */
export type Setting<T> = SettingBase &
  (
    | {
        /** The text used when neither the flag nor the variable gives one. */
        readonly default: string;
        readonly parse: (raw: string, cwd: string) => T;
      }
    | {
        /** No default text: the parser gets undefined when the setting is not given. */
        readonly default?: undefined;
        readonly parse: (raw: string | undefined, cwd: string) => T;
      }
  );

/** Folder searched for a model when none is configured, where `models pull` puts one. */
export const MODELS_DIR = "models";

/** No model configured and none in `models/`: the commands that write pull the default one first. */
export class NoModelError extends ConfigError {
  constructor(
    message: string,
    /** The folder that was searched, where a pulled model goes. */
    readonly modelsDir: string,
  ) {
    super(message);
  }
}

/**
 * Decode threads by default: half the cores, at least one. Token generation is bound by
 * memory bandwidth, and on a 2-core machine one thread measured fastest.
 */
export function defaultThreads(cores = os.availableParallelism()): number {
  return Math.max(1, Math.floor(cores / 2));
}

/**
 * Generations at once by default: half the cores, at least one. Sequences of one context
 * take turns on the same cores, so more of them add latency, not throughput: on 2 cores
 * one sequence gave the highest aggregate tokens/s at 4 clients (BENCHMARKS.md).
 */
export function defaultSequences(cores = os.availableParallelism()): number {
  return Math.max(1, Math.floor(cores / 2));
}

/** A parser for a setting that may stay unset: undefined then. */
export function optional<T>(parse: (raw: string) => T): (raw: string | undefined) => T | undefined {
  return (raw) => (raw === undefined ? undefined : parse(raw));
}

/** A whole number from `min` to `max`. */
export function integer(what: string, min: number, max: number): (raw: string) => number {
  return (raw) => {
    const value = Number(raw);
    if (!/^\d+$/.test(raw.trim()) || value < min || value > max) {
      throw new ConfigError(`${what} must be a whole number from ${min} to ${max}, got "${raw}"`);
    }
    return value;
  };
}

/** One of a fixed list of words. */
export function oneOf<const T extends string>(what: string, choices: readonly T[]): (raw: string) => T {
  return (raw) => {
    if (!(choices as readonly string[]).includes(raw)) throw new ConfigError(`${what} must be one of ${choices.join(", ")}, got "${raw}"`);
    return raw as T;
  };
}

/** A URL whose scheme `scheme` accepts; `shape` says which, for the error. */
export function url(what: string, scheme: RegExp, shape: string): (raw: string) => string {
  return (raw) => {
    if (!scheme.test(raw) || !URL.canParse(raw)) throw new ConfigError(`${what} must be ${shape}, got "${raw}"`);
    return raw;
  };
}

const DURATION_UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** A duration such as `90s`, `30m`, `12h` or `7d`, in seconds. */
export function duration(what: string): (raw: string) => number {
  return (raw) => {
    const match = /^(\d+)\s*([smhd])$/.exec(raw.trim());
    if (!match || Number(match[1]) < 1) throw new ConfigError(`${what} must be a duration such as 90s, 30m, 12h or 7d, got "${raw}"`);
    return Number(match[1]) * DURATION_UNITS[match[2]!]!;
  };
}

/** `auto` (as many layers as fit) or a number of layers. */
export function gpuLayers(raw: string): GpuLayers {
  if (raw === "auto") return raw;
  if (/^\d+$/.test(raw.trim()) && Number(raw) <= 10_000) return Number(raw);
  throw new ConfigError(`gpu layers must be "auto" or a whole number from 0 to 10000, got "${raw}"`);
}

/** A path, against the working folder. */
export function resolvedPath(raw: string, cwd: string): string {
  return path.resolve(cwd, raw);
}

/** A comma-separated setting as a list; unset is empty. */
export function list(raw: string | undefined): string[] {
  return (raw ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);
}

/** The configured model, else the first `.gguf` in `models/`; neither is a {@link NoModelError}. */
export function modelPath(configured: string | undefined, cwd: string): string {
  if (configured) return path.resolve(cwd, configured);
  const dir = path.join(cwd, MODELS_DIR);
  const found = existsSync(dir)
    ? readdirSync(dir)
        .filter((file) => file.endsWith(".gguf"))
        .sort()[0]
    : undefined;
  if (found) return path.join(dir, found);
  throw new NoModelError(
    `no model configured: run "${cliCommand("models pull")}", copy a .gguf file into ${MODELS_DIR}/, or set INKPRESS_MODEL=/path/to/model.gguf (or --model)`,
    dir,
  );
}
