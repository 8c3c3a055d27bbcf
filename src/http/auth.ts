import { createHash, timingSafeEqual } from "node:crypto";
import type { H3Event } from "h3";
import { problem } from "./problem.js";

const digest = (key: string) => createHash("sha256").update(key, "utf8").digest();

/** API keys held only as SHA-256 digests; a key itself is never kept nor logged. */
export class Keyring {
  private readonly digests: Buffer[];

  constructor(keys: readonly string[]) {
    this.digests = keys.map(digest);
  }

  /** Whether a presented key is one of ours, compared in constant time against every digest. */
  verify(key: string): boolean {
    const presented = digest(key);
    let found = false;
    for (const known of this.digests) found = timingSafeEqual(presented, known) || found;
    return found;
  }

  /** Number of keys configured. */
  get size(): number {
    return this.digests.length;
  }
}

/**
 * Require a valid `x-api-key` header. Missing, empty, unknown and doubled headers
 * (joined with a comma by the HTTP parser) get one and the same 401.
 */
export function requireApiKey(event: H3Event, keyring: Keyring): void {
  const key = event.req.headers.get("x-api-key") ?? "";
  if (key && !key.includes(",") && keyring.verify(key)) return;
  throw problem(401, "A valid API key is required in the x-api-key header.", {
    headers: { "www-authenticate": 'ApiKey header="x-api-key"' },
  });
}
