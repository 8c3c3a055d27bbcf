import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app.js";
import { API_KEY } from "../helpers/server.js";

/** Every error answers as RFC 9457 problem+json, without a stack trace or a path of ours. */
async function expectProblem(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe("application/problem+json");
  const text = await response.text();
  expect(text).not.toMatch(/\n\s+at |node_modules|\/src\/|\.ts:/);
  const body = JSON.parse(text);
  expect(body).toMatchObject({ status, title: expect.any(String), detail: expect.any(String), type: expect.any(String) });
  return body;
}

// Served in-process on the scripted backend: what these answers say does not depend on the
// socket (what Node's parser refuses before the app sees it is in socket.test.ts and fuzz.test.ts).
describe("errors from the HTTP app", () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startApp();
  });
  afterAll(() => server?.stop());

  const valid = { topic: "Composting at home", length: 100 };

  it("answers 401 the same way for a missing, empty, unknown or doubled key", async () => {
    const bodies = [];
    const variants: Record<string, string>[] = [
      {},
      { "x-api-key": "" },
      { "x-api-key": "wrong-key" },
      { "x-api-key": `${API_KEY}, ${API_KEY}` },
    ];
    for (const headers of variants) {
      const response = await server.fetch(`/api/v1/generate`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(valid),
      });
      expect(response.headers.get("www-authenticate")).toBe('ApiKey header="x-api-key"');
      bodies.push(await expectProblem(response, 401));
    }
    expect(new Set(bodies.map((b) => JSON.stringify(b))).size).toBe(1);
  });

  it("does not accept the key in the query string", async () => {
    const response = await server.fetch(`/api/v1/generate?x-api-key=${API_KEY}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(valid),
    });
    await expectProblem(response, 401);
  });

  it("answers 400 for malformed JSON", async () => {
    const body = await expectProblem(await server.generate('{"topic": "x",'), 400);
    expect(body.detail).toMatch(/JSON/);
  });

  it.each([
    ["no topic", { length: 300 }, ["topic"]],
    ["an empty topic", { topic: "   " }, ["topic"]],
    ["a topic over 300 characters", { topic: "a".repeat(301) }, ["topic"]],
    ["length as a string", { topic: "x", length: "abc" }, ["length"]],
    ["length out of range", { topic: "x", length: 50 }, ["length"]],
    ["a fractional length", { topic: "x", length: 350.5 }, ["length"]],
    ["an unknown language", { topic: "x", language: "xx" }, ["language"]],
    ["a three-letter language", { topic: "x", language: "eng" }, ["language"]],
    ["seo as a string", { topic: "x", seo: "keywords" }, ["seo"]],
    ["seo as an array", { topic: "x", seo: [] }, ["seo"]],
    ["a wrong type inside seo", { topic: "x", seo: { headingTags: "yes" } }, ["seo.headingTags"]],
    ["keywords as an array", { topic: "x", seo: { keywords: ["a"] } }, ["seo.keywords"]],
    ["21 keywords", { topic: "x", seo: { keywords: Array.from({ length: 21 }, (_, i) => `k${i}`).join(",") } }, ["seo.keywords"]],
    ["a keyword over 80 characters", { topic: "x", seo: { keywords: "k".repeat(81) } }, ["seo.keywords"]],
    ["a title over 120 characters", { topic: "x", seo: { title: "t".repeat(121) } }, ["seo.title"]],
    ["a description over 320 characters", { topic: "x", seo: { description: "d".repeat(321) } }, ["seo.description"]],
    ["a tone over 40 characters", { topic: "x", tone: "t".repeat(41) }, ["tone"]],
    ["several bad fields at once", { length: "abc", language: "xx", seo: "s" }, ["topic", "length", "language", "seo"]],
    ["a body that is not an object", [1, 2], ["body"]],
  ])("answers 422 naming the field for %s", async (_, request, paths) => {
    const body = await expectProblem(await server.generate(request), 422);
    expect(body.errors.map((e: { path: string }) => e.path).sort()).toEqual([...paths].sort());
    for (const error of body.errors) expect(error.message).toEqual(expect.any(String));
  });

  it("answers 422 naming an unknown field, with the field it was likely meant to be, on every body that starts work", async () => {
    const post = (path: string, body: unknown, accept = "application/json") =>
      server.fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json", accept, "x-api-key": API_KEY },
        body: JSON.stringify(body),
      });
    const markdown = "# Composting\n\nA heap needs air and water.\n";
    const cases: [string, Promise<Response>, string, string][] = [
      ["generate", post("/api/v1/generate", { topic: "x", lenght: 300 }), "lenght", "length"],
      ["a stream", post("/api/v1/generate", { topic: "x", lenght: 300 }, "text/event-stream"), "lenght", "length"],
      ["a job", post("/api/v1/jobs", { topic: "x", lenght: 300, webhook: { url: "https://example.com/hook" } }), "lenght", "length"],
      ["a refresh job", post("/api/v1/jobs", { kind: "refresh", markdown, lenght: 300 }), "lenght", "length"],
      ["refresh", post("/api/v1/refresh", { markdown, lenght: 300 }), "lenght", "length"],
      ["analyse", post("/api/v1/analyse", { markdown, lenght: 300 }), "lenght", "length"],
      ["a member of seo", post("/api/v1/generate", { topic: "x", seo: { keywrods: "compost" } }), "seo.keywrods", "seo.keywords"],
      [
        "a member of a link",
        post("/api/v1/refresh", { markdown, links: [{ url: "/a", title: "A", keyword: "a" }] }),
        "links[0].keyword",
        "links[0].keywords",
      ],
      [
        "a job's webhook",
        post("/api/v1/jobs", { topic: "x", webhook: { url: "https://example.com/hook", urll: "x" } }),
        "webhook.urll",
        "webhook.url",
      ],
    ];
    for (const [what, response, path, meant] of cases) {
      const body = await expectProblem(await response, 422);
      expect(body.errors, what).toContainEqual({ path, message: `unknown field (did you mean ${meant}?)` });
      expect(body.detail, what).toContain(path);
    }
    // Far from every field: the fields are listed instead.
    const far = await expectProblem(await post("/api/v1/generate", { topic: "x", zzzzzzzz: 1 }), 422);
    expect(far.errors[0]).toMatchObject({
      path: "zzzzzzzz",
      message: expect.stringMatching(/^unknown field \(the fields are topic, length, /),
    });
  });

  it("names every unknown field in one 422, each with its suggestion, a field given at the wrong level included", async () => {
    const post = (path: string, body: unknown) =>
      server.fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": API_KEY },
        body: JSON.stringify(body),
      });
    const both = await expectProblem(await post("/api/v1/generate", { topic: "x", structur: "sections", langauge: "en" }), 422);
    expect(both.errors).toEqual([
      { path: "structur", message: "unknown field (did you mean structure?)" },
      { path: "langauge", message: "unknown field (did you mean language?)" },
    ]);
    expect(both.detail).toContain("structur, langauge");
    const cases: [string, unknown, { path: string; message: string }[]][] = [
      ["keywords at the top", { topic: "x", keywords: "x" }, [{ path: "keywords", message: "unknown field (did you mean seo.keywords?)" }]],
      [
        "seo's and style's members at the top, and a top-level field inside seo",
        { topic: "x", headingTags: false, avoid: ["a"], seo: { tone: "calm" } },
        [
          { path: "headingTags", message: "unknown field (did you mean seo.headingTags?)" },
          { path: "avoid", message: "unknown field (did you mean style.avoid?)" },
          { path: "seo.tone", message: "unknown field (did you mean tone?)" },
        ],
      ],
      [
        "typos beside a field of the wrong type",
        { topic: "x", lenght: 300, length: "long", seo: { keywrods: "a", titel: "b" } },
        [
          { path: "length", message: "length must be a number" },
          { path: "lenght", message: "unknown field (did you mean length?)" },
          { path: "seo.keywrods", message: "unknown field (did you mean seo.keywords?)" },
          { path: "seo.titel", message: "unknown field (did you mean seo.title?)" },
        ],
      ],
    ];
    for (const [what, body, errors] of cases) {
      const answer = await expectProblem(await post("/api/v1/generate", body), 422);
      expect(answer.errors, what).toEqual(expect.arrayContaining(errors));
      expect(answer.errors, what).toHaveLength(errors.length);
    }
  });

  it("answers 422 naming each unknown field of the publish and plan bodies, top level and nested", async () => {
    const post = (path: string, body: unknown) =>
      server.fetch(path, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": API_KEY },
        body: JSON.stringify(body),
      });
    const markdown = "---\ntitle: Composting\n---\n\nA heap needs air and water.\n";
    const publish = { target: "blog", stauts: "publish" };
    const stauts = { path: "publish.stauts", message: "unknown field (did you mean publish.status?)" };
    const cases: [string, string, unknown, { path: string; message: string }[]][] = [
      [
        "publish, top level and publish.*",
        "/api/v1/publish",
        { markdown, publish, markdwon: "x" },
        [stauts, { path: "markdwon", message: "unknown field (did you mean markdown?)" }],
      ],
      ["publish.* in generate", "/api/v1/generate", { topic: "x", publish }, [stauts]],
      ["publish.* in outline", "/api/v1/outline", { topic: "x", publish }, [stauts]],
      ["publish.* in a job", "/api/v1/jobs", { topic: "x", publish }, [stauts]],
      ["publish.* in a refresh job", "/api/v1/jobs", { kind: "refresh", markdown, publish }, [stauts]],
      [
        "plan, top level, keywords[i] and existing[i]",
        "/api/v1/plan",
        {
          topic: "Compost",
          keywords: [
            { keyword: "compost bin", volume: 10 },
            { keyword: "compost heap", volumes: 10 },
          ],
          existing: [{ url: "/compost", keyword: "compost", title: "Compost" }],
          langauge: "en",
        },
        [
          { path: "langauge", message: "unknown field (did you mean language?)" },
          { path: "keywords[1].volumes", message: "unknown field (did you mean keywords[1].volume?)" },
          { path: "existing[0].title", message: "unknown field (the fields are url, keyword)" },
        ],
      ],
    ];
    for (const [what, path, body, errors] of cases) {
      const answer = await expectProblem(await post(path, body), 422);
      expect(answer.errors, what).toEqual(expect.arrayContaining(errors));
      expect(answer.errors, what).toHaveLength(errors.length);
    }
  });

  it("answers 415 for a body that is not JSON, or undeclared", async () => {
    await expectProblem(await server.generate("topic=x", { "content-type": "text/plain" }), 415);
    const response = await server.fetch(`/api/v1/generate`, {
      method: "POST",
      headers: { "x-api-key": API_KEY },
      body: new Blob([JSON.stringify(valid)]),
    });
    await expectProblem(response, 415);
  });

  it("answers 413 for a body over 256 KiB", async () => {
    const body = await expectProblem(await server.generate({ topic: "x", tone: "p".repeat(270 * 1024) }), 413);
    expect(body.detail).toMatch(/262144/);
  });

  it("answers 405 with Allow for another method", async () => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const response = await server.fetch(`/api/v1/generate`, { method, headers: { "x-api-key": API_KEY } });
      expect(response.headers.get("allow")).toBe("POST");
      await expectProblem(response, 405);
    }
  });

  it("answers 404 for an unknown path", async () => {
    await expectProblem(await server.fetch(`/nothing-here`), 404);
    await expectProblem(await server.fetch(`/api/v1/nothing`, { headers: { "x-api-key": API_KEY } }), 404);
  });

  it("answers 406 when the client accepts no format we serve", async () => {
    await expectProblem(await server.generate(valid, { accept: "image/png" }), 406);
  });

  it("keeps serving after every error", async () => {
    const health = await server.fetch(`/healthz`);
    expect(health.status).toBe(200);
    const ok = await server.generate(valid);
    expect(ok.status).toBe(200);
    // Nothing failed unhandled on the way (in a process, that is what would have ended it).
    expect(server.output()).not.toMatch(/^\[(error|fatal)\]/m);
  });

  it("never logs a key", () => {
    expect(server.output()).not.toContain(API_KEY);
  });
});

// An error the app did not raise on purpose (here the model runtime failing with a message that
// quotes a grammar) is a 500 with the generic detail, whether the article is streamed or not.
describe("an unexpected failure while writing", () => {
  const INTERNAL = 'Failed to parse grammar: root ::= "the user\'s secret phrase"';
  let server: TestApp;
  beforeAll(async () => {
    server = await startApp({
      prose: () => ({
        next() {
          throw new Error(INTERNAL);
        },
      }),
    });
  });
  afterAll(() => server?.stop());

  const request = { topic: "Composting at home", length: 100 };

  it("answers a plain request with the generic detail", async () => {
    const body = await expectProblem(await server.generate(request), 500);
    expect(body.detail).toBe("An internal error stopped the request. It has been logged.");
    expect(JSON.stringify(body)).not.toContain("secret");
  });

  it("ends a stream with an error event holding the generic detail", async () => {
    const response = await server.generate({ ...request, stream: true });
    expect(response.status).toBe(200);
    const text = await response.text();
    const error = /event: error\ndata: (.*)\n/u.exec(text);
    expect(error, text).not.toBeNull();
    const body = JSON.parse(error![1]!);
    expect(body).toMatchObject({ status: 500, detail: "An internal error stopped the request. It has been logged." });
    expect(text).not.toContain("secret");
  });
});
