/**
 * The OpenAPI document, served in-process on the scripted backend: it is public, it is OpenAPI 3.1, and its request
 * schema agrees with the server's validation. A corpus of requests (valid ones and ones
 * that break each rule) is judged by ajv against the document's schema and by the real
 * app (200 or 422); a test fails where the two disagree.
 */
// The 2020-12 dialect of JSON Schema, which OpenAPI 3.1 uses (named import: ajv is CommonJS).
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULTS, LIMITS } from "../../src/contract/request.js";
import { PROBLEM_TYPES } from "../../src/http/problem.js";
import type { Job } from "../../src/contract/job.js";
import { jobsApi } from "../helpers/jobs.js";
import { startApp, type TestApp } from "../helpers/app.js";
import { API_KEY } from "../helpers/server.js";

/** Several keys, used in turn, so the corpus stays inside each key's rate limit (60 a minute). */
const KEYS = [API_KEY, "openapi-test-key-2", "openapi-test-key-3", "openapi-test-key-4"];

type Doc = Record<string, any>;

/** A validator for one schema of the document (a `#/components/schemas/*` ref, or a schema), its refs resolved. */
function compile(doc: Doc, target: string | Doc): ValidateFunction {
  const rewritten = JSON.parse(JSON.stringify(doc.components.schemas).replaceAll('"#/components/schemas/', '"#/$defs/'));
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  const root = typeof target === "string" ? { $ref: target.replace("#/components/schemas/", "#/$defs/") } : target;
  return ajv.compile({ $defs: rewritten, ...root });
}

/** The JSON schema of the generate request body, kept in `components.requestBodies`. */
const requestSchema = (doc: Doc): Doc => doc.components.requestBodies.GenerateRequest.content["application/json"].schema;

const base = { topic: "Home composting", length: 100 };
const chars = (n: number, c = "a") => c.repeat(n);

/**
 * The agreement corpus: `[name, body]`. Every valid request is short (`length: 100`, or
 * larger ones that are cancelled as soon as the server has accepted them).
 *
 * Left out on purpose, because they are rules JSON Schema cannot express; the schema
 * names each of them in the field's `description` (asserted below), and the "known
 * differences" test pins what each side says:
 * - `seo.keywords`: at most 20 keywords, each at most 80 characters (checked on the list
 *   the string is split into, after trimming and dropping duplicates);
 * - lengths count after the text clean-up and trimming, so padding or control characters
 *   beyond a maximum, and characters outside the BMP (2 UTF-16 units each), differ.
 */
