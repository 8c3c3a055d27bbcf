import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectArticleBasics, parseArticle } from "../helpers/article.js";
import { runCli, startServer, testModel, type TestServer } from "../helpers/server.js";

describe("inkpress generate (no server)", () => {
  let model: string;
  let server: TestServer;
  beforeAll(async () => {
    model = await testModel("plain");
    server = await startServer(model);
  });
  afterAll(() => server?.stop());

  const base = (...extra: string[]) => ["generate", "--model", model, "--threads", "1", "--topic", "Urban beekeeping", "--length", "200", ...extra];

  it("writes Markdown to stdout and progress to stderr", async () => {
    const result = await runCli(base("--keywords", "beehive, honey", "--seed", "9"));
    expect(result.code).toBe(0);
    const article = parseArticle(result.stdout);
    expect(article.headings[0]?.depth).toBe(1);
    expect(result.stderr).toMatch(/done: \d+ words in [\d.]+ s, SEO score \d+/);
    expect(result.stdout).not.toMatch(/done:/);
  });

  it("writes the same article as the API for the same seeded request", async () => {
    const cli = await runCli(base("--keywords", "beehive, honey", "--seed", "9", "--format", "json"));
    const fromCli = JSON.parse(cli.stdout);
    const fromApi = await (await server.generate({ topic: "Urban beekeeping", length: 200, seed: 9, seo: { keywords: "beehive, honey" } })).json();
    expect(fromCli.article).toEqual({ ...fromApi.article });
    expect(fromCli.request).toEqual(fromApi.request);
    expectArticleBasics(fromCli, "beehive", true);
  });

  it("writes a full HTML document into a file with -o, and honours --no-heading-tags", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-cli-"));
    const file = path.join(dir, "article.html");
    const result = await runCli(base("--no-heading-tags", "--language", "fr", "--format", "html", "-o", file));
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    const html = await readFile(file, "utf8");
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toMatch(/<html[^>]* lang="fr"/);
    expect(html).not.toMatch(/<h[1-6][\s>]/);
  });

  it("refuses a bad request with the same words as the API's 422, and exit code 1", async () => {
    const result = await runCli(["generate", "--model", model, "--topic", "x", "--length", "abc", "--language", "xx"]);
    expect(result.code).toBe(1);
    const api = await (await server.generate({ topic: "x", length: "abc", language: "xx" })).json();
    for (const error of api.errors) expect(result.stderr).toContain(`${error.path}: ${error.message}`);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("refuses an unknown format", async () => {
    const result = await runCli(base("--format", "pdf"));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/format must be one of md, html, json/);
  });
});
