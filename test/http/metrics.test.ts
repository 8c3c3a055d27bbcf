import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app.js";
import { jobsApi } from "../helpers/jobs.js";
import { API_KEY } from "../helpers/server.js";
import { collectSse, readSse } from "../helpers/sse.js";

// /metrics on the in-process backend (the inference-server side is in backend-stream.test.ts),
// served in-process on the scripted backend: what is counted does not depend on the socket.

describe("/metrics (in-process model)", () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startApp();
  });
  afterAll(() => server?.stop());

  async function metrics(): Promise<(series: string) => number> {
    const response = await server.fetch("/metrics");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).not.toContain(API_KEY);
    return (series) => Number(new RegExp(`^${series.replace(/[{}()]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1] ?? 0);
  }

  it("needs no key and counts requests by final status, articles, tokens and timings", async () => {
    const before = await metrics();
    expect(before("inkpress_articles_total")).toBe(0);
    expect(before("inkpress_queue_depth")).toBe(0);

    const json: any = await (await server.generate({ topic: "Home composting", length: 150, seed: 1 })).json();
    const stream = await server.fetch("/api/v1/generate", {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY, accept: "text/event-stream" },
      body: JSON.stringify({ topic: "Home composting", length: 150, seed: 2 }),
    });
    const streamed = JSON.parse((await collectSse(readSse(stream.body!))).at(-1)!.data);
    expect((await server.generate({ topic: "" })).status).toBe(422);
    expect((await server.fetch("/no/such/path")).status).toBe(404);
    // A job's article is measured like a direct one.
    const jobs = jobsApi(server.url, API_KEY, server.fetch);
    const job = (await jobs.waitFor((await jobs.create({ topic: "Home composting", length: 100, seed: 3 })).id)).result!;

    const after = await metrics();
    expect(after('inkpress_requests_total{route="/api/v1/generate",status="200"}')).toBe(2);
    expect(after('inkpress_requests_total{route="/api/v1/generate",status="422"}')).toBe(1);
    expect(after('inkpress_requests_total{route="other",status="404"}')).toBe(1);
    expect(after('inkpress_requests_total{route="/metrics",status="200"}')).toBe(1);
    expect(after('inkpress_requests_total{route="/api/v1/jobs",status="202"}')).toBe(1);
    expect(after('inkpress_requests_total{route="/api/v1/jobs/:id",status="200"}')).toBeGreaterThanOrEqual(1);
    expect(after("inkpress_articles_total")).toBe(3);
    expect(after('inkpress_tokens_total{kind="prompt"}')).toBe(
      json.usage.promptTokens + streamed.usage.promptTokens + job.usage.promptTokens,
    );
    expect(after('inkpress_tokens_total{kind="completion"}')).toBe(
      json.usage.completionTokens + streamed.usage.completionTokens + job.usage.completionTokens,
    );
    expect(after("inkpress_time_to_first_token_seconds_count")).toBe(3);
    expect(after("inkpress_decode_tokens_per_second_count")).toBe(3);
    expect(after("inkpress_decode_tokens_per_second_sum")).toBeGreaterThan(0);
    expect(after("inkpress_generations_running")).toBe(0);
  });
});
