import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import * as v from "valibot";
import { removeStaleTemporaries, writeFileAtomic } from "../atomic.js";
import type { Publisher } from "../contract/request.js";
import { PublisherSchema, StyleSchema, type Style } from "../contract/request.js";
import { KeyStoreError } from "./errors.js";
import { lock } from "./file-lock.js";

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
  /**
   * The key's identity (`key_…`), random and immutable: jobs, usage, limits, idempotency
   * records and the webhook secret belong to it, never to the name, which a later key may reuse.
   */
  id: string;
  name: string;
  /** Hex SHA-256 of the key. */
  digest: string;
  /** The key's first characters, to recognise it in a list. */
  prefix: string;
  /** ISO 8601. */
  created: string;
  /** ISO 8601; a revoked key is kept (unusable) so its webhook secret can still sign the cancellations of its jobs. */
  revoked?: string;
  limits: KeyLimits;
  /**
   * Signs this key's webhooks (Standard Webhooks, HMAC-SHA256). Kept in clear, unlike the
   * key, because the server must sign with it. Absent in key files older than webhooks:
   * such a key cannot use webhooks until `keys rotate-secret` gives it one.
   */
  webhookSecret?: string;
  /** The style its articles are written in unless a request says otherwise, field by field. */
  style?: Style;
  /** The publisher its articles' structured data names, over the server's `--publisher-name`. */
  publisher?: Publisher;
  /** The publishing targets it may publish to (`keys create --publish-to`); none without. */
  publishTo?: string[];
  /**
   * The name that owned this key's jobs and usage before keys had ids (key files of 0.1.0):
   * set once by the migration, for the active key of that name only.
   */
  formerOwner?: string;
}

/** Limits of a key created without any. */
export const DEFAULT_LIMITS: KeyLimits = { rate: { requests: 60, windowS: 60 }, concurrency: 2 };

/** Limits of INKPRESS_API_KEYS keys: meant for one trusted client, so generous; metered keys come from `keys create`. */
export const ENV_KEY_LIMITS: KeyLimits = { rate: { requests: 6000, windowS: 60 }, concurrency: 64 };

/** Keys start with this, so a leaked one is recognisable in logs and scanners. */
const KEY_PREFIX = "ink_";

/** Webhook secrets start with this, as the Standard Webhooks libraries expect. */
const WEBHOOK_SECRET_PREFIX = "whsec_";

/** Names of INKPRESS_API_KEYS keys (`env-1`, `env-2`…): no stored key may take one. */
const ENV_NAME = /^env-\d+$/;

/** Whether a key of this name comes from INKPRESS_API_KEYS (no key file's key may bear one). */
export function isEnvKeyName(name: string): boolean {
  return ENV_NAME.test(name);
}

