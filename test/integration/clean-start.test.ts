// Safe pages and clean files: what a server leaves on disk after a crash is cleaned at its next
// start, and its pages run only their own scripts. Real processes, real files, real HTTP.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, mkdtemp, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, exited, spawnKeysCli, tempKeysFile } from "../helpers/cli.js";
import { startServer, testModel, type TestServer } from "../helpers/server.js";

/** The pid of a process that has ended, for a temporary file whose writer is gone. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await exited(child);
  return child.pid!;
}

describe("a crash's temporary files", () => {
  it("are removed at start-up: the key file's copy (with its webhook secrets) and the data folder's", async () => {
    const keysFile = await tempKeysFile();
    const key = await createKey(keysFile, "first");
    // Killed between sync and rename: its temporary copy holds every key and webhook secret.
    const writer = spawnKeysCli(keysFile, ["create", "--name", "second"], { INKPRESS_TEST_WRITE_PAUSE_MS: "30000" });
    await new Promise<void>((resolve) =>
      writer.stderr!.on("data", (d: Buffer) => String(d).includes("written, not yet renamed") && resolve()),
    );
    writer.kill("SIGKILL");
    await exited(writer);
    const keysDir = path.dirname(keysFile);
    const leftover = (await readdir(keysDir)).filter((n) => n.endsWith(".tmp"));
    expect(leftover).toHaveLength(1);

    const dataDir = await mkdtemp(path.join(tmpdir(), "inkpress-data-"));
    await mkdir(path.join(dataDir, "jobs"));
    const jobTemp = `.job_${"0".repeat(32)}.json.${await deadPid()}.0123abcd.tmp`;
    await writeFile(path.join(dataDir, "jobs", jobTemp), "{}");
    // Not a temporary copy: left alone.
    await writeFile(path.join(dataDir, "notes.tmp"), "mine");

    const server = await startServer(
      await testModel("plain"),
      { INKPRESS_API_KEYS: undefined, INKPRESS_KEYS_FILE: keysFile, INKPRESS_DATA_DIR: dataDir },
      { waitForModel: false },
    );
    try {
      expect((await readdir(keysDir)).filter((n) => n.endsWith(".tmp"))).toEqual([]);
      expect(await readdir(path.join(dataDir, "jobs"))).not.toContain(jobTemp);
      expect(await readdir(dataDir)).toContain("notes.tmp");
      const answer = await fetch(`${server.url}/api/v1/jobs`, { headers: { "x-api-key": key } });
      expect(answer.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe("served pages", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(await testModel("plain"), {}, { waitForModel: false });
  }, 60_000);
  afterAll(() => server?.stop());

  it.each(["/", "/docs"])("%s runs only its own scripts (by hash, nonce or its own origin) and is never sniffed", async (page) => {
    const response = await fetch(`${server.url}${page}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    const policy = new Map(
      (response.headers.get("content-security-policy") ?? "").split(";").map((d) => {
        const [name = "", ...values] = d.trim().split(/\s+/);
        return [name, values] as const;
      }),
    );
    expect(policy.get("default-src")).toEqual(["'none'"]);
    const scripts = policy.get("script-src") ?? policy.get("default-src")!;
    for (const source of scripts)
      expect(source, `script-src ${source}`).toMatch(/^'(self|none|sha(256|384|512)-[A-Za-z0-9+/=]+|nonce-[A-Za-z0-9+/=_-]+)'$/);
    // Every inline script is one the policy names.
    const html = await response.text();
    for (const [, body] of html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/g)) {
      const hash = `'sha256-${createHash("sha256").update(body!, "utf8").digest("base64")}'`;
      expect(scripts.includes(hash) || scripts.some((s) => s.startsWith("'nonce-")), "an inline script the policy allows").toBe(true);
    }
  });
});
