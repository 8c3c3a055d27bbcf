import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, tempKeysFile } from "../helpers/cli.js";
import { plantedArticle } from "../helpers/refresh.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, startServer, type TestServer } from "../helpers/server.js";

// A refresh that never ends is charged the words the model wrote, as generate is: over real
// HTTP on a real `inkpress serve` (stories260K) whose request deadline stops the refresh midway.

const QUOTA = 6000;

describe.skipIf(!HAS_STORIES_MODEL)("a refresh stopped by the deadline", () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    const keysFile = await tempKeysFile();
    key = await createKey(keysFile, "daily", ["--daily-words", String(QUOTA)]);
    server = await startServer(STORIES_MODEL, { INKPRESS_KEYS_FILE: keysFile, INKPRESS_TIMEOUT_S: "15" });
  }, 60_000);
  afterAll(() => server?.stop());

  const post = (route: string, body: unknown) =>
    fetch(`${server.url}${route}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(body) });
  /** The key's daily words left, as an analyse (which costs none) announces them. */
  const wordsLeft = async () => {
    const response = await post("/api/v1/analyse", { markdown: "# A note\n\nA few words.\n" });
    expect(response.status).toBe(200);
    return Number(/"daily-words";r=(\d+)/.exec(response.headers.get("ratelimit") ?? "")?.[1]);
  };

  it("is charged the words it wrote before the deadline, within what it reserved", async () => {
    const before = await wordsLeft();
    expect(before).toBe(QUOTA);
    // Asked for 5,000 words, the planted article is lengthened for about 30 s on stories260K
    // (prose from about 5 s on): the deadline stops it midway.
    const { request } = plantedArticle();
    const response = await post("/api/v1/refresh", { ...request, length: 5000, seed: 3 });
    expect(response.status, await response.clone().text()).toBe(504);
    const charged = before - (await wordsLeft());
    expect(charged, "the words written before the deadline count against the quota").toBeGreaterThan(0);
    expect(charged).toBeLessThanOrEqual(Math.floor(5000 * 1.1));
  }, 90_000);
});
