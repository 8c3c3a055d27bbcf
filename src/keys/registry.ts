import { timingSafeEqual } from "node:crypto";
import { unwatchFile, watchFile } from "node:fs";
import type { Publisher } from "../contract/request.js";
import type { Style } from "../contract/request.js";
import { log } from "../log.js";
import { ENV_KEY_LIMITS, type KeyStore, derivedKeyId, digestKey, type KeyLimits } from "./store.js";

/** An authenticated caller: the key's id, name and limits, never the key. */
export interface ApiKey {
  /** What everything of the key belongs to (`key_…`); the name is only a label. */
  id: string;
  name: string;
  limits: KeyLimits;
  /** Signs its webhooks; none for INKPRESS_API_KEYS keys and keys created before webhooks. */
  webhookSecret?: string;
  /** Its default style, under the request's own. */
  style?: Style;
  /** The publisher its articles' structured data names, over the server's. */
  publisher?: Publisher;
  /** The publishing targets it may publish to. */
  publishTo?: string[];
}

interface Entry extends ApiKey {
  digest: Buffer;
  revoked: boolean;
  /** The name whose 0.1.0 records this key inherits. */
  formerOwner?: string;
}

/** How often the key file is checked for changes. */
const WATCH_INTERVAL_MS = 500;

/**
 * The keys the server accepts: those of INKPRESS_API_KEYS (named env-1, env-2…, with
 * generous limits, ids derived from the key) and the active ones of the key file, which is
 * followed while the server runs: a key created or revoked with the CLI takes effect within a
 * second, without a restart, and a revocation is announced to whoever stops its work.
 */
export class ApiKeys {
  private entries: Entry[] = [];
  /** Ids that were active here and left the key file (removed by hand rather than revoked). */
  private readonly removed = new Set<string>();
  private readonly revokedListeners: ((id: string) => void)[] = [];

  private constructor(
    private readonly envKeys: readonly string[],
    private readonly store: KeyStore,
  ) {}

  /** Load both sources; a corrupt key file throws (a startup error). */
  static async open(envKeys: readonly string[], store: KeyStore): Promise<ApiKeys> {
    const keys = new ApiKeys(envKeys, store);
    await keys.reload();
    return keys;
  }

  /** Number of keys accepted. */
  get size(): number {
    return this.entries.filter((e) => !e.revoked).length;
  }

  /** The caller a presented key belongs to, compared in constant time against every digest. */
  verify(presented: string): ApiKey | undefined {
    const digest = Buffer.from(digestKey(presented), "hex");
    let found: Entry | undefined;
    for (const entry of this.entries) if (timingSafeEqual(digest, entry.digest) && !entry.revoked) found = entry;
    return found && publicKey(found);
  }

  /** The active key of an id (a job's owner), for its limits and style; undefined once revoked. */
  byId(id: string): ApiKey | undefined {
    const found = this.entries.find((entry) => entry.id === id && !entry.revoked);
    return found && publicKey(found);
  }

  /**
   * Whether the work of an owner must stop: a key revoked (or removed from the key file), or a
   * 0.1.0 name no key inherited. An id this process has never seen is not revoked: another
   * replica may have read a newer key file.
   */
  isRevoked(owner: string): boolean {
    if (!owner.startsWith("key_")) return !this.formerOwners().has(owner);
    const found = this.entries.find((entry) => entry.id === owner);
    return found ? found.revoked : this.removed.has(owner);
  }

  /** The webhook secret of a key, revoked or not: the cancellations of a revoked key's jobs are signed too. */
  webhookSecret(id: string): string | undefined {
    return this.entries.find((entry) => entry.id === id)?.webhookSecret;
  }

  /** Names that owned records before keys had ids, and the id of the active key that inherits them. */
  formerOwners(): Map<string, string> {
    return new Map(this.entries.flatMap((e) => (e.formerOwner && !e.revoked ? [[e.formerOwner, e.id] as const] : [])));
  }

  /** Call `listener` with the id of every key revoked from now on. */
  onRevoked(listener: (id: string) => void): void {
    this.revokedListeners.push(listener);
  }

  /** Follow the key file; a change that cannot be read keeps the keys in force and is logged. */
  watch(): void {
    watchFile(this.store.file, { interval: WATCH_INTERVAL_MS }, () => {
      this.reload().catch((error: Error) => log.error(`key file not reloaded, previous keys stay in force: ${error.message}`));
    });
  }

  /** Stop following the key file. */
  close(): void {
    unwatchFile(this.store.file);
  }

  private async reload(): Promise<void> {
    const stored = await this.store.read();
    const active = new Set(this.entries.filter((e) => !e.revoked).map((e) => e.id));
    this.entries = [
      ...this.envKeys.map((key, i) => {
        const digest = digestKey(key);
        const name = `env-${i + 1}`;
        return {
          id: derivedKeyId("env", digest),
          name,
          limits: ENV_KEY_LIMITS,
          digest: Buffer.from(digest, "hex"),
          revoked: false,
          formerOwner: name,
        };
      }),
      ...stored.map(({ digest, revoked, prefix: _p, created: _c, ...record }) => ({
        ...record,
        digest: Buffer.from(digest, "hex"),
        revoked: Boolean(revoked),
      })),
    ];
    const now = new Set(this.entries.filter((e) => !e.revoked).map((e) => e.id));
    for (const id of active) {
      if (now.has(id)) continue;
      if (!this.entries.some((e) => e.id === id)) this.removed.add(id);
      for (const listener of this.revokedListeners) listener(id);
    }
  }
}

function publicKey({ id, name, limits, webhookSecret, style, publisher, publishTo }: Entry): ApiKey {
  return {
    id,
    name,
    limits,
    ...(webhookSecret && { webhookSecret }),
    ...(style && { style }),
    ...(publisher && { publisher }),
    ...(publishTo && { publishTo }),
  };
}
