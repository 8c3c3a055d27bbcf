import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * What the proxy does to the next generation requests (`/completion`, `/v1/completions`);
 * every other request passes through untouched.
 * - `none`: pass through
 * - `error-500`: answer 500 with a JSON error
 * - `busy-once`: answer 503 once, then pass through
 * - `stall-before-answer`: never answer
 * - `stall-mid-answer`: pass the first chunk of the answer, then stay silent with the connection open
 * - `kill-mid-answer`: pass the first chunk, then kill the server behind it
 * - `strip-grammar`: pass through without the grammar fields, as a server that ignores them would
 * - `refuse-token-prompts`: answer 400 to a prompt of token ids, as a server that takes only text would
 */
export type Fault =
  | "none"
  | "error-500"
  | "busy-once"
  | "stall-before-answer"
  | "stall-mid-answer"
  | "kill-mid-answer"
  | "strip-grammar"
  | "refuse-token-prompts";

const GRAMMAR_FIELDS = ["grammar", "structured_outputs", "guided_grammar"];

/** A generation request as the proxy received it. */
export interface RecordedRequest {
  path: string;
  body: Record<string, unknown>;
}

/** A loopback HTTP proxy in front of a real server that injects faults and records the generation requests. */
export interface FaultProxy {
  url: string;
  fault: Fault;
  /** Every generation request so far, in order. */
  recorded: RecordedRequest[];
  close(): Promise<void>;
}

/** Start a proxy to `target`; `kill` ends the server behind it (for `kill-mid-answer`). */
export async function startFaultProxy(target: string, kill: () => void): Promise<FaultProxy> {
  const proxy: FaultProxy = {
    url: "",
    fault: "none",
    recorded: [],
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer(async (req, res) => {
    const generating = req.url === "/completion" || req.url === "/v1/completions";
    const fault = generating ? proxy.fault : "none";
    let body = Buffer.concat(await req.toArray());
    if (generating) proxy.recorded.push({ path: req.url!, body: JSON.parse(body.toString()) });
    if (fault === "error-500" || fault === "busy-once") {
      if (fault === "busy-once") proxy.fault = "none";
      const status = fault === "busy-once" ? 503 : 500;
      res
        .writeHead(status, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { code: status, message: "injected failure" } }));
      return;
    }
    if (fault === "stall-before-answer") return;
    if (fault === "refuse-token-prompts" && Array.isArray(JSON.parse(body.toString()).prompt)) {
      res
        .writeHead(400, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { code: 400, message: "prompt must be a string" } }));
      return;
    }
    if (fault === "strip-grammar") {
      const json = JSON.parse(body.toString());
      for (const field of GRAMMAR_FIELDS) delete json[field];
      body = Buffer.from(JSON.stringify(json));
    }
    const upstream = http.request(
      new URL(req.url!, target),
      { method: req.method, headers: { ...req.headers, "content-length": body.length } },
      (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        // A server that dies mid-answer cuts the client's connection too.
        answer.on("close", () => answer.complete || res.destroy());
        if (fault !== "stall-mid-answer" && fault !== "kill-mid-answer") return void answer.pipe(res);
        answer.once("data", (chunk: Buffer) => {
          answer.removeAllListeners("close");
          if (fault === "stall-mid-answer") return void res.write(chunk, () => answer.destroy());
          // A short answer can arrive whole in its first chunk; the client's connection is cut all the same.
          kill();
          res.write(chunk, () => res.destroy());
        });
      },
    );
    upstream.on("error", () => res.destroy());
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return proxy;
}