const CORPUS: [string, unknown][] = [
  // valid
  ["minimal", base],
  ["one-character topic", { ...base, topic: "x" }],
  ["300-character topic", { ...base, topic: chars(LIMITS.topic) }],
  ["padded topic within the limit", { ...base, topic: "  Home composting  " }],
  ["non-ASCII topic", { ...base, topic: "Café crème — été à Zürich" }],
  ["length at its minimum", { ...base, length: LIMITS.lengthMin }],
  ["length at its maximum", { ...base, length: LIMITS.lengthMax }],
  ["length omitted (default)", { topic: "Home composting" }],
  ["length written as 1e3", { ...base, length: 1e3 }],
  ["empty tone (default)", { ...base, tone: "" }],
  ["40-character tone", { ...base, tone: chars(LIMITS.word) }],
  ["language in capitals", { ...base, language: "DE" }],
  ["language ja", { ...base, language: "ja" }],
  ["free-text structure", { ...base, structure: "step-by-step guide" }],
  ["40-character structure", { ...base, structure: chars(LIMITS.word) }],
  ["seed 0", { ...base, seed: 0 }],
  ["largest seed", { ...base, seed: 2 ** 32 - 1 }],
  ["empty seo", { ...base, seo: {} }],
  ["keywords", { ...base, seo: { keywords: "compost bin, garden waste" } }],
  ["empty keywords", { ...base, seo: { keywords: "" } }],
  ["120-character title", { ...base, seo: { title: chars(LIMITS.title) } }],
  ["empty title", { ...base, seo: { title: "" } }],
  ["320-character description", { ...base, seo: { description: chars(LIMITS.description) } }],
  ["headingTags false", { ...base, seo: { headingTags: false } }],
  ["stream false", { ...base, stream: false }],
  ["a padded language in capitals", { ...base, language: " DE " }],
  [
    "a link to a page of the site and one elsewhere",
    {
      ...base,
      links: [
        { url: "/compost", title: "Compost" },
        { url: "HTTPS://example.com/a?b#c", title: "B" },
      ],
    },
  ],
  // an edited outline that breaks form rules is written as given; the report says what it breaks
  ["an outline opening on an H3", { ...base, outline: { introduction: 30, headings: [{ level: 3, text: "First", words: 30 }] } }],
  ["an outline section of 600 words", { ...base, outline: { introduction: 5, headings: [{ level: 2, text: "All of it", words: 600 }] } }],
  [
    "H3s under key takeaways, headings off",
    {
      ...base,
      seo: { headingTags: false },
      outline: {
        introduction: 0,
        headings: [
          { level: 2, text: "Takeaways", words: 0, kind: "takeaways" },
          { level: 3, text: "More", words: 5 },
        ],
      },
    },
  ],
  [
    "everything at once",
    {
      topic: "Home composting",
      length: 150,
      tone: "formal",
      language: "en",
      structure: "detailed",
      seed: 42,
      seo: { keywords: "compost, soil", title: "Compost", description: "All about compost.", headingTags: true },
      stream: false,
    },
  ],
  // invalid: the body
  ["array body", [base]],
  ["null body", null],
  ["string body", "Home composting"],
  ["number body", 42],
  // invalid: topic
  ["topic missing", { length: 100 }],
  ["empty topic", { ...base, topic: "" }],
  ["blank topic", { ...base, topic: "   " }],
  ["301-character topic", { ...base, topic: chars(LIMITS.topic + 1) }],
  ["numeric topic", { ...base, topic: 5 }],
  ["null topic", { ...base, topic: null }],
  ["array topic", { ...base, topic: ["Home composting"] }],
  // invalid: length
  ["length as a string", { ...base, length: "100" }],
  ["length below the minimum", { ...base, length: LIMITS.lengthMin - 1 }],
  ["length above the maximum", { ...base, length: LIMITS.lengthMax + 1 }],
  ["fractional length", { ...base, length: 100.5 }],
  ["negative length", { ...base, length: -100 }],
  ["null length", { ...base, length: null }],
  ["boolean length", { ...base, length: true }],
  // invalid: tone, language, structure
  ["41-character tone", { ...base, tone: chars(LIMITS.word + 1) }],
  ["numeric tone", { ...base, tone: 5 }],
  ["numeric language", { ...base, language: 5 }],
  ["null language", { ...base, language: null }],
  ["array language", { ...base, language: ["en"] }],
  ["an unknown language code", { ...base, language: "xx" }],
  ["a three-letter language code", { ...base, language: "eng" }],
  ["41-character structure", { ...base, structure: chars(LIMITS.word + 1) }],
  // invalid: links and outlines
  ["a javascript: link", { ...base, links: [{ url: "javascript:alert(1)", title: "x" }] }],
  ["a link to another host by //", { ...base, links: [{ url: "//evil.example/x", title: "x" }] }],
  ["a source URL that is a site path", { ...base, sources: [{ title: "x", url: "/a", text: "Some text." }] }],
  [
    "a kind on an H3",
    {
      ...base,
      outline: {
        introduction: 30,
        headings: [
          { level: 2, text: "A", words: 40 },
          { level: 3, text: "B", words: 30, kind: "faq" },
        ],
      },
    },
  ],
  ["object structure", { ...base, structure: { preset: "sections" } }],
  // invalid: seed
  ["negative seed", { ...base, seed: -1 }],
  ["seed of 2^32", { ...base, seed: 2 ** 32 }],
  ["fractional seed", { ...base, seed: 1.5 }],
  ["seed as a string", { ...base, seed: "42" }],
  // invalid: seo
  ["seo as a string", { ...base, seo: "compost" }],
  ["seo as an array", { ...base, seo: [] }],
  ["null seo", { ...base, seo: null }],
  ["keywords as a list", { ...base, seo: { keywords: ["compost", "soil"] } }],
  ["numeric keywords", { ...base, seo: { keywords: 5 } }],
  ["121-character title", { ...base, seo: { title: chars(LIMITS.title + 1) } }],
  ["numeric title", { ...base, seo: { title: 5 } }],
  ["321-character description", { ...base, seo: { description: chars(LIMITS.description + 1) } }],
  ["boolean description", { ...base, seo: { description: true } }],
  ["headingTags as a string", { ...base, seo: { headingTags: "true" } }],
  ["headingTags as a number", { ...base, seo: { headingTags: 1 } }],
  ["stream as a string", { ...base, stream: "yes" }],
  // invalid: unknown fields, at the top and inside an object
  ["a misspelt field", { ...base, lenght: 300 }],
  ["an unknown field", { ...base, extra: 1, nested: { deep: [1, 2, 3] } }],
  ["an unknown seo field", { ...base, seo: { canonical: "https://example.com" } }],
];

