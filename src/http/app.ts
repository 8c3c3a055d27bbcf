import { H3, type H3Event } from "h3";
import { log } from "../log.js";
import type { ModelRuntime } from "../model/runtime.js";
import { requireApiKey, type Keyring } from "./auth.js";
import { toProblemResponse } from "./problem.js";
import { generateRoute } from "./routes/generate.js";
import { healthRoute } from "./routes/health.js";

/** What the HTTP app serves with. */
export interface AppOptions {
  runtime: ModelRuntime;
  keyring: Keyring;
}

/**
 * The HTTP surface: public health route, key-protected `/api/v1/*`, and every error
 * (thrown by us, by h3 or unexpected) answered as problem+json.
 */
export function createApp({ runtime, keyring }: AppOptions): H3 {
  const app = new H3({
    onError(error, event: H3Event) {
      if (error.unhandled) log.error(error.cause ?? error);
      return toProblemResponse(error, event.url.pathname);
    },
  });
  app.use("/api/v1/**", (event) => requireApiKey(event, keyring));
  app.get("/healthz", healthRoute(runtime));
  app.all("/api/v1/generate", generateRoute(runtime));
  return app;
}
