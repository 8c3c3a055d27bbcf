import { readFileSync } from "node:fs";
import { beforeAll, inject } from "vitest";
import { waitFor } from "./http.js";
import { API_KEY, type TestServer } from "./server.js";

/** The e2e tier's shared server: what its files use of a {@link TestServer}. */
export type SharedServer = Pick<TestServer, "url" | "output" | "generate">;

/**
 * The e2e tier's one real `inkpress serve` on stories260K (started by test/helpers/stories-setup.ts),
 * once it listens and has loaded the model. Returns a getter, since the server is ready only
 * once the enclosing `describe`'s tests run. Its output is every file's: what a test reads
 * there holds for all of them.
 */
export function sharedStoriesServer(): () => SharedServer {
  let server: SharedServer | undefined;
  beforeAll(async () => {
    const log = inject("storiesLog");
    const output = () => readFileSync(log, "utf8");
    const url = await waitFor(
      async () => {
        const text = output();
        if (/server exited with/.test(text)) throw new Error(`the shared stories260K server ended: ${text}`);
        return /model .* loaded/.test(text) ? /listening on (http:\/\/\S+)/.exec(text)?.[1] : undefined;
      },
      "the shared stories260K server ready",
      60_000,
      100,
    );
    server = {
      url,
      output,
      generate: (body, headers = {}) =>
        fetch(`${url}/api/v1/generate`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": API_KEY, ...headers },
          body: typeof body === "string" ? body : JSON.stringify(body),
        }),
    };
  });
  return () => server!;
}
