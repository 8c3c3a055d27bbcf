import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempKeysFile } from "../helpers/cli.js";
import { createKey } from "../helpers/keys.js";
import { jobsApi } from "../helpers/jobs.js";
import { startApp, type TestApp } from "../helpers/app.js";
import { API_KEY, HAS_STORIES_MODEL, STORIES_MODEL, testModel } from "../helpers/server.js";
import { collectSse, readSse } from "../helpers/sse.js";

/** Per-key limits when jobs run, and Idempotency-Key on generate, against the real app served in-process. */
describe("job limits and idempotent generate", () => {
  let server: TestApp;
  let tight: string;

  beforeAll(async () => {
    const model = HAS_STORIES_MODEL ? STORIES_MODEL : await testModel("plain");
    const keysFile = await tempKeysFile();
    tight = await createKey(keysFile, "tight", ["--rate", "1000/min", "--concurrency", "1", "--daily-words", "500"]);
    server = await startApp({ model, env: { INKPRESS_API_KEYS: API_KEY, INKPRESS_KEYS_FILE: keysFile, INKPRESS_SEQUENCES: "2" } });
  }, 120_000);
  afterAll(() => server?.stop());

  it("keeps a job queued while its key runs its concurrency limit, counts the words jobs wrote, and fails a job whose reservation does not fit when it starts", async () => {
    const api = jobsApi(server.url, tight, server.fetch);
    const first = await api.create({ topic: "Winter cycling", length: 200, seed: 1 });
    const second = await api.create({ topic: "Summer cycling", length: 200, seed: 2 });
    const running = await api.waitFor(first.id, (j) => j.status !== "queued");
    if (running.status === "running") expect((await (await api.get(second.id)).json()).status).toBe("queued");
    const [a, b] = [await api.waitFor(first.id), await api.waitFor(second.id)];
    expect([a.status, b.status]).toEqual(["succeeded", "succeeded"]);
    // One at a time: the second started once the first had finished.
    expect(Date.parse(b.startedAt!)).toBeGreaterThanOrEqual(Date.parse(a.finishedAt!) - 50);

    // Both articles' words counted against the 500-word quota: the next job's 220 words do not fit in what is left.
    const spent = a.result!.article.wordCount + b.result!.article.wordCount;
    expect(spent).toBeGreaterThan(500 - 220);
    const third = await api.waitFor((await api.create({ topic: "Autumn cycling", length: 200 })).id);
    expect(third.status).toBe("failed");
    expect(third.error).toMatchObject({ status: 429, type: "/docs#rate-limited" });
    expect(third.error!.detail).toMatch(
      new RegExp(`^The daily quota of 500 words has ${500 - spent} words? left today; this request needs 220 `),
    );
    expect(third.result).toBeUndefined();
  }, 240_000);

  it("gives the same answer for the same Idempotency-Key and body, 422 for another body, 409 while the first runs", async () => {
    const body = { topic: "Fixing a dripping tap", length: 150, seed: 5 };
    const headers = { "idempotency-key": "tap-1" };
    // The stream's headers come once its key is claimed.
    const pending = await server.generate({ ...body, length: 600 }, { "idempotency-key": "tap-long", accept: "text/event-stream" });
    const busy = await server.generate({ ...body, length: 600 }, { "idempotency-key": "tap-long" });
    expect(busy.status).toBe(409);
    expect(busy.headers.get("retry-after")).toBeTruthy();
    await collectSse(readSse(pending.body!));

    const first = await server.generate(body, headers);
    expect(first.status).toBe(200);
    const answer = await first.json();
    const again = await server.generate({ seed: 5, length: 150, topic: "Fixing a dripping tap" }, headers);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect((await again.json()).id).toBe(answer.id);
    const markdown = await server.generate(body, { ...headers, accept: "text/markdown" });
    expect(await markdown.text()).toBe(answer.article.markdown);
    const stream = await collectSse(readSse((await server.generate(body, { ...headers, accept: "text/event-stream" })).body!));
    expect(stream.map((e) => e.event)).toEqual(["meta", "outline", "delta", "done"]);
    expect(JSON.parse(stream.at(-1)!.data).id).toBe(answer.id);

    const changed = await server.generate({ ...body, length: 200 }, headers);
    expect(changed.status).toBe(422);
    expect((await changed.json()).errors[0].path).toBe("Idempotency-Key");
    // Another API key's same Idempotency-Key is its own; refused (its quota is spent), it stays free for the retry.
    const asTight = () =>
      server.fetch(`/api/v1/generate`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": tight, ...headers },
        body: JSON.stringify(body),
      });
    expect((await asTight()).status).toBe(429);
    expect((await asTight()).status).toBe(429);
  }, 240_000);
});
