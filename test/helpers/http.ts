/**
 * HTTP below fetch: raw socket requests (for what fetch refuses to send: doubled or
 * non-ASCII headers, odd methods, invalid bytes, trickled requests) and the checks every
 * error answer must pass.
 */
import net from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { expect } from "vitest";

/** How a raw exchange ended. */
export type RawEnding = "end" | "reset" | "timeout";

/** A response read off a raw socket. */
export interface RawResponse {
  /** 0 when no status line arrived. */
  status: number;
  /** Lower-case names; repeated headers keep every value. */
  headers: Map<string, string[]>;
  /** The body, de-chunked, decoded as UTF-8. */
  body: string;
  /** Everything the server sent, as latin1. */
  raw: string;
  ending: RawEnding;
  /** The socket error, when the ending is "reset". */
  error?: string;
}

/** One header value of a raw response (the first when repeated). */
export function header(response: RawResponse, name: string): string | undefined {
  return response.headers.get(name.toLowerCase())?.[0];
}

/** Split a URL into what `net.connect` needs. */
export function hostPort(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname.replace(/^\[|\]$/g, ""), port: Number(u.port) };
}

/**
 * Send bytes on a fresh connection and read until the server closes it (send
 * `connection: close`), or until `timeoutMs`. Never throws: a reset is an ending.
 */
export function rawRequest(
  url: string,
  data: string | Buffer | (string | Buffer)[],
  options: { timeoutMs?: number } = {},
): Promise<RawResponse> {
  const { host, port } = hostPort(url);
  const parts = Array.isArray(data) ? data : [data];
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = net.connect(port, host, () => {
      for (const part of parts) socket.write(typeof part === "string" ? Buffer.from(part, "latin1") : part);
    });
    const finish = (ending: RawEnding, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...parseResponse(Buffer.concat(chunks)), ending, error });
    };
    const timer = setTimeout(() => finish("timeout"), options.timeoutMs ?? 10_000);
    socket.on("data", (d) => chunks.push(d));
    socket.on("end", () => finish("end"));
    socket.on("close", () => finish("end"));
    socket.on("error", (e: NodeJS.ErrnoException) => finish("reset", e.code ?? e.message));
  });
}

/** Parse an HTTP/1.1 response: status line, headers, body (content-length or chunked). */
export function parseResponse(bytes: Buffer): Omit<RawResponse, "ending" | "error"> {
  const raw = bytes.toString("latin1");
  const headEnd = raw.indexOf("\r\n\r\n");
  const head = headEnd === -1 ? raw : raw.slice(0, headEnd);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  const headers = new Map<string, string[]>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon < 1) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), line.slice(colon + 1).trim()]);
  }
  let body = headEnd === -1 ? Buffer.alloc(0) : bytes.subarray(headEnd + 4);
  if (/chunked/i.test(headers.get("transfer-encoding")?.join(",") ?? "")) body = dechunk(body);
  else {
    const length = headers.get("content-length")?.[0];
    if (length !== undefined) body = body.subarray(0, Number(length));
  }
  return { status, headers, body: body.toString("utf8"), raw };
}

function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const lineEnd = body.indexOf("\r\n", at);
    if (lineEnd === -1) break;
    const size = parseInt(body.subarray(at, lineEnd).toString("latin1"), 16);
    if (!Number.isFinite(size) || size === 0) break;
    out.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}

/** A request as raw bytes: request line, header lines (in order, repeats allowed), body with its content-length. */
export function rawHttp(
  requestLine: string,
  headers: [string, string | Buffer][],
  body: string | Buffer = "",
  options: { contentLength?: boolean; close?: boolean } = {},
): Buffer {
  const bodyBytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  const all: [string, string | Buffer][] = [...headers];
  if (options.contentLength ?? bodyBytes.length > 0) all.push(["content-length", String(bodyBytes.length)]);
  if (options.close ?? true) all.push(["connection", "close"]);
  return Buffer.concat([
    Buffer.from(`${requestLine}\r\n`, "latin1"),
    ...all.map(([name, value]) =>
      Buffer.concat([
        Buffer.from(`${name}: `, "latin1"),
        typeof value === "string" ? Buffer.from(value, "latin1") : value,
        Buffer.from("\r\n"),
      ]),
    ),
    Buffer.from("\r\n"),
    bodyBytes,
  ]);
}

/** What a problem+json answer must be: the content type, RFC 9457 members, the status echoed, no stack or source path. */
export function problemViolations(status: number, contentType: string | null | undefined, text: string, expectBody = true): string[] {
  const problems: string[] = [];
  if (contentType !== "application/problem+json")
    problems.push(`content-type is ${JSON.stringify(contentType)}, not application/problem+json`);
  if (!expectBody) return problems;
  if (/\n\s+at |node_modules|\/src\/|\.ts:\d/.test(text)) problems.push("the body shows a stack trace or a source path");
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return [...problems, `the body is not JSON: ${JSON.stringify(text.slice(0, 200))}`];
  }
  if (!body || typeof body !== "object") return [...problems, "the body is not a JSON object"];
  if (body.status !== status) problems.push(`body.status is ${body.status}, the response ${status}`);
  for (const member of ["type", "title", "detail"])
    if (typeof body[member] !== "string" || !body[member]) problems.push(`body.${member} is missing`);
  return problems;
}

/** Assert a fetch Response is the given problem+json and return its body. */
export async function expectProblem(response: Response, status: number): Promise<any> {
  const text = await response.text();
  expect(response.status, text).toBe(status);
  expect(problemViolations(status, response.headers.get("content-type"), text)).toEqual([]);
  return JSON.parse(text);
}

/** Assert a raw response is the given problem+json and return its body. */
export function expectRawProblem(response: RawResponse, status: number): any {
  expect(response.status, response.raw.slice(0, 500)).toBe(status);
  expect(problemViolations(status, header(response, "content-type"), response.body)).toEqual([]);
  return JSON.parse(response.body);
}

/** Poll `probe` every `everyMs` until it returns a value other than undefined; throws with `what` past `timeoutMs`. */
export async function waitFor<T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
  timeoutMs = 5_000,
  everyMs = 50,
): Promise<T> {
  const until = performance.now() + timeoutMs;
  while (true) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}

/**
 * The lines the server logged for requests, parsed. consola's basic reporter (chosen when
 * NODE_ENV=test or CI is set, as under vitest) prefixes them with "[log] "; that prefix is
 * tolerated here, and checked on its own where the format itself is the subject.
 */
export function requestLogLines(output: string): Record<string, unknown>[] {
  return output
    .split("\n")
    .map((line) => line.replace(/^\[log\] /, ""))
    .filter((line) => line.startsWith('{"requestId"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
