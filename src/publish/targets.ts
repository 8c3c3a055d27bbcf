import { readFile } from "node:fs/promises";
import path from "node:path";
import * as v from "valibot";
import { ConfigError } from "../errors.js";

/**
 * Publishing targets, configured by the operator in one JSON file (`--publish-targets`): a
 * name, a kind, a base URL and where its credentials are (an environment variable or a
 * secrets file). Requests name a target; they never carry a URL or a credential.
 */

/** Kinds of CMS a target may be. */
const TARGET_KINDS = ["wordpress", "ghost"] as const;

/** Where a credential is read from: a variable of the server's environment, or a file (a mounted secret). */
const SecretSchema = v.union([
  v.strictObject({ env: v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]*$/)) }),
  v.strictObject({ file: v.pipe(v.string(), v.minLength(1)) }),
]);

const TargetSchema = v.strictObject({
  kind: v.picklist(TARGET_KINDS),
  url: v.pipe(v.string(), v.regex(/^https?:\/\/[^/\s]+\S*$/i, "must be an http:// or https:// URL")),
  /** WordPress: the user the application password belongs to. */
  user: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** WordPress: the application password; Ghost: the Admin API key `id:secret`. */
  credentials: SecretSchema,
  status: v.optional(v.picklist(["draft", "publish"]), "draft"),
  /** WordPress: create categories and tags that do not exist yet (else naming one is an error). */
  createTerms: v.optional(v.boolean(), false),
  /** Let the target be a loopback or private address, which the SSRF rules otherwise refuse (cloud metadata never). */
  allowPrivate: v.optional(v.boolean(), false),
  /**
   * Let a key update a post of the site that inkpress has no record of making (written by hand, or
   * published before inkpress kept records); it is that key's from then on. Another key's post never.
   */
  adopt: v.optional(v.boolean(), false),
  /** Milliseconds one call to the target may take. */
  timeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(100), v.maxValue(120_000)), 15_000),
});

const FileSchema = v.strictObject({ targets: v.record(v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/)), TargetSchema) });

/** A configured target, its credentials read. */
export interface PublishTarget {
  name: string;
  kind: (typeof TARGET_KINDS)[number];
  /** The site's base URL, without a trailing slash. */
  url: string;
  user: string | undefined;
  /** The secret itself: handed only to the client that signs with it, never logged or answered. */
  secret: string;
  status: "draft" | "publish";
  createTerms: boolean;
  allowPrivate: boolean;
  /** Whether a key may take over a post inkpress has no record of. */
  adopt: boolean;
  timeoutMs: number;
}

/**
 * Read the targets file; a bad file, a missing variable or an unreadable secret file is a
 * {@link ConfigError} naming the target and where, never the secret.
 */
export async function readTargets(file: string, env: NodeJS.ProcessEnv = process.env): Promise<Map<string, PublishTarget>> {
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new ConfigError(`publish targets file ${file} cannot be read as JSON: ${(error as Error).message}`);
  }
  const parsed = v.safeParse(FileSchema, raw);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new ConfigError(`publish targets file ${file} is invalid at ${v.getDotPath(issue) ?? "the top"}: ${issue.message}`);
  }
  const targets = new Map<string, PublishTarget>();
  for (const [name, target] of Object.entries(parsed.output.targets)) {
    if (target.kind === "wordpress" && !target.user)
      throw new ConfigError(`publish target "${name}" is a WordPress site and needs "user" (the application password's user)`);
    const secret = await readSecret(name, target.credentials, path.dirname(file), env);
    if (target.kind === "ghost" && !/^[0-9a-f]{24}:[0-9a-f]{64}$/.test(secret))
      throw new ConfigError(`publish target "${name}": a Ghost Admin API key is "id:secret" (24 and 64 hex characters)`);
    const { credentials: _c, ...rest } = target;
    targets.set(name, { ...rest, name, url: target.url.replace(/\/+$/, ""), user: target.user, secret });
  }
  return targets;
}

async function readSecret(name: string, from: v.InferOutput<typeof SecretSchema>, dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  if ("env" in from) {
    const value = env[from.env]?.trim();
    if (!value) throw new ConfigError(`publish target "${name}": its credentials variable ${from.env} is not set`);
    return value;
  }
  const file = path.resolve(dir, from.file);
  try {
    const value = (await readFile(file, "utf8")).trim();
    if (value) return value;
  } catch (error) {
    throw new ConfigError(
      `publish target "${name}": its credentials file ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
  throw new ConfigError(`publish target "${name}": its credentials file ${file} is empty`);
}
