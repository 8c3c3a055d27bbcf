import { execFile } from "node:child_process";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { locate } from "../../src/article/existing/locate.js";
import type { RefreshResponse } from "../../src/contract/refresh.js";
import { PLANTED_CHECKS, plantedArticle } from "../../scripts/fixtures/refresh.js";
import { API_KEY, HAS_STORIES_MODEL, STORIES_MODEL, startServer, testModel, type TestServer } from "../helpers/server.js";

// POST /api/v1/refresh over real HTTP on a real `inkpress serve`, with stories260K and the
// ChatML test model: the planted failures mended or said, every other sentence byte for byte,
// a score that never falls over ten seeds, and a diff that `git apply` takes.

const run = promisify(execFile);
const SEEDS = Array.from({ length: 10 }, (_, i) => i + 1);

/** Every sentence and heading of an article, as located in its text. */
const partsOf = (markdown: string) =>
  locate(markdown, "en").blocks.flatMap((block) =>
    block.kind === "paragraph" ? block.sentences.map((s) => s.text) : block.kind === "heading" ? [block.text] : [],
  );

/** Whether `git apply --check` takes the diff on a repository holding the given article. */
async function gitApplies(markdown: string, diff: string): Promise<void> {
  const repo = await mkdtemp(path.join(tmpdir(), "inkpress-diff-"));
  await run("git", ["init", "-q", repo]);
  await writeFile(path.join(repo, "article.md"), markdown);
  await writeFile(path.join(repo, "change.diff"), diff);
  await run("git", ["-C", repo, "apply", "--check", "change.diff"]);
}

const models = [
  { name: "stories260K", model: async () => STORIES_MODEL, skip: !HAS_STORIES_MODEL },
  { name: "the ChatML test model", model: () => testModel("chat"), skip: false },
];

describe.each(models)("a refresh on $name", ({ model, skip }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!skip) server = await startServer(await model());
  });
  afterAll(() => server?.stop());

  it.skipIf(skip)(
    "mends the planted failures or says why, keeps every other sentence byte for byte, never lowers the score over 10 seeds, and its diff applies",
    async () => {
      const { request, markdown } = plantedArticle();
      const original = partsOf(markdown);
      const rows: string[] = [];
      for (const seed of SEEDS) {
        const response = await fetch(`${server.url}/api/v1/refresh`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": API_KEY },
          body: JSON.stringify({ ...request, seed }),
        });
        expect(response.status).toBe(200);
        const answer = (await response.json()) as RefreshResponse;
        expect(answer.after.score, `seed ${seed}`).toBeGreaterThanOrEqual(answer.before.score);
        const mended: string[] = [];
        for (const id of PLANTED_CHECKS) {
          expect(answer.before.checks.find((c) => c.id === id)!.passed, id).toBe(false);
          if (answer.after.checks.find((c) => c.id === id)!.passed === false)
            expect(answer.unmended.find((u) => u.check === id)?.reason, `${id}, seed ${seed}`).toMatch(/Not mended: .+/);
          else mended.push(id);
        }
        const changed = answer.changes.map((c) => c.before).join("\n");
        for (const part of original.filter((p) => !changed.includes(p))) expect(answer.article.markdown, `seed ${seed}`).toContain(part);
        expect(answer.article.markdown).toContain("tags: [garden, compost]");
        await gitApplies(markdown, answer.diff);
        rows.push(
          `seed ${seed}: score ${answer.before.score} → ${answer.after.score}; mended ${mended.length}/${PLANTED_CHECKS.length}${mended.length < PLANTED_CHECKS.length ? ` (not: ${PLANTED_CHECKS.filter((id) => !mended.includes(id)).join(", ")})` : ""}`,
        );
      }
      console.log(rows.join("\n"));
    },
    180_000,
  );
});