/** What the server says of a body: true (200), false (422); anything else fails the test. */
async function serverVerdict(server: TestApp, body: unknown, key: string): Promise<boolean> {
  // An event stream answers 200 as soon as the request is accepted; it is cancelled right
  // away, which stops the generation, so even a 5000-word request is judged quickly.
  const response = await server.generate(JSON.stringify(body), { accept: "text/event-stream", "x-api-key": key });
  try {
    if (response.status === 200) return true;
    if (response.status === 422) return false;
    throw new Error(`unexpected ${response.status}: ${await response.text()}`);
  } finally {
    await response.body?.cancel().catch(() => {});
  }
}

describe("the OpenAPI document", () => {
  let server: TestApp;
  let doc: Doc;
  beforeAll(async () => {
    server = await startApp({ env: { INKPRESS_API_KEYS: KEYS.join(",") } });
    const response = await server.fetch(`/api/v1/openapi.json`);
    expect(response.status).toBe(200);
    doc = await response.json();
  });
  afterAll(() => server?.stop());

  it("is OpenAPI 3.1, served without a key, with the paths and the key scheme", async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: "inkpress", version: expect.any(String) });
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/v1/generate", "/healthz", "/api/v1/openapi.json"]));
    expect(doc.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: "apiKey", in: "header", name: "x-api-key" }));
    const generate = doc.paths["/api/v1/generate"].post;
    expect(generate.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths["/healthz"].get.security).toEqual([]);
    expect(generate.requestBody).toEqual({ $ref: "#/components/requestBodies/GenerateRequest" });
    expect(Object.keys(generate.responses["200"].content)).toEqual(["application/json", "text/markdown", "text/html", "text/event-stream"]);
    for (const status of [400, 401, 404, 405, 406, 413, 415, 422, 503, 504]) {
      const response = generate.responses[String(status)];
      expect(response, `response ${status}`).toBeDefined();
      const resolved = doc.components.responses[response.$ref.split("/").at(-1)];
      expect(Object.keys(resolved.content)).toEqual(["application/problem+json"]);
    }
    expect(doc.components.schemas.Problem.properties).toHaveProperty("errors");
    // Even a wrong key does not matter; the exemption is this one path only.
    expect((await server.fetch(`/api/v1/openapi.json`, { headers: { "x-api-key": "wrong" } })).status).toBe(200);
    expect((await server.fetch(`/api/v1/openapi.jsonx`)).status).toBe(401);
    expect((await server.fetch(`/api/v1/generate`, { method: "POST" })).status).toBe(401);
  });

  it("describes the input shape of the valibot schema", () => {
    const schema = requestSchema(doc);
    expect(schema.type).toBe("object");
    expect(schema.required).toEqual(["topic"]);
    expect(schema.additionalProperties).toBe(false);
    expect(schema.properties.seo.additionalProperties).toBe(false);
    const p = schema.properties;
    expect(p.topic).toMatchObject({ type: "string", minLength: 1, maxLength: LIMITS.topic });
    expect(p.length).toMatchObject({ type: "integer", minimum: LIMITS.lengthMin, maximum: LIMITS.lengthMax, default: DEFAULTS.length });
    expect(p.tone).toMatchObject({ type: "string", maxLength: LIMITS.word, default: DEFAULTS.tone });
    expect(p.language).toMatchObject({ type: "string", default: DEFAULTS.language });
    expect(p.structure).toMatchObject({ type: "string", maxLength: LIMITS.word, default: DEFAULTS.structure });
    expect(p.seed).toMatchObject({ type: "integer", minimum: 0, maximum: 2 ** 32 - 1 });
    expect(p.seed.default).toBeUndefined();
    expect(p.seo).toMatchObject({ type: "object", default: {} });
    expect(p.seo.properties.keywords).toMatchObject({ type: "string" });
    expect(p.seo.properties.title).toMatchObject({ type: "string", maxLength: LIMITS.title });
    expect(p.seo.properties.description).toMatchObject({ type: "string", maxLength: LIMITS.description });
    expect(p.seo.properties.headingTags).toMatchObject({ type: "boolean", default: DEFAULTS.headingTags });
    expect(p.stream).toMatchObject({ type: "boolean", default: false });
    for (const field of [p.tone, p.language, p.structure, p.seo.properties.keywords]) expect(field.enum).toBeUndefined();
    // The rules JSON Schema cannot express are written out, in the server's own words.
    expect(p.language.description).toMatch(/ISO 639-1/);
    expect(p.seo.properties.keywords.description).toContain(`at most ${LIMITS.keywords} keywords`);
    expect(p.seo.properties.keywords.description).toContain(`at most ${LIMITS.keyword} characters`);
    expect(schema.description).toMatch(/UTF-16/);
  });

  it(`agrees with the server's validation on ${CORPUS.length} requests`, { timeout: 240_000 }, async () => {
    const validate = compile(doc, requestSchema(doc));
    const disagreements: string[] = [];
    let valid = 0;
    for (const [i, [name, body]] of CORPUS.entries()) {
      const schema = validate(body);
      const served = await serverVerdict(server, body, KEYS[i % KEYS.length]!);
      if (served) valid++;
      if (schema !== served) {
        disagreements.push(
          `${name}: schema ${schema ? "accepts" : "rejects"}, server ${served ? "accepts" : "rejects"} (${JSON.stringify(validate.errors?.map((e) => `${e.instancePath} ${e.message}`))})`,
        );
      }
    }
    expect(disagreements).toEqual([]);
    // The corpus really covers both sides.
    expect(valid).toBeGreaterThan(20);
    expect(CORPUS.length - valid).toBeGreaterThan(30);
  });

  it("names exactly the known differences, rules JSON Schema cannot express", async () => {
    const validate = compile(doc, requestSchema(doc));
    const cases: [string, unknown, { schema: boolean; server: boolean }][] = [
      [
        "21 keywords",
        { ...base, seo: { keywords: Array.from({ length: 21 }, (_, i) => `keyword ${i}`).join(", ") } },
        { schema: true, server: false },
      ],
      ["an 81-character keyword", { ...base, seo: { keywords: chars(81, "k") } }, { schema: true, server: false }],
      // Stricter on this side: a client that follows the schema never sends what the server refuses.
      ["padding beyond the topic's maximum", { ...base, topic: `  ${chars(LIMITS.topic)}  ` }, { schema: false, server: true }],
    ];
    for (const [name, body, expected] of cases) {
      expect({ name, schema: validate(body), server: await serverVerdict(server, body, KEYS[0]!) }).toEqual({ name, ...expected });
    }
  });

  it("describes the answers the server gives", async () => {
    const article = compile(doc, "#/components/schemas/ArticleResponse");
    const response = await server.generate({ ...base, seed: 7, seo: { keywords: "compost bin, garden waste" } }, { "x-api-key": KEYS[1]! });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(article(body), JSON.stringify(article.errors)).toBe(true);

    const problem = compile(doc, "#/components/schemas/ValidationProblem");
    const invalid = await server.generate({ topic: "", length: "long" }, { "x-api-key": KEYS[2]! });
    expect(invalid.status).toBe(422);
    const problemBody = await invalid.json();
    expect(problem(problemBody), JSON.stringify(problem.errors)).toBe(true);
    expect(problemBody.errors.length).toBe(2);

    const health = compile(doc, "#/components/schemas/Health");
    const healthBody = await (await server.fetch(`/healthz`)).json();
    expect(health(healthBody), JSON.stringify(health.errors)).toBe(true);
  });

  it("describes the jobs API's answers: a queued job, a succeeded one with its result, a page of jobs", async () => {
    const api = jobsApi(server.url, KEYS[1]!, server.fetch);
    const job = compile(doc, "#/components/schemas/Job");
    const submitted = await api.submit({ ...base, seed: 9 });
    expect(submitted.status).toBe(202);
    // A job that has not ended says when to read it again, as the document states.
    const pollAfter = String(doc.paths["/api/v1/jobs"].post.responses[202].headers["Retry-After"].schema.const);
    expect(submitted.headers.get("retry-after")).toBe(pollAfter);
    const queued: Job = await submitted.json();
    expect(job(queued), JSON.stringify(job.errors)).toBe(true);
    const done = await api.waitFor(queued.id);
    expect(done.status).toBe("succeeded");
    expect(job(done), JSON.stringify(job.errors)).toBe(true);
    expect((await api.get(queued.id)).headers.get("retry-after")).toBeNull();
    const pending = await api.create({ ...base, length: 5000 });
    expect((await api.get(pending.id)).headers.get("retry-after")).toBe(pollAfter);
    expect((await api.cancel(pending.id)).status).toBe(200);
    const list = compile(doc, "#/components/schemas/JobList");
    const page = await (await api.list("limit=5")).json();
    expect(list(page), JSON.stringify(list.errors)).toBe(true);
    // A job's body is one closed object: the request's fields and the job's, nothing else.
    const jobBody = compile(doc, doc.components.requestBodies.JobRequest.content["application/json"].schema);
    expect(jobBody({ ...base, webhook: { url: "https://example.com/hook" } })).toBe(true);
    expect(jobBody({ ...base, webhook: { link: "x" } })).toBe(false);
    expect(jobBody({ kind: "refresh", markdown: "# A\n\nText." })).toBe(true);
    expect(jobBody({ ...base, kind: "refresh" })).toBe(false);
    expect(jobBody({ ...base, lenght: 300 })).toBe(false);
    expect(doc.paths["/api/v1/jobs/{id}"].delete.responses[409]).toBeDefined();
    expect(doc.webhooks.jobEnded.post.parameters.map((p: { name: string }) => p.name)).toEqual([
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
    ]);
  });
});

