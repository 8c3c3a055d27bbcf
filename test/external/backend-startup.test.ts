// `serve --backend` checks the inference server before it says it listens, and says what is
// wrong in words: real CLI processes against a plain HTTP server and a port nobody listens on.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { freePort } from "../helpers/port.js";
import { API_KEY, runCli } from "../helpers/server.js";

const serveWith = (backend: string) => runCli(["serve", "--backend", backend, "--port", "0"], { INKPRESS_API_KEYS: API_KEY });

describe("serve --backend at start-up", () => {
  it("an https:// URL for a server that speaks plain HTTP: one line saying so, and never `listening`", async () => {
    const plain = http.createServer((_req, res) => res.end("{}"));
    await new Promise<void>((resolve) => plain.listen(0, "127.0.0.1", resolve));
    try {
      const origin = `https://127.0.0.1:${(plain.address() as AddressInfo).port}`;
      const result = await serveWith(origin);
      expect(result.code).toBe(1);
      expect(result.stdout).not.toMatch(/listening/);
      expect(result.stderr.trim().split("\n")).toEqual([
        `inkpress: cannot use the backend: the server at ${origin} does not speak HTTPS (is its URL http://?)`,
      ]);
    } finally {
      plain.close();
    }
  }, 60_000);

  it("a port nobody listens on: one line, and never `listening`", async () => {
    const origin = `http://127.0.0.1:${await freePort()}`;
    const result = await serveWith(origin);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toMatch(/listening/);
    expect(result.stderr.trim().split("\n")).toEqual([`inkpress: cannot use the backend: ${origin} failed: connection refused`]);
  }, 60_000);
});
