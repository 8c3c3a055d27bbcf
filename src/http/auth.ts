import { getRequestIP, type H3Event } from "h3";
import type { KeyLimiter } from "../keys/limiter.js";
import type { AuthThrottle } from "./auth-throttle.js";
import type { ApiKey, ApiKeys } from "../keys/registry.js";
import { problem } from "./problem.js";

declare module "h3" {
  interface H3EventContext {
    /** The authenticated caller, set by {@link requireApiKey}. */
    apiKey?: ApiKey;
    /** Its rate-limit headers, for responses built outside h3 (streams, errors). */
    rateLimitHeaders?: Record<string, string>;
  }
}

/**
 * Require a valid `x-api-key` header and count the request against the key's limits.
 * Missing, empty, unknown, revoked, malformed and doubled keys (joined with a comma by
 * the HTTP parser) all get one and the same 401, and count against the address's
 * {@link AuthThrottle}: past it, every request from the address is a 429 before any key is
 * looked at. Keys are never read from the query.
 */
export async function requireApiKey(event: H3Event, keys: ApiKeys, limiter: KeyLimiter, throttle: AuthThrottle): Promise<void> {
  const peer = getRequestIP(event);
  throttle.check(peer);
  const presented = event.req.headers.get("x-api-key") ?? "";
  const key = presented && !presented.includes(",") ? keys.verify(presented) : undefined;
  if (!key) {
    throttle.fail(peer);
    throw problem(401, "A valid API key is required in the x-api-key header.", {
      headers: { "www-authenticate": 'ApiKey header="x-api-key"' },
    });
  }
  event.context.apiKey = key;
  const headers = await limiter.admit(key);
  event.context.rateLimitHeaders = headers;
  for (const [name, value] of Object.entries(headers)) event.res.headers.set(name, value);
}
