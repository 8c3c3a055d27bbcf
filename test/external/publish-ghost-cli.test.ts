// The CLI publishing to Ghost, tested against a CONTRACT SERVER that enforces the documented rules
// of Ghost's Admin API (test/helpers/ghost-contract.ts), not against Ghost itself: a batch makes one
// post per row and records its id, the same batch again makes none, and a refresh updates its post.
import { mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startGhostContract, type GhostContractServer } from "../helpers/ghost-contract.js";
import { exited, spawnInkpress } from "../helpers/cli.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, runCli } from "../helpers/server.js";
import { expectKilledJobPublishesOnce } from "../helpers/publish-kill.js";

/** The `posts` a Markdown file's front matter records. */
async function recorded(file: string): Promise<Record<string, string> | undefined> {
  const match = /^---\n([\s\S]*?)\n---\n/.exec(await readFile(file, "utf8"));
  return (parse(match![1]!) as { posts?: Record<string, string> }).posts;
}

describe.skipIf(!HAS_STORIES_MODEL)("the CLI publishing to the Ghost Admin API contract server (not real Ghost)", () => {
  let ghost: GhostContractServer;
  let dir: string;
  let environment: Record<string, string>;
  const model = ["--model", STORIES_MODEL, "--threads", "1"];

  beforeAll(async () => {
    ghost = await startGhostContract();
    dir = await mkdtemp(path.join(tmpdir(), "inkpress-ghost-cli-"));
    const targets = path.join(dir, "targets.json");
    await writeFile(
      targets,
      JSON.stringify({ targets: { news: { kind: "ghost", url: ghost.url, allowPrivate: true, credentials: { env: "GHOST_KEY" } } } }),
    );
    // One data folder for every run: the records of who made which post are kept there.
    environment = { INKPRESS_PUBLISH_TARGETS: targets, GHOST_KEY: ghost.key, INKPRESS_DATA_DIR: path.join(dir, "data") };
  }, 60_000);

  afterAll(async () => {
    await ghost?.stop();
  });

  it("batch --publish: 5 rows make 5 posts, each id recorded in its file; the same batch again makes none; refresh --publish edits that post", async () => {
    const rows = path.join(dir, "rows.csv");
    const topics = ["A green frog", "The small bell", "Snow on the roof", "A paper boat", "The quiet fox"];
    await writeFile(rows, `topic,length,seed\n${topics.map((topic, i) => `${topic},100,${i + 1}`).join("\n")}\n`);
    const out = path.join(dir, "out");
    const batch = ["batch", rows, "--out", out, "--publish", "news", ...model];
    const first = await runCli(batch, environment);
    expect(first.code, first.stderr).toBe(0);
    expect(ghost.posts).toHaveLength(5);
    const files = (await readdir(out)).filter((name) => name.endsWith(".md")).sort();
    expect(files).toHaveLength(5);
    const ids = await Promise.all(files.map(async (name) => (await recorded(path.join(out, name)))?.news));
    expect(new Set(ids)).toEqual(new Set(ghost.posts.map((post) => post.id)));

    const again = await runCli(batch, environment);
    expect(again.code, again.stderr).toBe(0);
    expect(ghost.posts).toHaveLength(5);

    const file = path.join(out, files[0]!);
    const post = ghost.posts.find((p) => p.id === ids[0])!;
    const [html, edits] = [post.html, post.edits];
    const refreshed = path.join(dir, "refreshed.md");
    // Longer than the row's 100 words: the refresh extends the body, so the post's text changes.
    const refresh = await runCli(
      ["refresh", file, "--publish", "news", "--seed", "5", "--length", "250", ...model, "-o", refreshed],
      environment,
    );
    expect(refresh.code, refresh.stderr).toBe(0);
    expect(ghost.posts).toHaveLength(5);
    expect(post.edits).toBeGreaterThan(edits);
    expect(post.html).not.toBe(html);
    expect((await recorded(refreshed))?.news).toBe(ids[0]);
  }, 600_000);

  it("a batch killed (SIGKILL) after Ghost saved a post and before its files were written, then resumed: exactly 5 more posts", async () => {
    const topics = ["A red kite", "The old mill", "Rain on the lake", "A tin drum", "The brave hen"];
    const rows = path.join(dir, "kill.csv");
    await writeFile(rows, `topic,length\n${topics.map((topic) => `${topic},100`).join("\n")}\n`);
    const out = path.join(dir, "kill-out");
    const batch = ["batch", rows, "--out", out, "--publish", "news", ...model];
    const before = ghost.posts.length;
    // The pause holds the first publication after the post was saved: the kill lands in that window.
    const child = spawnInkpress(batch, { ...environment, INKPRESS_TEST_PUBLISH_PAUSE_MS: "60000" });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr += d));
    const end = Date.now() + 120_000;
    while (ghost.posts.length === before && child.exitCode === null && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    child.kill("SIGKILL");
    expect((await exited(child)).signal, stderr).toBe("SIGKILL");
    expect(ghost.posts).toHaveLength(before + 1);

    const resumed = await runCli(batch, environment);
    expect(resumed.code, resumed.stderr).toBe(0);
    const ours = ghost.posts.slice(before);
    expect(ours).toHaveLength(5);
    expect(new Set(ours.map((post) => post.slug)).size).toBe(5);
    const files = (await readdir(out)).filter((name) => name.endsWith(".md"));
    const ids = await Promise.all(files.map(async (name) => (await recorded(path.join(out, name)))?.news));
    expect(new Set(ids)).toEqual(new Set(ours.map((post) => post.id)));
  }, 600_000);

  it(
    "a job with publish and an Idempotency-Key, its server killed after Ghost saved the post and before the job was done: one post",
    () => expectKilledJobPublishesOnce({ environment, target: "news", postIds: async () => ghost.posts.map((post) => post.id) }),
    600_000,
  );

  it("inkpress publish refuses a file that is not UTF-8 in one line, before any post, and leaves its bytes as they were", async () => {
    const file = path.join(dir, "latin1.md");
    const bytes = Buffer.from("---\ntitle: Caf\xe9 cr\xe8me\n---\n\n# Caf\xe9\n\nUne cr\xe8me.\n", "latin1");
    await writeFile(file, bytes);
    const before = ghost.posts.length;
    const refused = await runCli(["publish", file, "--to", "news"], environment);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain(`${file}: not UTF-8 text; nothing was published`);
    expect(ghost.posts).toHaveLength(before);
    expect(await readFile(file)).toEqual(bytes);
  });
});