describe("the reference page", () => {
  let server: TestApp;
  beforeAll(async () => {
    server = await startApp();
  });
  afterAll(() => server?.stop());

  it("is public HTML with every request field and an anchor for every problem type", async () => {
    const response = await server.fetch(`/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    const doc = await (await server.fetch(`/api/v1/openapi.json`)).json();

    const fields: string[] = [];
    const walk = (schema: Doc, prefix: string) => {
      for (const [name, child] of Object.entries<Doc>(schema.properties ?? {})) {
        fields.push(`${prefix}${name}`);
        if (child.properties) walk(child, `${prefix}${name}.`);
      }
    };
    walk(doc.components.requestBodies.GenerateRequest.content["application/json"].schema, "");
    expect(fields).toEqual(
      expect.arrayContaining([
        "topic",
        "length",
        "tone",
        "language",
        "structure",
        "seed",
        "seo",
        "seo.keywords",
        "seo.title",
        "seo.description",
        "seo.headingTags",
      ]),
    );
    for (const field of fields) expect(html, field).toContain(`<code>${field}</code>`);

    const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    for (const type of Object.values(PROBLEM_TYPES)) expect(ids.has(type), `#${type}`).toBe(true);
    // Offline: nothing is loaded from anywhere else.
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)="(https?:)?\/\//i);
  });

  it("serves the playground without a key", async () => {
    const response = await server.fetch(server.url);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    const html = await response.text();
    expect(html).toContain('id="f-topic"');
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
  });
});
