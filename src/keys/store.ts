import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import * as v from "valibot";
import { writeFileAtomic } from "../atomic.js";

/** Limits of one key; a missing limit means none. */
export interface KeyLimits {
  /** Requests per window. */
  rate: { requests: number; windowS: number };
  /** Generations running at once. */
  concurrency: number;
  /** Words generated per UTC day. */
  dailyWords?: number;
}

/** What the store keeps of a key: never the key itself, only its SHA-256 digest. */
export interface KeyRecord {
  name: string;
  /** Hex SHA-256 of the key. */
  digest: string;
  /** The key's first characters, to recognise it in a list. */
  prefix: string;
  /** ISO 8601. */
  created: string;
  limits: KeyLimits;
  /**
   * Signs this key's webhooks (Standard Webhooks, HMAC-SHA256). Kept in clear, unlike the
   * key, because the server must sign with it. Absent in key files older than webhooks:
   * such a key cannot use webhooks until `keys rotate-secret` gives it one.
   */
  webhookSecret?: string;
}

/** Limits of a key created without any. */
export const DEFAULT_LIMITS: KeyLimits = { rate: { requests: 60, windowS: 60 }, concurrency: 2 };

/** Limits of INKPRESS_API_KEYS keys: meant for one trusted client, so generous; metered keys come from `keys create`. */
export const ENV_KEY_LIMITS: KeyLimits = { rate: { requests: 6000, windowS: 60 }, concurrency: 64 };

/** Keys start with this, so a leaked one is recognisable in logs and scanners. */
export const KEY_PREFIX = "ink_";

/** Webhook secrets start with this, as the Standard Webhooks libraries expect. */
export const WEBHOOK_SECRET_PREFIX = "whsec_";

/** A key file that cannot be read or trusted: a startup error, never an empty store. */
export class KeyStoreError extends Error {}

const LimitsSchema = v.object({
  rate: v.object({ requests: v.pipe(v.number(), v.integer(), v.minValue(1)), windowS: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  concurrency: v.pipe(v.number(), v.integer(), v.minValue(1)),
  dailyWords: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

const FileSchema = v.object({
  version: v.literal(1),
  keys: v.array(
    v.object({
      name: v.pipe(v.string(), v.minLength(1)),
      digest: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
      prefix: v.string(),
      created: v.string(),
      limits: LimitsSchema,
      webhookSecret: v.optional(v.pipe(v.string(), v.regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/))),
    }),
  ),
});

/** SHA-256 of a key, hex. */
export function digestKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** A new random key: the prefix and 192 random bits, base64url. */
export function newKey(): string {
  return `${KEY_PREFIX}${randomBytes(24).toString("base64url")}`;
}

/** A new webhook signing secret: the prefix and 192 random bits, base64. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString("base64")}`;
}

/**
 * The hashed key file, written by the CLI only (atomically, mode 0600); the server
 * reads it and follows its changes.
 */
export class KeyStore {
  constructor(readonly file: string) {}

  /** The keys on disk; none when the file does not exist yet. A corrupt file throws. */
  async read(): Promise<KeyRecord[]> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw new KeyStoreError(`cannot read the key file ${this.file}: ${(error as Error).message}`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new KeyStoreError(`the key file ${this.file} is not valid JSON; restore it or move it away`);
    }
    const parsed = v.safeParse(FileSchema, data);
    if (!parsed.success) throw new KeyStoreError(`the key file ${this.file} is corrupt (${v.summarize(parsed.issues).split("\n")[0]})`);
    return parsed.output.keys;
  }

  /** Add a key with a webhook secret; returns the key itself, which is shown once and stored nowhere. */
  async create(name: string, limits: KeyLimits): Promise<{ key: string; record: KeyRecord }> {
    const key = newKey();
    const record: KeyRecord = {
      name,
      digest: digestKey(key),
      prefix: key.slice(0, KEY_PREFIX.length + 4),
      created: new Date().toISOString(),
      limits,
      webhookSecret: newWebhookSecret(),
    };
    await this.update((keys) => {
      if (keys.some((k) => k.name === name)) throw new KeyStoreError(`a key named "${name}" exists already`);
      return [...keys, record];
    });
    return { key, record };
  }

  /** Remove a key by name; false when there is none of that name. */
  async revoke(name: string): Promise<boolean> {
    let found = false;
    await this.update((keys) => {
      found = keys.some((k) => k.name === name);
      return keys.filter((k) => k.name !== name);
    });
    return found;
  }

  /** Give a key a new webhook secret, replacing its old one; returns the new secret. */
  async rotateSecret(name: string): Promise<string> {
    const secret = newWebhookSecret();
    await this.update((keys) => {
      if (!keys.some((k) => k.name === name)) throw new KeyStoreError(`no key named "${name}"`);
      return keys.map((k) => (k.name === name ? { ...k, webhookSecret: secret } : k));
    });
    return secret;
  }

  /** Read, change and write the file under a lock, so two commands at once cannot undo each other. */
  private async update(change: (keys: KeyRecord[]) => KeyRecord[]): Promise<void> {
    const release = await lock(`${this.file}.lock`);
    try {
      const keys = await this.read();
      const next = change(keys);
      if (next !== keys) await this.write(next);
    } finally {
      await release();
    }
  }

  private write(keys: KeyRecord[]): Promise<void> {
    return writeFileAtomic(this.file, `${JSON.stringify({ version: 1, keys }, null, 2)}\n`);
  }
}

const LOCK_WAIT_MS = 10_000;

/**
 * An exclusive lock file holding the owner's pid. A lock whose owner is gone (killed
 * mid-write) is taken over; a live one is waited for, up to ten seconds.
 */
async function lock(file: string): Promise<() => Promise<void>> {
  await mkdir(path.dirname(file), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(file, "wx", 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = Number(await readFile(file, "utf8").catch(() => ""));
    // A lock just created may not hold its pid yet: only an old one without a pid is stale.
    const young = Date.now() - ((await stat(file).catch(() => undefined))?.mtimeMs ?? 0) < 2000;
    if (owner ? !isAlive(owner) : !young) {
      await rm(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new KeyStoreError(`the key file is locked by process ${owner} (${file})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
