import { timingSafeEqual } from "node:crypto";
import { unwatchFile, watchFile } from "node:fs";
import { log } from "../log.js";
import { ENV_KEY_LIMITS, KeyStore, digestKey, type KeyLimits } from "./store.js";

/** An authenticated caller: the key's name and limits, never the key. */
export interface ApiKey {
  name: string;
  limits: KeyLimits;
  /** Signs its webhooks; none for INKPRESS_API_KEYS keys and keys created before webhooks. */
  webhookSecret?: string;
}

interface Entry extends ApiKey {
  digest: Buffer;
}

/** How often the key file is checked for changes. */
const WATCH_INTERVAL_MS = 500;

/**
 * The keys the server accepts: those of INKPRESS_API_KEYS (named env-1, env-2…, with
 * generous limits) and those of the key file, which is followed while the server runs: a key
 * created or revoked with the CLI takes effect within a second, without a restart.
 */
export class ApiKeys {
  private entries: Entry[] = [];

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
    return this.entries.length;
  }

  /** The caller a presented key belongs to, compared in constant time against every digest. */
  verify(presented: string): ApiKey | undefined {
    const digest = Buffer.from(digestKey(presented), "hex");
    let found: Entry | undefined;
    for (const entry of this.entries) if (timingSafeEqual(digest, entry.digest)) found = entry;
    if (!found) return undefined;
    const { digest: _, ...key } = found;
    return key;
  }

  /** The key of a name (a job's owner), for its limits and webhook secret; undefined once revoked. */
  named(name: string): ApiKey | undefined {
    const found = this.entries.find((entry) => entry.name === name);
    if (!found) return undefined;
    const { digest: _, ...key } = found;
    return key;
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
    this.entries = [
      ...this.envKeys.map((key, i) => ({ name: `env-${i + 1}`, limits: ENV_KEY_LIMITS, digest: Buffer.from(digestKey(key), "hex") })),
      ...stored.map((r) => ({ name: r.name, limits: r.limits, ...(r.webhookSecret && { webhookSecret: r.webhookSecret }), digest: Buffer.from(r.digest, "hex") })),
    ];
  }
}
