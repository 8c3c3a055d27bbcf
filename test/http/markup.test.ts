/**
 * The HTML the server hands out passes html-validate's recommended rules with no error and
 * no warning: the playground (`/`), the API reference (`/docs`) and an article page (the
 * `Accept: text/html` answer of generate), served in-process.
 */
import { HtmlValidate, type Message } from "html-validate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app.js";

const validator = new HtmlValidate({ extends: ["html-validate:recommended"] });

/** Each message as `rule line:column message`, so a failure names what to fix. */
async function problems(html: string): Promise<string[]> {
  const report = await validator.validateString(html);
  return report.results.flatMap((result) => result.messages.map((m: Message) => `${m.ruleId} ${m.line}:${m.column} ${m.message}`));
}

describe("html-validate's recommended rules", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(() => app?.stop());

  it.each(["/", "/docs"])("pass on %s", async (pathname) => {
    const response = await app.fetch(pathname);
    expect(response.status).toBe(200);
    expect(await problems(await response.text())).toEqual([]);
  });

  it("pass on an article page, its links and FAQ included", async () => {
    const response = await app.generate(
      {
        topic: "Home composting <b>for</b> beginners",
        length: 400,
        structure: "detailed",
        seo: { keywords: "compost bin, garden waste" },
        links: [{ url: "/guides/compost-bins", title: "How to choose a compost bin", keywords: "compost bin, tumbler" }],
      },
      { accept: "text/html" },
    );
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<a href="/guides/compost-bins">');
    expect(html).toMatch(/<h2>Frequently asked questions<\/h2>/);
    expect(await problems(html)).toEqual([]);
  });
});
