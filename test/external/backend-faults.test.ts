import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Backend, Writer } from "../../src/model/backend.js";
import { ModelLoadError } from "../../src/model/errors.js";
import { connectBackend } from "../../src/model/remote/connect.js";
import { UpstreamError } from "../../src/model/remote/errors.js";
import { startFaultProxy, type FaultProxy } from "../helpers/fault-proxy.js";
import { BUILD_TIMEOUT_MS, startLlamaServer, type RunningLlamaServer } from "../helpers/llama-server.js";
import { HAS_STORIES_MODEL, STORIES_MODEL } from "../helpers/server.js";

if (!HAS_STORIES_MODEL) {
  console.warn(`SKIPPED: the remote backend fault suite needs ${STORIES_MODEL}, which is not there.`);
}

/** Fail fast: one quick retry, a short stall limit. */
const FAST = { retries: 1, retryDelayMs: 50, stallTimeoutMs: 1000 };
/** Connecting in a case that is not about stalls: a loaded machine may take longer than a second to answer connect's questions. */
const CONNECT = { ...FAST, stallTimeoutMs: 10_000 };

async function drain(writer: Writer, seed = 1): Promise<void> {
  for await (const piece of writer.generate({ maxTokens: 20, seed })) expect(piece).toBeTypeOf("string");
}

/** The step's error, which must be an {@link UpstreamError}. */
async function failure(writer: Writer): Promise<UpstreamError> {
  const error = await drain(writer).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

/** A server on loopback answering every request from `routes` (by path) or 404. */
async function fakeServer(routes: Record<string, unknown>): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    const path = req.url!.split("?")[0]!;
    if (path in routes) res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(routes[path]));
    else res.writeHead(404).end("404 page not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

describe("remote backend: servers inkpress cannot use fail at start-up with one line", () => {
  it("a server that is not there", async () => {
    const closed = await fakeServer({});
    await closed.close();
    const error = await connectBackend(closed.url, FAST).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelLoadError);
    expect((error as Error).message).toBe(`cannot use the backend: ${closed.url} failed: connection refused`);
  });

  it("an OpenAI-compatible server without context size or token counts (neither Ollama's API nor LM Studio's)", async () => {
    const ollama = await fakeServer({ "/v1/models": { object: "list", data: [{ id: "qwen2.5:1.5b", object: "model" }] } });
    const error = await connectBackend(ollama.url, FAST).catch((e: unknown) => e);
    await ollama.close();
    expect(error).toBeInstanceOf(ModelLoadError);
    expect((error as Error).message).toMatch(
      /is neither llama-server nor vLLM-compatible: it does not report the model's context size .*, nor token counts/,
    );
    expect((error as Error).message).not.toContain("\n");
  });

  it("a URL that is not one", async () => {
    await expect(connectBackend("not a url")).rejects.toThrow(new ModelLoadError("the backend URL not a url is not a URL"));
  });
});

describe.skipIf(!HAS_STORIES_MODEL)("remote backend: upstream faults give UpstreamError, never a hang or a crash", () => {
  let server: RunningLlamaServer;
  let proxy: FaultProxy;
  let backend: Backend;

  beforeAll(async () => {
    server = await startLlamaServer({ model: STORIES_MODEL });
    proxy = await startFaultProxy(server.url, () => server.process.kill("SIGKILL"));
    backend = await connectBackend(proxy.url, FAST);
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await backend?.dispose();
    await proxy?.close();
    await server?.stop();
  });

  async function opened(): Promise<Writer> {
    const writer = await backend.writer();
    await writer.begin({ system: "", user: "", completion: "" });
    writer.append("Once upon a time");
    return writer;
  }

  it("an OpenAI-compatible server that ignores grammars is refused at start-up", async () => {
    proxy.fault = "strip-grammar";
    const error = await connectBackend(proxy.url, { ...CONNECT, api: "openai" }).catch((e: unknown) => e);
    proxy.fault = "none";
    expect(error).toBeInstanceOf(ModelLoadError);
    expect((error as Error).message).toBe(
      `${proxy.url} does not constrain /v1/completions output with a GBNF grammar, which inkpress needs`,
    );
  });

  it("an OpenAI-compatible server that takes no token ids gets text prompts, and says so in its report", async () => {
    proxy.fault = "refuse-token-prompts";
    try {
      const text = await connectBackend(proxy.url, { ...CONNECT, api: "openai" });
      expect(await text.report()).toMatchObject({ kind: "llama-server", prompts: "text" });
      const writer = await text.writer();
      await writer.begin({ system: "", user: "", completion: "" });
      writer.append("Once upon a time");
      await drain(writer);
      await drain(writer, 2);
      expect(writer.text.length).toBeGreaterThan("Once upon a time".length);
      await writer.dispose();
      await text.dispose();
    } finally {
      proxy.fault = "none";
    }
  });

  it("a 500 fails the step with 502 and the server's message", async () => {
    const writer = await opened();
    proxy.fault = "error-500";
    const error = await failure(writer);
    expect(error.status).toBe(502);
    expect(error.message).toBe(`${proxy.url}/completion answered 500: injected failure`);
    expect(writer.text).toBe("Once upon a time");
    await writer.dispose();
  });

  it("a 503 before the answer starts is retried", async () => {
    const writer = await opened();
    proxy.fault = "busy-once";
    await drain(writer);
    expect(writer.text.length).toBeGreaterThan("Once upon a time".length);
    await writer.dispose();
  });

  it("a server that never answers fails the step with 504", async () => {
    const writer = await opened();
    proxy.fault = "stall-before-answer";
    const error = await failure(writer);
    expect(error.status).toBe(504);
    expect(error.message).toBe(`${proxy.url} sent nothing for 1 s`);
    await writer.dispose();
  });

  it("a server that falls silent mid-answer fails the step with 504", async () => {
    const writer = await opened();
    proxy.fault = "stall-mid-answer";
    const error = await failure(writer);
    expect(error.status).toBe(504);
    await writer.dispose();
  });

  // Kills the server: the last test here.
  it("a server killed mid-article fails the step with 502; the next step finds it gone", async () => {
    const writer = await opened();
    proxy.fault = "none";
    await drain(writer, 1);
    proxy.fault = "kill-mid-answer";
    const cut = await failure(writer);
    expect(cut.status).toBe(502);
    expect(cut.message).toMatch(new RegExp(`^${proxy.url} (failed|ended the stream mid-answer)`));
    proxy.fault = "none";
    const gone = await failure(writer);
    expect(gone.status).toBe(502);
    await writer.dispose();
  });
});
