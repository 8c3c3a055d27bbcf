/**
 * Generate bodies drawn from the served OpenAPI schema by json-schema-faker, from a fixed seed,
 * sent to a real `inkpress serve` on stories260K: each one the schema accepts is written (200),
 * the user's outline included whatever form rule it breaks (the report says so), and each such
 * outline's headings are the article's, in order. `OPENAPI_FUZZ_SEED=<n>` draws another set.
 *
 * The draw is narrowed, still within the schema (ajv checks every body against the served one):
 * - `publish` is left out (publishing needs a target; its own tests have one);
 * - `length` is always given, at most 110 words, so 40 articles stay quick (about 5 s each on
 *   stories260K with one thread; sequential, as one sequence is the fastest on two cores);
 * - each `style.avoid` phrase is CJK, which no other drawn text holds: a ban that a keyword,
 *   the topic or a heading holds is a 422 by design (the request contradicts itself), a rule
 *   JSON Schema cannot state, and random letters would draw one often.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { createGenerator } from "json-schema-faker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectSse, readSse } from "../helpers/sse.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, startServer, type TestServer } from "../helpers/server.js";

if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the OpenAPI fuzz needs ${STORIES_MODEL}, which is not there.`);

const SEED = Number(process.env.OPENAPI_FUZZ_SEED ?? 4_711);
const BODIES = 40;
const MOST_WORDS = 110;

type Schema = Record<string, any>;
type Heading = { level: number; text: string };

/** The generate body's schema narrowed as the file's comment says: a subset of what the served schema accepts. */
function narrowed(served: Schema): Schema {
  const schema = structuredClone(served);
  delete schema.properties.publish;
  schema.properties.length = { ...schema.properties.length, maximum: MOST_WORDS };
  schema.required = [...schema.required, "length"];
  const avoid = schema.properties.style.properties.avoid;
  avoid.items = { type: "string", pattern: "^[一-龥]{2,4}$" };
  return schema;
}

/** The JSON answer, read from the stream's `done` event when the body asked for a stream. */
async function answer(response: Response): Promise<any> {
  if (!response.headers.get("content-type")?.startsWith("text/event-stream")) return response.json();
  const events = await collectSse(readSse(response.body!));
  expect(events.at(-1)?.event, events.at(-1)?.data).toBe("done");
  return JSON.parse(events.at(-1)!.data);
}

describe.skipIf(!HAS_STORIES_MODEL)("generate bodies drawn from the OpenAPI schema", () => {
  let server: TestServer;
  let schema: Schema;
  beforeAll(async () => {
    server = await startServer(STORIES_MODEL);
    const doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    schema = doc.components.requestBodies.GenerateRequest.content["application/json"].schema;
  });
  afterAll(() => server?.stop());

  it(`answers each of ${BODIES} with its article`, { timeout: 900_000 }, async () => {
    const valid = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    const faker = createGenerator({ seed: SEED, optionalsProbability: 0.7 });
    const drawn = narrowed(schema);
    const refused: string[] = [];
    let outlines = 0;
    for (let i = 0; i < BODIES; i++) {
      const body = (await faker.generate(drawn)) as Schema;
      expect(valid(body), `body ${i}: ${JSON.stringify(valid.errors)}`).toBe(true);
      const response = await server.generate(body);
      if (response.status !== 200) {
        refused.push(`body ${i} ${JSON.stringify(body).slice(0, 600)}: ${response.status} ${await response.text()}`);
        continue;
      }
      const written = await answer(response);
      expect(written.object).toBe("article");
      if (!body.outline) continue;
      outlines++;
      // The outline is honoured: its headings, as the user wrote them, are the article's.
      const headings = written.article.outline.map((h: Heading) => `H${h.level} ${h.text}`);
      const asked = body.outline.headings.map((h: Heading) => `H${h.level} ${h.text.trim()}`);
      if (body.seo?.headingTags !== false) expect(headings, `body ${i}`).toEqual(asked);
      expect(
        written.seo.checks.find((c: { id: string }) => c.id === "outline"),
        `body ${i}`,
      ).toBeDefined();
    }
    expect(refused).toEqual([]);
    // The draw exercised the user's outline, not only plain requests.
    expect(outlines).toBeGreaterThanOrEqual(BODIES / 4);
  });
});
