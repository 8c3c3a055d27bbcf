import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempKeysFile } from "../helpers/cli.js";
import { createKeyWithSecret } from "../helpers/keys.js";
import { jobsApi } from "../helpers/jobs.js";
import { startApp, type TestApp } from "../helpers/app.js";
import { API_KEY, HAS_STORIES_MODEL, STORIES_MODEL, testModel } from "../helpers/server.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

/** A job's end, from the app served in-process, announced to a real loopback receiver that verifies every Standard Webhooks signature. */
describe("job webhooks", () => {
  let server: TestApp;
  let key: string;
  let receiver: WebhookReceiver;
  let keysFile: string;
  let model: string;

  beforeAll(async () => {
    model = HAS_STORIES_MODEL ? STORIES_MODEL : await testModel("plain");
    keysFile = await tempKeysFile();
    const created = await createKeyWithSecret(keysFile, "cms", ["--rate", "1000/min"]);
    key = created.key;
    receiver = await startWebhookReceiver({ secret: created.secret });
    server = await startApp({
      model,
      env: { INKPRESS_API_KEYS: undefined, INKPRESS_KEYS_FILE: keysFile, INKPRESS_SEQUENCES: "1", INKPRESS_WEBHOOK_ALLOW: "127.0.0.1" },
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await receiver?.close();
  });

  it("signs the end of a job with the key's secret and records the attempt on the job", async () => {
    const api = jobsApi(server.url, key, server.fetch);
    const job = await api.create({ topic: "Pickling cucumbers", length: 120, webhook: { url: receiver.url } });
    expect(job.webhook).toEqual({ url: receiver.url, deliveries: [] });
    const [delivery] = await receiver.waitFor(1, 120_000);
    expect(delivery!.verified).toBe(true);
    expect(delivery!.headers["webhook-id"]).toBe(`msg_${job.id.slice(4)}`);
    expect(delivery!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(Math.abs(Number(delivery!.headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(60);
    const event = delivery!.event as { type: string; data: { id: string; status: string; result: { article: { title: string } } } };
    expect(event.type).toBe("job.succeeded");
    expect(event.data.id).toBe(job.id);
    expect(event.data.result.article.title).toBeTruthy();
    const recorded = await api.waitFor(job.id, (j) => (j.webhook?.deliveries.length ?? 0) === 1);
    expect(recorded.webhook!.deliveries[0]).toMatchObject({ attempt: 1, ok: true, status: 204 });
    expect(recorded.webhook!.nextAttemptAt).toBeUndefined();
  }, 180_000);

  it("keeps a failed attempt visible on the job and schedules the next one with backoff", async () => {
    receiver.answer(500);
    const api = jobsApi(server.url, key, server.fetch);
    const job = await api.create({ topic: "Sharpening a kitchen knife", length: 120, webhook: { url: receiver.url } });
    const recorded = await api.waitFor(job.id, (j) => (j.webhook?.deliveries.length ?? 0) === 1, 180_000);
    expect(recorded.webhook!.deliveries[0]).toMatchObject({ attempt: 1, ok: false, status: 500 });
    const wait = Date.parse(recorded.webhook!.nextAttemptAt!) - Date.parse(recorded.webhook!.deliveries[0]!.at);
    expect(wait).toBeGreaterThanOrEqual(55_000);
    receiver.answer(204);
  }, 240_000);

  it("announces a cancelled job too", async () => {
    const api = jobsApi(server.url, key, server.fetch);
    const running = await api.create({ topic: "Long walk", length: 2000, webhook: { url: receiver.url } });
    const before = receiver.received.length;
    await api.waitFor(running.id, (j) => j.status === "running");
    await api.cancel(running.id);
    await receiver.waitFor(before + 1, 60_000);
    expect(receiver.received.at(-1)!.event).toMatchObject({ type: "job.cancelled", data: { id: running.id, status: "cancelled" } });
  }, 180_000);

  it("refuses at submit a webhook to a private address the server does not allow, naming webhook.url", async () => {
    const strict = await startApp({ model, env: { INKPRESS_API_KEYS: undefined, INKPRESS_KEYS_FILE: keysFile } });
    try {
      for (const url of [receiver.url, "http://10.1.2.3/hook", "http://169.254.169.254/latest/meta-data"]) {
        const response = await jobsApi(strict.url, key, strict.fetch).submit({ topic: "x", webhook: { url } });
        expect(response.status).toBe(422);
        const body = await response.json();
        expect(body.errors).toEqual([expect.objectContaining({ path: "webhook.url" })]);
      }
    } finally {
      await strict.stop();
    }
  }, 60_000);
});

describe("a webhook asked for with the quick start's key (INKPRESS_API_KEYS)", () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startApp();
  });
  afterAll(() => server?.stop());

  it("is a 422 on webhook that says such keys cannot sign webhooks and how to get one that can, never rotate-secret", async () => {
    const response = await server.fetch("/api/v1/jobs", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY },
      body: JSON.stringify({ topic: "Home composting for beginners", webhook: { url: "https://cms.example.com/hooks/inkpress" } }),
    });
    expect(response.status).toBe(422);
    const problem = (await response.json()) as { detail: string; errors: Array<{ path: string }> };
    expect(problem.errors.map((error) => error.path)).toEqual(["webhook"]);
    expect(problem.detail).toMatch(
      /keys from INKPRESS_API_KEYS cannot sign webhooks; submit with a key made by `inkpress keys create --name NAME`/,
    );
    expect(problem.detail).not.toMatch(/rotate-secret/);
  });

  it("is not needed: the same job without a webhook is accepted, to be polled", async () => {
    const response = await server.fetch("/api/v1/jobs", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY },
      body: JSON.stringify({ topic: "Home composting for beginners" }),
    });
    expect(response.status).toBe(202);
    expect(response.headers.get("location")).toMatch(/^\/api\/v1\/jobs\/job_/);
  });
});
