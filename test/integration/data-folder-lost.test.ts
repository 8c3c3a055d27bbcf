// A server that loses its data folder gives it up: paused (SIGSTOP) past the lock's life while
// a job runs, a second server takes the folder over; resumed (SIGCONT), the first stops at
// once, in one line, without writing its job's result. Real processes on a real folder.
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { exited } from "../helpers/cli.js";
import { jobsApi } from "../helpers/jobs.js";
import { API_KEY, HAS_STORIES_MODEL, STORIES_MODEL, startServer, testModel } from "../helpers/server.js";

/** The lock's life (src/jobs/local-store.ts), and a margin past it. */
const PAUSE_MS = 10_000 + 3_000;

describe("a data folder taken over", () => {
  it("stops the paused server when it resumes: exit 1, one line, its job left to the new owner", async () => {
    const model = HAS_STORIES_MODEL ? STORIES_MODEL : await testModel("plain");
    const dataDir = await mkdtemp(path.join(tmpdir(), "inkpress-lost-"));
    const env = { INKPRESS_DATA_DIR: dataDir, INKPRESS_SEQUENCES: "1" };
    const first = await startServer(model, env);
    const second = { server: undefined as Awaited<ReturnType<typeof startServer>> | undefined };
    try {
      const job = await jobsApi(first.url, API_KEY).create({ topic: "How a lighthouse keeper spends the winter", length: 1500, seed: 5 });
      await jobsApi(first.url, API_KEY).waitFor(job.id, (j) => j.status === "running" && j.progress.words > 0);

      first.process.kill("SIGSTOP");
      await sleep(PAUSE_MS);
      second.server = await startServer(model, env);
      const printedBefore = first.output().length;
      first.process.kill("SIGCONT");

      const ended = await Promise.race([exited(first.process), sleep(5_000).then(() => undefined)]);
      expect(ended, "the first server exits within 5 s of resuming").toEqual({ code: 1, signal: null });
      const said = first.output().slice(printedBefore).trim().split("\n");
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(
        new RegExp(
          `^inkpress: the data folder ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is no longer this server's \\(.+\\): stopping, since another server may run its jobs now$`,
        ),
      );

      // The new owner runs the job again, and what it wrote stays: the first wrote nothing more.
      const done = await jobsApi(second.server.url, API_KEY).waitFor(job.id, undefined, 600_000);
      expect(done.status).toBe("succeeded");
      expect(done.runs).toBe(2);
      const file = path.join(dataDir, "jobs", `${job.id}.json`);
      await sleep(1_000);
      const onDisk = await readFile(file, "utf8");
      await sleep(2_000);
      expect(await readFile(file, "utf8")).toBe(onDisk);
      expect(JSON.parse(onDisk).result.article.markdown).toBe(done.result!.article.markdown);
    } finally {
      if (first.process.signalCode === null && first.process.exitCode === null) first.process.kill("SIGCONT");
      await first.stop();
      await second.server?.stop();
    }
  }, 700_000);
});
