// Publishing to a real WordPress (Debian's package, test/helpers/wordpress.ts) from a real
// `inkpress serve` on stories260K: posts read back over WordPress's own REST API.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, tempKeysFile } from "../helpers/cli.js";
import { jobsApi } from "../helpers/jobs.js";
import { collectSse, fetchSse } from "../helpers/sse.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, runCli, startServer, type TestServer } from "../helpers/server.js";
import { startWordPress, type TestWordPress } from "../helpers/wordpress.js";

interface WpPost {
  id: number;
  slug: string;
  status: string;
  date_gmt: string;
  title: { raw: string };
  content: { raw: string };
  excerpt: { raw: string };
  categories: number[];
  tags: number[];
  meta: Record<string, string>;
}

const WRONG_PASSWORD = "abcd efgh ijkl mnop qrst uvwx";

describe.skipIf(!HAS_STORIES_MODEL)("publishing to WordPress", () => {
  let wp: TestWordPress;
  let server: TestServer;
  let key: string;
  let otherKey: string;
  let environment: Record<string, string>;
  const answers: string[] = [];

  const post = async (route: string, body: unknown, apiKey = key) => {
    const response = await fetch(`${server.url}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": apiKey },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    answers.push(text);
    return { status: response.status, body: JSON.parse(text) };
  };
  const posts = () => wp.rest<WpPost[]>("/wp/v2/posts?status=any&context=edit&per_page=100");
  const termNames = async (taxonomy: string, ids: number[]) =>
    Promise.all(ids.map(async (id) => (await wp.rest<{ name: string }>(`/wp/v2/${taxonomy}/${id}`)).name));

  beforeAll(async () => {
    wp = await startWordPress();
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-publish-"));
    const targets = path.join(dir, "targets.json");
    const site = { kind: "wordpress", url: wp.url, allowPrivate: true, createTerms: true };
    await writeFile(
      targets,
      JSON.stringify({
        targets: {
          blog: { ...site, user: wp.admin.user, credentials: { env: "BLOG_PASSWORD" } },
          wrong: { ...site, user: wp.admin.user, credentials: { env: "WRONG_PASSWORD" } },
          contributor: { ...site, user: wp.writer.user, credentials: { file: "writer.secret" } },
          guarded: { kind: "wordpress", url: wp.url, user: wp.admin.user, credentials: { env: "BLOG_PASSWORD" } },
        },
      }),
    );
    await writeFile(path.join(dir, "writer.secret"), `${wp.writer.password}\n`);
    const keysFile = await tempKeysFile();
    key = await createKey(keysFile, "writer", ["--publish-to", "blog,wrong,contributor,guarded"]);
    otherKey = await createKey(keysFile, "other");
    // One data folder for the server and the CLI: the records of who made which post are kept there.
    environment = {
      INKPRESS_PUBLISH_TARGETS: targets,
      BLOG_PASSWORD: wp.admin.password,
      WRONG_PASSWORD,
      INKPRESS_DATA_DIR: path.join(dir, "data"),
    };
    server = await startServer(STORIES_MODEL, { INKPRESS_KEYS_FILE: keysFile, ...environment });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await wp?.stop();
  });

  let first: { status: number; body: any };
  const request = {
    topic: "A kitten finds a garden",
    length: 100,
    seed: 7,
    seo: { keywords: "kitten garden" },
    publish: { target: "blog", categories: ["Stories"], tags: ["kittens", "gardens"] },
  };

  it("generate with publish makes a draft whose fields read back equal the article's", async () => {
    first = await post("/api/v1/generate", request);
    expect(first.status).toBe(200);
    const { article, publish } = first.body;
    expect(publish).toMatchObject({ target: "blog", status: "draft", created: true });
    const saved = await wp.rest<WpPost>(`/wp/v2/posts/${publish.id}?context=edit`);
    expect(publish.url).toBe((await wp.rest<{ link: string }>(`/wp/v2/posts/${publish.id}`)).link);
    expect(saved.title.raw).toBe(article.title);
    // The body as block markup: its delimiters dropped, the article's HTML without the H1.
    const tags = (html: string) =>
      html
        .replace(/<!-- \/?wp:[^>]*-->/g, "")
        .replace(/>\s+</g, "><")
        .trim();
    expect(tags(saved.content.raw)).toBe(tags(article.html.replace(/^<h1>.*?<\/h1>\n*/, "")));
    expect(saved.content.raw).toMatch(/^<!-- wp:/);
    expect(saved.excerpt.raw).toBe(article.metaDescription);
    expect(saved.slug).toBe(article.slug);
    expect(saved.status).toBe("draft");
    expect(await termNames("categories", saved.categories)).toEqual(["Stories"]);
    expect((await termNames("tags", saved.tags)).sort()).toEqual(["gardens", "kittens"]);
    expect(saved.meta).toMatchObject({
      _yoast_wpseo_title: article.title,
      _yoast_wpseo_metadesc: article.metaDescription,
      _yoast_wpseo_focuskw: article.keywords[0],
      rank_math_title: article.title,
      rank_math_description: article.metaDescription,
      rank_math_focus_keyword: article.keywords[0],
    });
  }, 120_000);

  it("the same article again updates the same post: no second one", async () => {
    const before = (await posts()).length;
    const again = await post("/api/v1/generate", request);
    expect(again.body.publish).toMatchObject({ id: first.body.publish.id, created: false });
    expect((await posts()).length).toBe(before);
  }, 120_000);

  it("a stream's done event and a job's result carry the post; the same job again (Idempotency-Key) and the same request as a job find it", async () => {
    const { events } = await fetchSse(`${server.url}/api/v1/generate`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({ ...request, stream: true }),
    });
    const done = (await collectSse(events)).find((event) => event.event === "done")!;
    expect(JSON.parse(done.data).publish).toMatchObject({ id: first.body.publish.id, created: false });
    const jobs = jobsApi(server.url, key);
    const job = await jobs.create(request, { "idempotency-key": "publish-once" });
    const finished = await jobs.waitFor(job.id);
    expect((finished.result as { publish?: unknown }).publish).toMatchObject({
      target: "blog",
      id: first.body.publish.id,
      url: first.body.publish.url,
      status: "draft",
    });
    expect((await jobs.create(request, { "idempotency-key": "publish-once" })).id).toBe(job.id);
    expect((await posts()).filter((saved) => saved.slug === first.body.article.slug)).toHaveLength(1);
  }, 120_000);

  it("POST /api/v1/publish of the edited Markdown updates the post it came from, whose revision keeps the old text", async () => {
    const { article, publish } = first.body;
    const markdown = `---\ntitle: ${JSON.stringify(article.title)}\ndescription: ${JSON.stringify(article.metaDescription)}\nslug: ${article.slug}\nkeywords: [${JSON.stringify(article.keywords[0])}]\n---\n\n${article.markdown}\n\nA line added by hand.\n`;
    const updated = await post("/api/v1/publish", { markdown, publish: { target: "blog" } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ object: "publication", target: "blog", id: publish.id, created: false });
    const saved = await wp.rest<WpPost>(`/wp/v2/posts/${publish.id}?context=edit`);
    expect(saved.content.raw).toContain("<p>A line added by hand.</p>");
    const revisions = await wp.rest<{ content: { raw: string } }[]>(`/wp/v2/posts/${publish.id}/revisions?context=edit`);
    expect(revisions.some((revision) => !revision.content.raw.includes("A line added by hand."))).toBe(true);
  }, 60_000);

  it("refresh with publish updates the post the article came from", async () => {
    const { article, publish } = first.body;
    const markdown = `---\ntitle: ${JSON.stringify(article.title)}\nslug: ${article.slug}\nposts:\n  blog: ${publish.id}\n---\n\n${article.markdown}`;
    const before = (await posts()).length;
    const refreshed = await post("/api/v1/refresh", {
      markdown,
      seo: { keywords: article.keywords.join(",") },
      seed: 3,
      publish: { target: "blog" },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.publish).toMatchObject({ target: "blog", id: publish.id, created: false });
    expect((await posts()).length).toBe(before);
    const saved = await wp.rest<WpPost>(`/wp/v2/posts/${publish.id}?context=edit`);
    expect(saved.title.raw).toBe(refreshed.body.article.title);
  }, 180_000);

  it("status future with a date schedules the post", async () => {
    const date = "2031-05-01T09:30:00Z";
    const { body } = await post("/api/v1/generate", { ...request, seed: 8, publish: { target: "blog", status: "future", date } });
    expect(body.publish).toMatchObject({ status: "future", created: true });
    const saved = await wp.rest<WpPost>(`/wp/v2/posts/${body.publish.id}?context=edit`);
    expect(saved.status).toBe("future");
    expect(`${saved.date_gmt}Z`).toBe(date);
  }, 120_000);

  it("a wrong application password: a problem naming the target, the article still answered, no post", async () => {
    const before = (await posts()).length;
    const { status, body } = await post("/api/v1/generate", { ...request, seed: 9, publish: { target: "wrong" } });
    expect(status).toBe(200);
    expect(body.article.markdown.length).toBeGreaterThan(0);
    expect(body.publish.target).toBe("wrong");
    expect(body.publish.problem.detail).toMatch(/target "wrong" refused the credentials \(401/);
    expect(body.publish.problem.detail).toMatch(/Authorization header/);
    expect((await posts()).length).toBe(before);
  }, 120_000);

  it("a user without the capability to publish: a problem saying so", async () => {
    const { body } = await post("/api/v1/publish", {
      markdown: "---\ntitle: Not allowed\nslug: not-allowed\n---\n\nText.\n",
      publish: { target: "contributor", status: "publish" },
    });
    expect(body.status).toBe(502);
    expect(body.detail).toMatch(/target "contributor"'s user "writer" lacks the capability publish_posts/);
  });

  it("a key not given the target is refused with a 403 naming it, before anything is written", async () => {
    const { status, body } = await post("/api/v1/generate", request, otherKey);
    expect(status).toBe(403);
    expect(body.detail).toMatch(/target "blog"/);
    expect((await post("/api/v1/publish", { markdown: "# T\n\nText.\n", publish: { target: "blog" } }, otherKey)).status).toBe(403);
  });

  it("a target on loopback that the operator did not allow is refused by the SSRF rules", async () => {
    const { body } = await post("/api/v1/publish", { markdown: "# Guarded\n\nText.\n", publish: { target: "guarded" } });
    expect(body.detail).toMatch(/loopback/);
  });

  it("batch --publish: 5 rows make 5 posts, and the same batch again makes none", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-publish-batch-"));
    const topics = ["A red boat", "The tall tree", "Rain on the hill", "A lost shoe", "The sleepy owl"];
    await writeFile(path.join(dir, "rows.csv"), `topic,length\n${topics.map((topic) => `${topic},100`).join("\n")}\n`);
    const batch = (out: string) =>
      runCli(
        ["batch", path.join(dir, "rows.csv"), "--out", out, "--publish", "blog", "--model", STORIES_MODEL, "--threads", "1"],
        environment,
      );
    const ours = async () =>
      (await posts()).filter((saved) => topics.some((topic) => saved.slug === topic.toLowerCase().replace(/ /g, "-")));
    const first = await batch(path.join(dir, "out"));
    expect(first.code, first.stderr).toBe(0);
    expect(await ours()).toHaveLength(5);
    // Run again into a new folder: every row is written anew, each finds its post.
    const again = await batch(path.join(dir, "again"));
    expect(again.code, again.stderr).toBe(0);
    expect(await ours()).toHaveLength(5);
    expect(first.stderr + again.stderr).not.toContain(wp.admin.password);
  }, 300_000);

  it("no password appears in the server's log, its answers or /metrics", async () => {
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    for (const secret of [wp.admin.password, WRONG_PASSWORD, wp.writer.password]) {
      for (const form of [secret, secret.replace(/ /g, ""), Buffer.from(`admin:${secret}`).toString("base64")]) {
        expect(server.output()).not.toContain(form);
        expect(metrics).not.toContain(form);
        for (const answer of answers) expect(answer).not.toContain(form);
      }
    }
  });
});
