// Publishing to Ghost, tested against a CONTRACT SERVER that enforces the documented rules of
// Ghost's Admin API (test/helpers/ghost-contract.ts), not against Ghost itself.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, tempKeysFile } from "../helpers/cli.js";
import { startGhostContract, type GhostContractServer } from "../helpers/ghost-contract.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, startServer, type TestServer } from "../helpers/server.js";

describe.skipIf(!HAS_STORIES_MODEL)("publishing to the Ghost Admin API contract server (not real Ghost)", () => {
  let ghost: GhostContractServer;
  let server: TestServer;
  let key: string;
  let otherKey: string;
  const answers: string[] = [];
  const wrongKey = `${"a".repeat(24)}:${"b".repeat(64)}`;

  const generate = async (body: unknown, apiKey = key) => {
    const response = await fetch(`${server.url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    answers.push(text);
    return { status: response.status, body: JSON.parse(text) };
  };

  beforeAll(async () => {
    ghost = await startGhostContract();
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-ghost-"));
    const targets = path.join(dir, "targets.json");
    const site = { kind: "ghost", url: ghost.url, allowPrivate: true };
    await writeFile(
      targets,
      JSON.stringify({
        targets: { news: { ...site, credentials: { env: "GHOST_KEY" } }, stale: { ...site, credentials: { env: "WRONG_GHOST_KEY" } } },
      }),
    );
    const keysFile = await tempKeysFile();
    key = await createKey(keysFile, "writer", ["--publish-to", "news,stale"]);
    otherKey = await createKey(keysFile, "other");
    server = await startServer(STORIES_MODEL, {
      INKPRESS_KEYS_FILE: keysFile,
      INKPRESS_PUBLISH_TARGETS: targets,
      GHOST_KEY: ghost.key,
      WRONG_GHOST_KEY: wrongKey,
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await ghost?.stop();
  });

  const request = {
    topic: "A puppy at the beach",
    length: 100,
    seed: 5,
    seo: { keywords: "puppy beach" },
    publish: { target: "news", tags: ["Dogs"] },
  };
  let first: { status: number; body: any };

  it("generate with publish makes a Ghost draft holding the article's fields, its HTML sent with source=html", async () => {
    first = await generate(request);
    const { article, publish } = first.body;
    expect(publish).toMatchObject({ target: "news", status: "draft", created: true });
    const saved = ghost.posts.find((post) => post.id === publish.id)!;
    expect(saved).toMatchObject({
      title: article.title,
      slug: article.slug,
      custom_excerpt: article.metaDescription,
      meta_title: article.title,
      meta_description: article.metaDescription,
      tags: [{ name: "Dogs" }],
      status: "draft",
    });
    expect(saved.html).toBe(article.html.replace(/^<h1>.*?<\/h1>\n*/, ""));
    expect(publish.url).toBe(saved.url);
  }, 120_000);

  it("the same article again edits the same post, sending its updated_at: no second post", async () => {
    const again = await generate(request);
    expect(again.body.publish).toMatchObject({ id: first.body.publish.id, created: false });
    expect(ghost.posts).toHaveLength(1);
    expect(ghost.posts[0]!.edits).toBe(1);
  }, 120_000);

  it("status future with a date is a scheduled post", async () => {
    const date = "2031-05-01T09:30:00.000Z";
    const { body } = await generate({ ...request, seed: 6, publish: { target: "news", status: "future", date } });
    expect(body.publish).toMatchObject({ status: "scheduled", created: true });
    expect(ghost.posts.find((post) => post.id === body.publish.id)?.published_at).toBe(date);
  }, 120_000);

  it("a wrong Admin API key: a problem naming the target, the article still answered, no post", async () => {
    const before = ghost.posts.length;
    const { status, body } = await generate({ ...request, seed: 9, publish: { target: "stale" } });
    expect(status).toBe(200);
    expect(body.article.markdown.length).toBeGreaterThan(0);
    expect(body.publish.problem.detail).toMatch(/target "stale" refused the credentials \(401: Unknown Admin API Key/);
    expect(ghost.posts).toHaveLength(before);
  }, 120_000);

  it("a key without the target is a 403 naming it", async () => {
    const { status, body } = await generate(request, otherKey);
    expect(status).toBe(403);
    expect(body.detail).toMatch(/target "news"/);
  });

  it("the Admin API key's secret appears nowhere in the log, the answers or /metrics", async () => {
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    for (const secret of [ghost.key.split(":")[1]!, wrongKey.split(":")[1]!]) {
      expect(server.output()).not.toContain(secret);
      expect(metrics).not.toContain(secret);
      for (const answer of answers) expect(answer).not.toContain(secret);
    }
  });
});
