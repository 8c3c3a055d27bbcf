import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { createKey, exited, tempKeysFile } from "./cli.js";
import { jobsApi } from "./jobs.js";
import { STORIES_MODEL, startServer } from "./server.js";

/** The site a killed job publishes to, as a test reads it back. */
export interface PublishedSite {
  /** The publishing environment (targets file and credentials) for `inkpress serve`. */
  environment: Record<string, string>;
  target: string;
  /** The ids of the site's posts, of every status. */
  postIds: () => Promise<string[]>;
}

/** Poll until `found`, at most two minutes. */
async function until(found: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + 120_000;
  while (!(await found())) {
    if (Date.now() > end) throw new Error("timed out waiting for the post");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A job with `publish` and an Idempotency-Key whose `inkpress serve` is SIGKILLed after the site
 * saved the post and before the job was marked done (the publish pause holds that window); the
 * server restarted on the same data folder must finish the same job with that one post.
 */
export async function expectKilledJobPublishesOnce(site: PublishedSite): Promise<void> {
  const keysFile = await tempKeysFile();
  const key = await createKey(keysFile, "writer", ["--publish-to", site.target]);
  const dataDir = await mkdtemp(path.join(tmpdir(), "inkpress-publish-jobs-"));
  const env = { ...site.environment, INKPRESS_KEYS_FILE: keysFile, INKPRESS_DATA_DIR: dataDir, INKPRESS_SEQUENCES: "1" };
  const known = new Set(await site.postIds());
  let server = await startServer(STORIES_MODEL, { ...env, INKPRESS_TEST_PUBLISH_PAUSE_MS: "60000" });
  const request = { topic: "A lantern in the barn", length: 100, publish: { target: site.target } };
  const headers = { "idempotency-key": "lantern-once" };
  const job = await jobsApi(server.url, key).create(request, headers);
  await until(async () => (await site.postIds()).length > known.size);
  expect(((await (await jobsApi(server.url, key).get(job.id)).json()) as { status: string }).status).toBe("running");
  server.process.kill("SIGKILL");
  await exited(server.process);
  const made = (await site.postIds()).filter((id) => !known.has(id));
  expect(made).toHaveLength(1);

  server = await startServer(STORIES_MODEL, env);
  try {
    const jobs = jobsApi(server.url, key);
    // The same request again with its Idempotency-Key is the same job, not a new one.
    expect((await jobs.create(request, headers)).id).toBe(job.id);
    const done = await jobs.waitFor(job.id, undefined, 300_000);
    expect(done.status).toBe("succeeded");
    expect(done.runs).toBe(2);
    expect((done.result as { publish?: unknown }).publish).toMatchObject({ target: site.target, created: false, id: made[0] });
    expect(await site.postIds()).toHaveLength(known.size + 1);
  } finally {
    await server.stop();
  }
}
