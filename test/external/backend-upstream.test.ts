import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFaultProxy, type FaultProxy } from "../helpers/fault-proxy.js";
import { expectProblem, waitFor } from "../helpers/http.js";
import { BUILD_TIMEOUT_MS, startLlamaServer, type RunningLlamaServer } from "../helpers/llama-server.js";
import { API_KEY, HAS_STORIES_MODEL, STORIES_MODEL, runCli, startServer, type TestServer } from "../helpers/server.js";
import { fetchSse, type SseEvent } from "../helpers/sse.js";

// Upstream faults through the real CLI: `inkpress serve --backend` → the fault proxy
// (test/helpers/fault-proxy.ts) → a real llama-server on stories260K. Every fault ends in a
// problem+json answer or an SSE `error` event; the process never crashes and no client hangs.

if (!HAS_STORIES_MODEL) {
  console.warn(`SKIPPED: the inference-server fault suite needs ${STORIES_MODEL}, which is not there.`);
}

const BODY = { topic: "Keeping chickens", length: 300, seed: 5 };

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  const server = net.createServer();
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    }),
  );
}

describe("inkpress --backend at start-up", () => {
  it("a server that is not there is one line on stderr and exit code 1", async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const { code, stderr } = await runCli(["serve", "--backend", url, "--port", "0"], { INKPRESS_API_KEYS: API_KEY });
    expect(code).toBe(1);
    expect(stderr).toBe(`inkpress: cannot use the backend: ${url} failed: connection refused\n`);
  }, 30_000);

  it("a backend that is not an http URL is a configuration error", async () => {
    const { code, stderr } = await runCli(["serve", "--backend", "127.0.0.1:8080"], { INKPRESS_API_KEYS: API_KEY });
    expect(code).toBe(1);
    expect(stderr).toBe('inkpress: backend must be an http:// or https:// URL, got "127.0.0.1:8080"\n');
  });
});

describe.skipIf(!HAS_STORIES_MODEL)("inkpress --backend: upstream faults give 502/503/504, never a crash or a hang", () => {
  let llama: RunningLlamaServer;
  let proxy: FaultProxy;
  let server: TestServer;

  beforeAll(async () => {
    llama = await startLlamaServer({ model: STORIES_MODEL });
    proxy = await startFaultProxy(llama.url, () => llama.process.kill("SIGKILL"));
    server = await startServer(undefined, {}, { args: ["--backend", proxy.url] });
  }, BUILD_TIMEOUT_MS);
  afterAll(async () => {
    await server?.stop();
    await proxy?.close();
    await llama?.stop();
  });

  function stream(body: unknown) {
    return fetchSse(`${server.url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": API_KEY, accept: "text/event-stream" },
      body: JSON.stringify(body),
    });
  }

  it("a server answering 500 is a 502 problem with its message", async () => {
    proxy.fault = "error-500";
    const problem = await expectProblem(await server.generate(BODY), 502);
    proxy.fault = "none";
    expect(problem).toMatchObject({
      type: "/docs#upstream-failed",
      title: "Bad Gateway",
      detail: `${proxy.url}/completion answered 500: injected failure`,
    });
  });

  it("a server busy once (503) is asked again: the article is written", async () => {
    proxy.fault = "busy-once";
    const response = await server.generate(BODY);
    expect(response.status).toBe(200);
    expect(proxy.fault).toBe("none");
  });

  it("a server that stalls is a 504 once the request's deadline passes, and the next request is served", async () => {
    const impatient = await startServer(undefined, {}, { args: ["--backend", proxy.url, "--timeout", "3"] });
    try {
      proxy.fault = "stall-before-answer";
      const problem = await expectProblem(await impatient.generate(BODY), 504);
      expect(problem.detail).toBe("The article was not finished within the 3 s deadline; generation stopped.");
      proxy.fault = "none";
      expect((await server.generate({ ...BODY, length: 100 })).status).toBe(200);
    } finally {
      proxy.fault = "none";
      await impatient.stop();
    }
  });

  // Kills llama-server: the last tests here.
  it("a server killed mid-article ends the stream with an `error` event (502)", async () => {
    const { response, events } = await stream({ ...BODY, length: 2000 });
    expect(response.status).toBe(200);
    const seen: SseEvent[] = [];
    for await (const event of events) {
      seen.push(event);
      if (seen.filter((e) => e.event === "delta").length === 3) proxy.fault = "kill-mid-answer";
    }
    const last = seen.at(-1)!;
    expect(last.event).toBe("error");
    const problem = JSON.parse(last.data);
    expect(problem).toMatchObject({ status: 502, type: "/docs#upstream-failed", title: "Bad Gateway" });
    expect(problem.detail).toMatch(new RegExp(`^${proxy.url} (failed: connection \\w+|ended the stream mid-answer)$`));
    expect(seen.filter((e) => e.event === "done")).toEqual([]);
  });

  it("a server that is gone: 502 problem, /healthz says unreachable, the process lives on", async () => {
    proxy.fault = "none";
    const problem = await expectProblem(await server.generate(BODY), 502);
    expect(problem.detail).toMatch(new RegExp(`^${proxy.url} failed: connection \\w+$`));
    const health = await waitFor(
      async () => {
        const answer = await (await fetch(`${server.url}/healthz`)).json();
        return answer.backend.state === "unreachable" ? answer : undefined;
      },
      "/healthz reporting the upstream unreachable",
      10_000,
      250,
    );
    expect(health).toMatchObject({ status: "ok", backend: { kind: "llama-server", url: proxy.url, state: "unreachable" } });
    expect(server.process.exitCode).toBeNull();
  });
});
