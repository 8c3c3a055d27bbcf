/**
 * `GET /docs` over HTTP: its curl example names the origin the page was requested from,
 * so it works as pasted whatever host and port the server is reached on.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, testModel, type TestServer } from "../helpers/server.js";

/** GET a path with a Host header of our choosing (fetch keeps the URL's). */
function getWithHost(url: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { host } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("the API reference page", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(await testModel("plain"), {}, { waitForModel: false });
  });
  afterAll(() => server?.stop());

  it("aims its curl example at the origin it was served from", async () => {
    const html = await (await fetch(`${server.url}/docs`)).text();
    expect(html).toContain(`curl -N ${server.url}/api/v1/generate`);
    expect(html).not.toContain("127.0.0.1:3000");
  });

  it("follows the Host header the page was asked with, on every request", async () => {
    const { status, body } = await getWithHost(`${server.url}/docs`, "docs.example:8080");
    expect(status).toBe(200);
    expect(body).toContain("curl -N http://docs.example:8080/api/v1/generate");
    const again = await (await fetch(`${server.url}/docs`)).text();
    expect(again).toContain(`curl -N ${server.url}/api/v1/generate`);
  });
});
