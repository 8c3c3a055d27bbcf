import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, tempKeysFile } from "../helpers/cli.js";
import { plantedArticle } from "../../scripts/fixtures/refresh.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, startServer, type TestServer } from "../helpers/server.js";

// A refresh that never ends is charged the words the model wrote, as generate is: over real
// HTTP on a real `inkpress serve` (stories260K) whose request deadline stops the refresh midway.

const QUOTA = 6000;
/** The planted article, asked for 5,000 words: the refresh writes prose for a while. */
const REQUEST = { ...plantedArticle().request, length: 5000, seed: 3 };
const MEASURE_KEY = "measure-key-0123456789abcdef";

describe.skipIf(!HAS_STORIES_MODEL)("a refresh stopped by the deadline", () => {
  let server: TestServer;
  let key: string;
  beforeAll(async () => {
    const keysFile = await tempKeysFile();
    key = await createKey(keysFile, "daily", ["--daily-words", String(QUOTA)]);
    // How long the whole refresh takes on this machine now, on a server of its own (another key,
    // so the quota below is untouched): the deadline is then half of it, so it stops the refresh
    // midway on a fast machine and a loaded one alike.
    const measure = await startServer(STORIES_MODEL, { INKPRESS_API_KEYS: MEASURE_KEY });
    const started = performance.now();
    const whole = await fetch(`${measure.url}/api/v1/refresh`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": MEASURE_KEY },
      body: JSON.stringify(REQUEST),
    });
    const wholeMs = performance.now() - started;
    await measure.stop();
    expect(whole.status).toBe(200);
    server = await startServer(STORIES_MODEL, {
      INKPRESS_KEYS_FILE: keysFile,
      INKPRESS_TIMEOUT_S: String(Math.max(1, Math.round(wholeMs / 2000))),
    });
  }, 120_000);
  afterAll(() => server?.stop());

  const post = (route: string, body: unknown) =>
    fetch(`${server.url}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(body),
    });
  /** The key's daily words left, as an analyse (which costs none) announces them. */
  const wordsLeft = async () => {
    const response = await post("/api/v1/analyse", { markdown: "# A note\n\nA few words.\n" });
    expect(response.status).toBe(200);
    return Number(/"daily-words";r=(\d+)/.exec(response.headers.get("ratelimit") ?? "")?.[1]);
  };

  it("is charged the words it wrote before the deadline, within what it reserved", async () => {
    const before = await wordsLeft();
    expect(before).toBe(QUOTA);
    const response = await post("/api/v1/refresh", REQUEST);
    expect(response.status, await response.clone().text()).toBe(504);
    const charged = before - (await wordsLeft());
    expect(charged, "the words written before the deadline count against the quota").toBeGreaterThan(0);
    expect(charged).toBeLessThanOrEqual(Math.floor(5000 * 1.1));
  }, 90_000);
});