const LimitsSchema = v.object({
  rate: v.object({ requests: v.pipe(v.number(), v.integer(), v.minValue(1)), windowS: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
  concurrency: v.pipe(v.number(), v.integer(), v.minValue(1)),
  dailyWords: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
});

const LegacyRecordSchema = v.object({
  name: v.pipe(v.string(), v.minLength(1)),
  digest: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  prefix: v.string(),
  created: v.string(),
  limits: LimitsSchema,
  webhookSecret: v.optional(v.pipe(v.string(), v.regex(/^whsec_[A-Za-z0-9+/]+={0,2}$/))),
});

const RecordSchema = v.object({
  ...LegacyRecordSchema.entries,
  id: v.pipe(v.string(), v.regex(/^key_[0-9a-f]{24}$/)),
  revoked: v.optional(v.string()),
  style: v.optional(StyleSchema),
  publisher: v.optional(PublisherSchema),
  publishTo: v.optional(v.array(v.string())),
  formerOwner: v.optional(v.string()),
});

/** Version 1 (0.1.0) had no ids and removed revoked keys; version 2 has both. */
const FileSchema = v.variant("version", [
  v.object({ version: v.literal(1), keys: v.array(LegacyRecordSchema) }),
  v.object({ version: v.literal(2), keys: v.array(RecordSchema) }),
]);

/** SHA-256 of a key, hex. */
export function digestKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** A new random key: the prefix and 192 random bits, base64url. */
function newKey(): string {
  return `${KEY_PREFIX}${randomBytes(24).toString("base64url")}`;
}

/** A new webhook signing secret: the prefix and 192 random bits, base64. */
export function newWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(24).toString("base64")}`;
}

/** The id of a key derived from a hash: stable, so every reader of the same key agrees on it. */
export function derivedKeyId(kind: "env" | "migrated", digest: string): string {
  return `key_${createHash("sha256").update(`inkpress ${kind} key\0${digest}`).digest("hex").slice(0, 24)}`;
}

/** The record of a 0.1.0 key: its id derives from its digest (every reader migrates it alike); its name's old records stay its own. */
function migrate(record: v.InferOutput<typeof LegacyRecordSchema>): KeyRecord {
  // `env-N` records of 0.1.0 shared their name with an INKPRESS_API_KEYS key: the name's records are that key's.
  return { id: derivedKeyId("migrated", record.digest), ...record, ...(isEnvKeyName(record.name) ? {} : { formerOwner: record.name }) };
}

/**
 * The hashed key file, written by the CLI only (atomically, mode 0600); the server
 * reads it and follows its changes.
 */
export class KeyStore {
  constructor(readonly file: string) {}

  /**
   * The store of an `inkpress keys` command: the temporary copies of the key file that crashed
   * commands left beside it (they hold webhook secrets) are removed first, as a server start does.
   */
  static async open(file: string): Promise<KeyStore> {
    await removeStaleTemporaries(path.dirname(file));
    return new KeyStore(file);
  }

  /** Every key on disk, revoked ones included; none when the file does not exist yet. A corrupt file throws. */
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
    return parsed.output.version === 1 ? parsed.output.keys.map(migrate) : parsed.output.keys;
  }

  /** Add a key with a webhook secret; returns the key itself, which is shown once and stored nowhere. */
  async create(name: string, limits: KeyLimits, style?: Style, publishTo?: string[]): Promise<{ key: string; record: KeyRecord }> {
    if (isEnvKeyName(name)) throw new KeyStoreError(`the name "${name}" is reserved for INKPRESS_API_KEYS keys; choose another`);
    const key = newKey();
    const record: KeyRecord = {
      id: `key_${randomBytes(12).toString("hex")}`,
      name,
      digest: digestKey(key),
      prefix: key.slice(0, KEY_PREFIX.length + 4),
      created: new Date().toISOString(),
      limits,
      webhookSecret: newWebhookSecret(),
      ...(style && { style }),
      ...(publishTo?.length && { publishTo }),
    };
    await this.update((keys) => {
      if (keys.some((k) => k.name === name && !k.revoked)) throw new KeyStoreError(`a key named "${name}" exists already`);
      return [...keys, record];
    });
    return { key, record };
  }

  /** Revoke the active key of a name; false when there is none. */
  async revoke(name: string): Promise<boolean> {
    let found = false;
    const now = new Date().toISOString();
    await this.update((keys) => {
      found = keys.some((k) => k.name === name && !k.revoked);
      return keys.map((k) => (k.name === name && !k.revoked ? { ...k, revoked: now } : k));
    });
    return found;
  }

  /** Give a key a new webhook secret, replacing its old one; returns the new secret. */
  async rotateSecret(name: string): Promise<string> {
    const secret = newWebhookSecret();
    await this.change(name, (k) => ({ ...k, webhookSecret: secret }));
    return secret;
  }

  /** Set the publisher a key's articles name in their structured data; undefined removes it. */
  async setPublisher(name: string, publisher: Publisher | undefined): Promise<void> {
    await this.change(name, ({ publisher: _old, ...k }) => ({ ...k, ...(publisher && { publisher }) }));
  }

  /** Set the style a key's articles are written in by default. */
  async setStyle(name: string, style: Style): Promise<void> {
    await this.change(name, (k) => ({ ...k, style }));
  }

  /** Change the active key of a name. */
  private async change(name: string, edit: (record: KeyRecord) => KeyRecord): Promise<void> {
    await this.update((keys) => {
      if (!keys.some((k) => k.name === name && !k.revoked)) throw new KeyStoreError(`no key named "${name}"`);
      return keys.map((k) => (k.name === name && !k.revoked ? edit(k) : k));
    });
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
    return writeFileAtomic(this.file, `${JSON.stringify({ version: 2, keys }, null, 2)}\n`);
  }
}
