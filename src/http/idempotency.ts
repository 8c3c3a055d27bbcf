import { createHash } from "node:crypto";
import type { H3Event } from "h3";
import type { KeyStorage } from "../keys/storage.js";
import { problem } from "./problem.js";

/** What one `Idempotency-Key` protects. */
export interface IdempotencyScope {
  storage: KeyStorage;
  /** The key's id and the operation, so two keys (even of one name) or two routes never share a record. */
  name: string;
  /** How long a finished answer is replayed. */
  keepMs: number;
  /** How long an unfinished first request holds the key (a replica that died releases it then). */
  pendingMs: number;
}

/** A claimed key: record the answer once it exists, or let the key go when the request failed. */
export interface IdempotencyClaim {
  complete(value: string): Promise<void>;
  release(): Promise<void>;
}

/** The answer a key recorded, or a claim on a key seen for the first time; undefined without the header. */
export type IdempotencyOutcome = { replay: string } | { claim: IdempotencyClaim } | undefined;

/**
 * `Idempotency-Key` (draft-ietf-httpapi-idempotency-key-header): the same key with the same
 * body gives the recorded answer; with another body it is a 422; while the first request
 * is still running it is a 409.
 */
export async function idempotency(event: H3Event, scope: IdempotencyScope): Promise<IdempotencyOutcome> {
  const header = event.req.headers.get("idempotency-key");
  if (header === null) return undefined;
  // A structured-field string ("…") or the bare token most clients send.
  const key = header.trim().replace(/^"(.*)"$/, "$1");
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw problem(400, "Idempotency-Key must be 1 to 255 visible ASCII characters.");
  const id = `${scope.name}:${createHash("sha256").update(key).digest("hex")}`;
  // The JSON body as read (before validation), compared with the one first sent.
  const fingerprint = createHash("sha256").update(canonicalJson(event.context.body)).digest("hex");
  const record = await scope.storage.claimIdempotency(id, fingerprint, scope.pendingMs);
  if (record && record.fingerprint !== fingerprint) {
    throw problem(422, "This Idempotency-Key was used with another request body; use a new key for a new request.", {
      extensions: { errors: [{ path: "Idempotency-Key", message: "already used with another body" }] },
    });
  }
  if (record?.state === "pending")
    throw problem(409, "A request with this Idempotency-Key is still being processed; retry once it has finished.", {
      headers: { "retry-after": "5" },
    });
  if (record?.state === "done") {
    event.res.headers.set("idempotent-replayed", "true");
    return { replay: record.value };
  }
  return {
    claim: {
      complete: (value) => scope.storage.completeIdempotency(id, fingerprint, value, scope.keepMs),
      release: () => scope.storage.releaseIdempotency(id),
    },
  };
}

/** JSON with object keys sorted, so the same body in another key order matches. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
