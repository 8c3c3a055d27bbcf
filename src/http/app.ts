import { H3, type H3Event } from "h3";
import type { Lifecycle } from "../lifecycle.js";
import { log } from "../log.js";
import type { ModelHost } from "../model/host.js";
import { requireApiKey, type Keyring } from "./auth.js";
import { toProblemResponse } from "./problem.js";
import { generateRoute } from "./routes/generate.js";
import { healthRoute } from "./routes/health.js";

/** What the HTTP app serves with. */
export interface AppOptions {
  host: ModelHost;
  keyring: Keyring;
  lifecycle: Lifecycle;
  /** Per-request deadline. */
  timeoutMs: number;
}

/**
 * The HTTP surface: public health route, key-protected `/api/v1/*`, and every error
 * (thrown by us, by h3 or unexpected) answered as problem+json.
 */
export function createApp({ host, keyring, lifecycle, timeoutMs }: AppOptions): H3 {
  const app = new H3({
    onError(error, event: H3Event) {
      if (error.unhandled) log.error(error.cause ?? error);
      return toProblemResponse(error, event.url.pathname);
    },
  });
  app.use("/api/v1/**", (event) => requireApiKey(event, keyring));
  app.get("/healthz", healthRoute(host));
  app.all("/api/v1/generate", generateRoute({ host, lifecycle, timeoutMs }));
  return app;
}
