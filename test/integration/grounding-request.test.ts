import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, testModel, type TestServer } from "../helpers/server.js";

// The request's `sources`, `links` and `style` fields as a client meets them over real HTTP:
// every broken bound is a 422 naming the field (array members by index), a body too large
// for the server is a 413, and requests within every bound are taken.

const source = (i: number, text = `Compost note ${i}: brown leaves add carbon.`) => ({
  title: `Note ${i}`,
  url: `https://example.org/notes/${i}`,
  text,
});
const link = (i: number, url = `/pages/${i}`) => ({ url, title: `Page ${i} about compost bins`, keywords: "compost bin, garden" });

async function paths(response: Response): Promise<string[]> {
  expect(response.status).toBe(422);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  return (await response.json()).errors.map((e: { path: string }) => e.path);
}

describe("sources, links and style over real HTTP", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(await testModel("plain"));
  });
  afterAll(() => server?.stop());

  const generate = (fields: Record<string, unknown>) => server.generate({ topic: "Home composting", length: 100, ...fields });

  it.each([
    ["a javascript: URL", [link(0), link(1, "javascript:alert(1)")], ["links[1].url"]],
    ["a data: URL", [link(0, "data:text/html,<b>x</b>")], ["links[0].url"]],
    ["a protocol-relative URL (another host)", [link(0, "//evil.example/page")], ["links[0].url"]],
    ["a backslash path browsers read as another host", [link(0, "/\\evil.example")], ["links[0].url"]],
    ["a relative path", [link(0, "compost-bins")], ["links[0].url"]],
    ["an ftp URL", [link(0, "ftp://example.org/file")], ["links[0].url"]],
    ["a link without a title", [{ url: "/a" }], ["links[0].title"]],
    ["keywords of the wrong type", [{ ...link(0), keywords: 3 }], ["links[0].keywords"]],
    ["51 links", Array.from({ length: 51 }, (_, i) => link(i)), ["links"]],
    ["links as an object", { url: "/a", title: "A" }, ["links"]],
  ])("answers 422 naming the field for %s in links", async (_, links, expected) => {
    expect(await paths(await generate({ links }))).toEqual(expected);
  });

  it.each([
    ["21 sources", Array.from({ length: 21 }, (_, i) => source(i)), ["sources"]],
    ["more than 100 KiB of text in all", [source(0, "a".repeat(60 * 1024)), source(1, "b".repeat(41 * 1024))], ["sources"]],
    ["a javascript: URL", [{ ...source(0), url: "javascript:alert(1)" }], ["sources[0].url"]],
    ["a site path as URL (sources are shown with absolute URLs)", [{ ...source(0), url: "/notes" }], ["sources[0].url"]],
    ["a source without text", [{ title: "Empty" }], ["sources[0].text"]],
    ["blank text", [source(0, " \n\t ")], ["sources[0].text"]],
    ["a title over 200 characters", [{ ...source(0), title: "t".repeat(201) }], ["sources[0].title"]],
  ])("answers 422 naming the field for %s in sources", async (_, sources, expected) => {
    expect(await paths(await generate({ sources }))).toEqual(expected);
  });

  it.each([
    ["avoid as a string", { avoid: "Once upon a time" }, ["style.avoid"]],
    ["101 avoid phrases", { avoid: Array.from({ length: 101 }, (_, i) => `phrase ${i}`) }, ["style.avoid"]],
    ["an avoid phrase over 60 characters", { avoid: ["ok", "p".repeat(61)] }, ["style.avoid[1]"]],
    ["a voice over 500 characters", { voice: "v".repeat(501) }, ["style.voice"]],
    ["cliches as a string", { cliches: "no" }, ["style.cliches"]],
  ])("answers 422 naming the field for %s in style", async (_, style, expected) => {
    expect(await paths(await generate({ style }))).toEqual(expected);
  });

  it("answers 413 for sources larger than the body limit", async () => {
    const response = await generate({ sources: [source(0, "a".repeat(300 * 1024))] });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toBe("application/problem+json");
  });

  it("takes 20 sources with 100 KiB of text, 50 links of both kinds and a style, and writes the article", async () => {
    const each = (100 * 1024) / 20;
    const sources = Array.from({ length: 20 }, (_, i) => source(i, "Brown leaves add carbon. ".repeat(200).padEnd(each, "x")));
    expect(sources.reduce((n, s) => n + Buffer.byteLength(s.text), 0)).toBe(100 * 1024);
    const links = Array.from({ length: 50 }, (_, i) => link(i, i % 2 ? `https://example.org/pages/${i}` : `/pages/${i}`));
    const response = await generate({
      sources,
      links,
      style: { avoid: ["Once upon a time"], voice: "plain British English", cliches: false },
    });
    expect(response.status, await response.clone().text()).toBe(200);
    expect((await response.json()).object).toBe("article");
  });
});
