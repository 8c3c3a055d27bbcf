import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_LIMITS, KeyStore } from "../../src/keys/store.js";
import { startApp, type TestApp } from "../helpers/app.js";
import { expectValidJsonLd, jsonLdOf } from "../helpers/jsonld.js";

// The JSON-LD Article names an author and a publisher only when someone named them: the request's
// `seo.author`, the key's publisher (`keys set-publisher`), else the server's `--publisher-name`.
// Without them neither appears: inkpress never invents who wrote or publishes an article.

type Node = Record<string, any>;
const request = { topic: "Home composting", length: 300, seed: 5, seo: { keywords: "compost bin" } };
const author = { name: "Ada Gardener", url: "https://example.com/about/ada" };
const article = async (server: TestApp, body: unknown, headers: Record<string, string> = {}) => {
  const answer = await server.generate(body, headers);
  expect(answer.status).toBe(200);
  return expectValidJsonLd(((await answer.json()) as Node).article.jsonLd).Article!;
};

describe("author and publisher in the structured data", () => {
  let plain: TestApp;
  let published: TestApp;
  let ownKey: string;
  beforeAll(async () => {
    plain = await startApp();
    const keysFile = path.join(await mkdtemp(path.join(tmpdir(), "inkpress-keys-")), "keys.json");
    const store = new KeyStore(keysFile);
    ownKey = (await store.create("shop", DEFAULT_LIMITS)).key;
    await store.setPublisher("shop", { name: "Shop Ltd", url: "https://shop.example" });
    published = await startApp({
      env: {
        INKPRESS_KEYS_FILE: keysFile,
        INKPRESS_PUBLISHER_NAME: "Garden Weekly",
        INKPRESS_PUBLISHER_URL: "https://garden.example",
        INKPRESS_PUBLISHER_LOGO: "https://garden.example/logo.png",
      },
    });
  });
  afterAll(async () => {
    await plain?.stop();
    await published?.stop();
  });

  it("names neither when nobody named them", async () => {
    const node = await article(plain, request);
    expect(node).not.toHaveProperty("author");
    expect(node).not.toHaveProperty("publisher");
  });

  it("carries the request's author and the server's publisher, in the answer and the HTML page alike", async () => {
    const body = { ...request, seo: { ...request.seo, author } };
    const node = await article(published, body);
    expect(node.author).toEqual({ "@type": "Person", ...author });
    expect(node.publisher).toEqual({
      "@type": "Organization",
      name: "Garden Weekly",
      url: "https://garden.example",
      logo: { "@type": "ImageObject", url: "https://garden.example/logo.png" },
    });
    const page = await (await published.generate(body, { accept: "text/html" })).text();
    const fromPage = (jsonLdOf(page) as Node)["@graph"][0];
    expect(fromPage.author).toEqual(node.author);
    expect(fromPage.publisher).toEqual(node.publisher);
  });

  it("prefers the key's own publisher over the server's", async () => {
    const node = await article(published, request, { "x-api-key": ownKey });
    expect(node.publisher).toEqual({ "@type": "Organization", name: "Shop Ltd", url: "https://shop.example" });
    expect(node).not.toHaveProperty("author");
  });

  it("refuses an author without a name or with a bad address, naming the field", async () => {
    for (const [bad, field] of [
      [{ url: "https://example.com" }, "seo.author.name"],
      [{ name: "  " }, "seo.author.name"],
      [{ name: "Ada", url: "javascript:alert(1)" }, "seo.author.url"],
      ["Ada", "seo.author"],
    ] as const) {
      const answer = await plain.generate({ ...request, seo: { ...request.seo, author: bad } });
      expect(answer.status).toBe(422);
      const problem = (await answer.json()) as Node;
      expect(problem.errors.map((e: Node) => e.path)).toEqual([field]);
    }
  });
});
