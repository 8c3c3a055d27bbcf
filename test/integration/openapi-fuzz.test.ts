/**
 * Generate bodies drawn from the served OpenAPI schema by json-schema-faker, from a fixed seed,
 * sent to a real `inkpress serve` on stories260K: each one the schema accepts is answered 200,
 * the user's outline included whatever form rule it breaks, and each such outline's headings
 * are the ones planned, in order. Every body is sent as a stream and read to its `outline`
 * event (the request validated, read, admitted and planned); a seeded sample of them, every
 * body with an outline first, is written to the end, the report saying what the outline breaks
 * and the article's headings the outline's. `OPENAPI_FUZZ_SEED=<n>` draws another set.
 *
 * The draw is narrowed, still within the schema (ajv checks every body against the served one):
 * - `publish` is left out (publishing needs a target; its own tests have one);
 * - `length` is always given, at most 110 words, so each article written stays quick (about 5 s
 *   on stories260K with one thread; sequential, as one sequence is the fastest on two cores);
 * - each `style.avoid` phrase is CJK, which no other drawn text holds: a ban that a keyword,
 *   the topic or a heading holds is a 422 by design (the request contradicts itself), a rule
 *   JSON Schema cannot state, and random letters would draw one often.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { createGenerator } from "json-schema-faker";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectSse, readSse } from "../helpers/sse.js";
import { API_KEY, HAS_STORIES_MODEL, STORIES_MODEL, startServer, type TestServer } from "../helpers/server.js";

if (!HAS_STORIES_MODEL) console.warn(`SKIPPED: the OpenAPI fuzz needs ${STORIES_MODEL}, which is not there.`);

const SEED = Number(process.env.OPENAPI_FUZZ_SEED ?? 4_711);
const BODIES = 40;
/** Bodies written to the end: the rest are read to their planned outline, then let go. */
const WRITTEN = 8;
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

/** A streamed answer read to its `outline` event, then let go (the server stops writing): the planned headings. */
async function plannedHeadings(response: Response, stop: AbortController): Promise<Heading[]> {
  for await (const event of readSse(response.body!, { signal: stop.signal })) {
    expect(event.event, event.data).not.toBe("error");
    if (event.event !== "outline") continue;
    stop.abort();
    return JSON.parse(event.data).outline;
  }
  throw new Error("the stream ended before its outline");
}

const headingsOf = (headings: Heading[]) => headings.map((h) => `H${h.level} ${h.text.trim()}`);

describe.skipIf(!HAS_STORIES_MODEL)("generate bodies drawn from the OpenAPI schema", () => {
  let server: TestServer;
  let schema: Schema;
  beforeAll(async () => {
    server = await startServer(STORIES_MODEL);
    const doc = await (await fetch(`${server.url}/api/v1/openapi.json`)).json();
    schema = doc.components.requestBodies.GenerateRequest.content["application/json"].schema;
  });
  afterAll(() => server?.stop());

  it(`answers each of ${BODIES} with 200, planning a user's outline as given, and writes ${WRITTEN} of them`, {
    timeout: 600_000,
  }, async () => {
    const valid = new Ajv2020({ strict: false, allErrors: true }).compile(schema);
    const faker = createGenerator({ seed: SEED, optionalsProbability: 0.7 });
    const drawn = narrowed(schema);
    const bodies: Schema[] = [];
    for (let i = 0; i < BODIES; i++) {
      const body = (await faker.generate(drawn)) as Schema;
      expect(valid(body), `body ${i}: ${JSON.stringify(valid.errors)}`).toBe(true);
      bodies.push(body);
    }
    // Written to the end: bodies with an outline first (what the draw is for), then plain ones.
    const order = [...bodies.keys()].sort((a, b) => Number(!bodies[a]!.outline) - Number(!bodies[b]!.outline));
    const written = new Set(order.slice(0, WRITTEN));
    const refused: string[] = [];
    let outlines = 0;
    for (const [i, body] of bodies.entries()) {
      const full = written.has(i);
      const stop = new AbortController();
      const response = await fetch(`${server.url}/api/v1/generate`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": API_KEY },
        body: JSON.stringify(full ? body : { ...body, stream: true }),
        signal: stop.signal,
      });
      if (response.status !== 200) {
        refused.push(`body ${i} ${JSON.stringify(body).slice(0, 600)}: ${response.status} ${await response.text()}`);
        continue;
      }
      const asked = body.outline ? headingsOf(body.outline.headings) : undefined;
      if (asked) outlines++;
      // Without heading tags the article shows no heading, and the plan names its sections by their labels.
      const shown = asked && body.seo?.headingTags !== false;
      if (!full) {
        const planned = await plannedHeadings(response, stop);
        if (shown) expect(headingsOf(planned), `body ${i}`).toEqual(asked);
        continue;
      }
      const article = await answer(response);
      expect(article.object).toBe("article");
      if (!asked) continue;
      // The outline is honoured: its headings, as the user wrote them, are the article's.
      if (shown) expect(headingsOf(article.article.outline), `body ${i}`).toEqual(asked);
      expect(
        article.seo.checks.find((c: { id: string }) => c.id === "outline"),
        `body ${i}`,
      ).toBeDefined();
    }
    expect(refused).toEqual([]);
    // The draw exercised the user's outline, not only plain requests.
    expect(outlines).toBeGreaterThanOrEqual(BODIES / 4);
  });
});
