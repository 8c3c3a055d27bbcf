/**
 * `GET /docs`: its curl example names the origin the page was requested from, so it works
 * as pasted whatever host and port the server is reached on. Served in-process: the page
 * reads the Host header, which a socket would only carry.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app.js";

describe("the API reference page", () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startApp();
  });
  afterAll(() => server?.stop());

  /** GET a path with a Host header of our choosing. */
  async function getWithHost(pathname: string, host: string): Promise<{ status: number; body: string }> {
    const response = await server.fetch(pathname, { headers: { host } });
    return { status: response.status, body: await response.text() };
  }

  it("aims its curl example at the origin it was served from", async () => {
    const html = await (await server.fetch("/docs")).text();
    expect(html).toContain(`curl -N ${server.url}/api/v1/generate`);
    expect(html).not.toContain("127.0.0.1:3000");
  });

  it("follows the Host header the page was asked with, on every request", async () => {
    const { status, body } = await getWithHost("/docs", "docs.example:8080");
    expect(status).toBe(200);
    expect(body).toContain("curl -N http://docs.example:8080/api/v1/generate");
    const again = await (await server.fetch("/docs")).text();
    expect(again).toContain(`curl -N ${server.url}/api/v1/generate`);
  });
});
