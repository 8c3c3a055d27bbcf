import type { ArticleResponse } from "../../src/contract/response.js";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobsApi } from "../helpers/jobs.js";
import { API_KEY, HAS_STORIES_MODEL, STORIES_MODEL, runCli, startServer, testModel, type TestServer } from "../helpers/server.js";

const OTHER_KEY = "other-key-0123456789";
const keys = `${API_KEY},${OTHER_KEY}`;

/** A long article on a real model: long enough to be caught running. */
const LONG = { topic: "How a lighthouse keeper spends the winter", length: 2000, structure: "detailed", seed: 7 };

describe("jobs API, embedded store under the data folder", () => {
  let server: TestServer;
  let dataDir: string;
  let model: string;
  const mine = () => jobsApi(server.url, API_KEY);

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "inkpress-jobs-"));
    model = HAS_STORIES_MODEL ? STORIES_MODEL : await testModel("plain");
    server = await startServer(model, { INKPRESS_API_KEYS: keys, INKPRESS_DATA_DIR: dataDir, INKPRESS_SEQUENCES: "1" });
  }, 120_000);
  afterAll(() => server?.stop());

  it("answers 202 with the job and its Location, runs it, and shows the generate answer once it succeeded", async () => {
    const response = await mine().submit({ topic: "Growing basil on a windowsill", length: 150, seed: 3 });
    expect(response.status).toBe(202);
    const job = await response.json();
    expect(job).toMatchObject({ object: "job", status: "queued", runs: 0, progress: { words: 0 } });
    expect(job.id).toMatch(/^job_[0-9a-f]{32}$/);
    expect(response.headers.get("location")).toBe(`/api/v1/jobs/${job.id}`);
    expect(job.request).toMatchObject({ topic: "Growing basil on a windowsill", length: 150, seed: 3 });

    const done = await mine().waitFor(job.id);
    expect(done.status).toBe("succeeded");
    expect(done.runs).toBe(1);
    expect(done.result?.object).toBe("article");
    expect((done.result as ArticleResponse | undefined)?.request.seed).toBe(3);
    expect(done.progress.words).toBe(done.result?.article.wordCount);
    expect(Date.parse(done.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(done.startedAt!));
    expect(Date.parse(done.expiresAt!)).toBeGreaterThan(Date.parse(done.finishedAt!));
  }, 120_000);

  it("validates like generate and names the field: topic, webhook.url", async () => {
    const response = await mine().submit({ length: 10, webhook: { url: "ftp://example.com/x" } });
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
    const paths = (await response.json()).errors.map((e: { path: string }) => e.path);
    expect(paths).toEqual(expect.arrayContaining(["topic", "length", "webhook.url"]));
  });

  it("refuses a webhook for a key without a webhook secret", async () => {
    const response = await mine().submit({ topic: "x", webhook: { url: "https://example.com/hook" } });
    expect(response.status).toBe(422);
    expect((await response.json()).detail).toMatch(/webhook secret/);
  });

  it("hides a job from every other key: 404 to read or cancel it", async () => {
    const job = await mine().create({ topic: "Private notes", length: 100 });
    const other = jobsApi(server.url, OTHER_KEY);
    expect((await other.get(job.id)).status).toBe(404);
    expect((await other.cancel(job.id)).status).toBe(404);
    const listed = await (await other.list()).json();
    expect(listed.data.map((j: { id: string }) => j.id)).not.toContain(job.id);
    expect((await mine().get("job_nothing")).status).toBe(404);
    await mine().waitFor(job.id);
  }, 120_000);

  it("lists the caller's jobs newest first, a page at a time, filtered by status", async () => {
    const other = jobsApi(server.url, OTHER_KEY);
    const created = [];
    for (const topic of ["One", "Two", "Three"]) created.push(await other.create({ topic, length: 100 }));
    const seen: string[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const page = await (await other.list(`limit=1${cursor ? `&cursor=${cursor}` : ""}`)).json();
      expect(page.object).toBe("list");
      expect(page.data.length).toBeLessThanOrEqual(1);
      expect(page.data[0]?.result).toBeUndefined();
      seen.push(...page.data.map((j: { id: string }) => j.id));
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(created.map((j) => j.id).reverse());
    for (const job of created) await other.waitFor(job.id);
    const succeeded = await (await other.list("status=succeeded")).json();
    expect(succeeded.data).toHaveLength(3);
    expect((await (await other.list("status=queued")).json()).data).toHaveLength(0);
    expect((await other.list("status=lost")).status).toBe(422);
    expect((await other.list("limit=1000")).status).toBe(422);
    expect((await other.list("cursor=garbage")).status).toBe(422);
  }, 180_000);

  it("cancels a queued job and a running one, and refuses to cancel one that ended", async () => {
    const running = await mine().create(LONG);
    const queued = await mine().create({ ...LONG, seed: 8 });
    await mine().waitFor(running.id, (j) => j.status === "running" && j.progress.words > 0);

    const cancelQueued = await mine().cancel(queued.id);
    expect(cancelQueued.status).toBe(200);
    expect((await cancelQueued.json()).status).toBe("cancelled");

    const cancelRunning = await mine().cancel(running.id);
    expect((await cancelRunning.json()).status).toBe("cancelled");
    // It stays cancelled: the aborted run does not overwrite it.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const after = await (await mine().get(running.id)).json();
    expect(after.status).toBe("cancelled");
    expect(after.result).toBeUndefined();

    const again = await mine().cancel(running.id);
    expect(again.status).toBe(409);
    expect((await again.json()).detail).toMatch(/^The job was already cancelled/);
  }, 180_000);

  it("returns the same job for the same Idempotency-Key and body, and 422 for another body", async () => {
    const headers = { "idempotency-key": "batch-row-17" };
    const body = { topic: "Idempotent tea", length: 100 };
    const first = await mine().create(body, headers);
    const second = await mine().submit({ length: 100, topic: "Idempotent tea" }, headers);
    expect(second.status).toBe(202);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect((await second.json()).id).toBe(first.id);
    const changed = await mine().submit({ ...body, length: 200 }, headers);
    expect(changed.status).toBe(422);
    // Keys are per API key: another key's same Idempotency-Key is a new job.
    const other = await jobsApi(server.url, OTHER_KEY).create(body, headers);
    expect(other.id).not.toBe(first.id);
    await mine().waitFor(first.id);
    await jobsApi(server.url, OTHER_KEY).waitFor(other.id);
  }, 120_000);

  it("refuses a second server on the same data folder, in one line, since its jobs would run twice", async () => {
    const second = await runCli(["serve", "--model", model, "--port", "0", "--threads", "1"], {
      INKPRESS_API_KEYS: keys,
      INKPRESS_DATA_DIR: dataDir,
    });
    expect(second.code).toBe(1);
    expect(second.stderr.trim()).toBe(
      `inkpress: another inkpress process uses the data folder ${dataDir}, and its jobs would run twice: give each server its own --data-dir, or share jobs through --redis`,
    );
  }, 60_000);

  it("runs a job again after the process died mid-run, without losing it", async () => {
    const job = await mine().create({ ...LONG, seed: 11 });
    await mine().waitFor(job.id, (j) => j.status === "running" && j.progress.words > 0);
    server.process.kill("SIGKILL");
    await new Promise((resolve) => server.process.once("exit", resolve));
    server = await startServer(model, { INKPRESS_API_KEYS: keys, INKPRESS_DATA_DIR: dataDir, INKPRESS_SEQUENCES: "1" });
    const done = await mine().waitFor(job.id, undefined, 300_000);
    expect(done.status).toBe("succeeded");
    expect(done.runs).toBe(2);
    expect((done.result as ArticleResponse | undefined)?.request.seed).toBe(11);
    // Jobs that had ended before the crash are still there.
    const listed = await (await mine().list("status=cancelled")).json();
    expect(listed.data.length).toBeGreaterThanOrEqual(2);
  }, 400_000);
});

describe("jobs API bounds", () => {
  it("purges a finished job after the retention period, and refuses jobs past the queue size", async () => {
    const model = HAS_STORIES_MODEL ? STORIES_MODEL : await testModel("plain");
    const server = await startServer(model, { INKPRESS_SEQUENCES: "1" }, { args: ["--jobs-retention", "2s", "--jobs-queue-size", "1"] });
    try {
      const api = jobsApi(server.url, API_KEY);
      const first = await api.create(LONG);
      await api.waitFor(first.id, (j) => j.status === "running");
      await api.create({ topic: "Waiting", length: 100 });
      const refused = await api.submit({ topic: "One too many", length: 100 });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBeTruthy();
      expect((await refused.json()).detail).toMatch(/queue holds its limit of 1/);
      await api.cancel(first.id);
      expect((await api.get(first.id)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect((await api.get(first.id)).status).toBe(404);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
