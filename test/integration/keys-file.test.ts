import { watch } from "node:fs";
import { createHash } from "node:crypto";
import { readFile, readdir, rename, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, exited, keysCli, revokeKey, spawnKeysCli, tempKeysFile } from "../helpers/cli.js";
import { waitFor } from "../helpers/http.js";
import { startServer, testModel, type TestServer } from "../helpers/server.js";
import { mulberry32 } from "../../scripts/gguf.js";

// The key file while the server runs: the CLI is killed in the middle of writing it, and the
// file must always be a whole, valid key file (the old one or the new one), never half of one.

const PAUSE_MARKER = "keys.json: written, not yet renamed";
/** Seed of the kill delays, printed so a failing run can be repeated (KEYS_KILL_SEED=…). */
const SEED = Number(process.env.KEYS_KILL_SEED ?? 20261122);

/** The key file as the server would accept it; throws with the reason when it is not. */
function validKeyFile(text: string): string[] {
  const data = JSON.parse(text);
  if (data?.version !== 2 || !Array.isArray(data.keys)) throw new Error(`not a version-2 key file: ${text.slice(0, 200)}`);
  for (const k of data.keys) {
    const ok =
      /^key_[0-9a-f]{24}$/.test(k.id) &&
      typeof k.name === "string" &&
      k.name.length > 0 &&
      /^[0-9a-f]{64}$/.test(k.digest) &&
      typeof k.prefix === "string" &&
      typeof k.created === "string" &&
      Number.isInteger(k.limits?.rate?.requests) &&
      Number.isInteger(k.limits?.rate?.windowS) &&
      Number.isInteger(k.limits?.concurrency);
    if (!ok) throw new Error(`a malformed record: ${JSON.stringify(k)}`);
  }
  // Revoked keys stay in the file, marked, so their webhook secret signs their jobs' cancellations.
  return data.keys.filter((k: { revoked?: string }) => !k.revoked).map((k: { name: string }) => k.name);
}

describe("the key file", () => {
  let server: TestServer;
  let keysFile: string;
  let dir: string;
  const keys: Record<string, string> = {};

  const names = async () => validKeyFile(await readFile(keysFile, "utf8"));
  const statusWith = async (key: string) => (await server.generate({ topic: "x", length: 50 }, { "x-api-key": key })).status;
  /** 422 (the body's fault) means the key was accepted; 401 that it was not. */
  const accepted = async (key: string) => (await statusWith(key)) === 422;
  const reloadErrors = () =>
    server
      .output()
      .split("\n")
      .filter((l) => /key file not reloaded/.test(l));

  beforeAll(async () => {
    keysFile = await tempKeysFile();
    dir = path.dirname(keysFile);
    const model = testModel("plain");
    keys.first = await createKey(keysFile, "first");
    server = await startServer(await model, { INKPRESS_KEYS_FILE: keysFile });
    expect(await accepted(keys.first!)).toBe(true);
  });
  afterAll(() => server?.stop());

  it("survives `keys create` killed between writing its temp file and renaming it", async () => {
    const before = await readFile(keysFile, "utf8");
    const child = spawnKeysCli(keysFile, ["create", "--name", "second"], { INKPRESS_TEST_WRITE_PAUSE_MS: "5000" });
    let stdout = "";
    let stderr = "";
    child.stdout!.on("data", (d) => (stdout += d));
    child.stderr!.on("data", (d) => (stderr += d));
    await waitFor(
      () => (stderr.includes(PAUSE_MARKER) ? true : child.exitCode !== null ? false : undefined),
      "the CLI paused mid-write",
      60_000,
    );
    expect(stderr).toContain(PAUSE_MARKER);
    child.kill("SIGKILL");
    expect((await exited(child)).signal).toBe("SIGKILL");
    expect(stdout, "no key was handed out").toBe("");

    expect(await readFile(keysFile, "utf8"), "the key file is untouched").toBe(before);
    expect(await names()).toEqual(["first"]);
    // A temp file may be left behind by the kill: private, and ignored by the server and the CLI.
    const leftovers = (await readdir(dir)).filter((f) => f.endsWith(".tmp"));
    expect(leftovers.length).toBeLessThanOrEqual(1);
    for (const file of leftovers) {
      expect(file).toMatch(new RegExp(`^\\.keys\\.json\\.${child.pid}\\.[0-9a-f]+\\.tmp$`));
      expect((await stat(path.join(dir, file))).mode & 0o777).toBe(0o600);
    }
    console.log(`left behind after the kill: ${leftovers.join(", ") || "nothing"}`);

    expect(await accepted(keys.first!)).toBe(true);
    const list = await keysCli(keysFile, ["list"]);
    expect(list.code, list.stderr).toBe(0);
    expect(
      list.stdout
        .split("\n")
        .slice(1)
        .filter(Boolean)
        .map((l) => l.split(/ {2,}/)[0]),
    ).toEqual(["first"]);
    // The next `keys` command removes the dead command's copy, with the webhook secrets it holds.
    expect((await readdir(dir)).filter((f) => f.startsWith(".keys.json.") && f.endsWith(".tmp"))).toEqual([]);

    // Then a normal create of the same name works, and the running server takes it up.
    keys.second = await createKey(keysFile, "second");
    expect(await names()).toEqual(["first", "second"]);
    await waitFor(async () => ((await accepted(keys.second!)) ? true : undefined), "the new key accepted", 3_000, 50);
    expect(reloadErrors()).toEqual([]);
  });

  it("is always a valid key file when `keys create` is killed at random points of its write", async () => {
    const random = mulberry32(SEED);
    console.log(`kill delays seeded with KEYS_KILL_SEED=${SEED}`);
    const outcomes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const before = await names();
      const name = `crash-${i}`;
      // The CLI spends seconds loading before it writes for a few milliseconds, so the clock
      // starts when its temp file appears; delays of 0–200 ms, skewed towards the start.
      const delay = i === 0 ? 0 : Math.round(200 * random() ** 3);
      const child = spawnKeysCli(keysFile, ["create", "--name", name]);
      let stdout = "";
      child.stdout!.on("data", (d) => (stdout += d));
      let killAt: number | undefined;
      const watcher = watch(dir, (_, file) => {
        if (killAt === undefined && file?.startsWith(`.keys.json.${child.pid}.`)) {
          killAt = performance.now();
          setTimeout(() => child.kill("SIGKILL"), delay);
        }
      });
      const { code, signal } = await exited(child);
      watcher.close();

      let after: string[];
      const text = await readFile(keysFile, "utf8");
      try {
        after = validKeyFile(text);
      } catch (error) {
        throw new Error(
          `after a kill ${delay} ms into the write (seed ${SEED}, round ${i}) the key file is not valid: ${(error as Error).message}`,
        );
      }
      const added = after.length === before.length + 1;
      expect(after, `round ${i}: the old keys, or the old keys and ${name}`).toEqual(added ? [...before, name] : before);
      const [printed = ""] = stdout.split("\n");
      if (code === 0) {
        expect(added, `round ${i}: the CLI finished, so its key is there`).toBe(true);
        keys[name] = printed;
      } else if (added) {
        // Killed after the rename: the key is stored but was never handed out.
        expect(printed, `round ${i}`).toMatch(/^(ink_\S+)?$/);
        if (printed) keys[name] = printed;
      }
      outcomes.push(`${name}: kill after ${delay} ms → ${signal ?? `exit ${code}`}, key ${added ? "stored" : "not stored"}`);
    }
    console.log(outcomes.join("\n"));

    // The server never saw a broken file, and serves every key the file holds.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    expect(reloadErrors()).toEqual([]);
    for (const [name, key] of Object.entries(keys)) expect(await accepted(key), name).toBe(true);
    const list = await keysCli(keysFile, ["list"]);
    expect(list.code, list.stderr).toBe(0);
  });

  it("never brings back a revoked key, nor loses a created one, when two CLI runs overlap", async () => {
    // `create late` takes the lock and is held between its write and its rename; `revoke second`
    // and `create other` start meanwhile, wait for the lock, and then apply on top of late's file.
    const late = spawnKeysCli(keysFile, ["create", "--name", "late"], { INKPRESS_TEST_WRITE_PAUSE_MS: "1500" });
    let stderr = "";
    late.stderr!.on("data", (d) => (stderr += d));
    await waitFor(() => (stderr.includes(PAUSE_MARKER) ? true : undefined), "create late paused mid-write", 60_000, 5);
    const [, other] = await Promise.all([revokeKey(keysFile, "second"), createKey(keysFile, "other")]);
    keys.other = other;
    expect((await exited(late)).code).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // the server's reload

    const after = await names();
    // Every symptom at once: what the file holds and what the server accepts.
    expect(
      {
        file: { late: after.includes("late"), other: after.includes("other"), second: after.includes("second") },
        server: { other: await statusWith(keys.other!), second: await statusWith(keys.second!) },
      },
      "late's write must keep other (created meanwhile) and must not bring back second (revoked meanwhile)",
    ).toEqual({
      file: { late: true, other: true, second: false },
      server: { other: 422, second: 401 },
    });
  });

  it("holds each key's webhook secret: printed once by `keys create`, replaced by `keys rotate-secret`, never listed", async () => {
    const records = async () => JSON.parse(await readFile(keysFile, "utf8")).keys as { name: string; webhookSecret?: string }[];
    const created = await keysCli(keysFile, ["create", "--name", "hooks"]);
    expect(created.code, created.stderr).toBe(0);
    const [key, secret, ...rest] = created.stdout.split("\n");
    expect(key).toMatch(/^ink_[A-Za-z0-9_-]{32}$/);
    expect(secret, "24 random bytes, base64, as Standard Webhooks expects").toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret!.slice(6), "base64")).toHaveLength(24);
    expect(rest).toEqual([""]);
    expect(created.stderr).toMatch(/first line is the API key, the second its webhook signing secret/);
    keys.hooks = key!;
    expect((await records()).find((r) => r.name === "hooks")?.webhookSecret).toBe(secret);
    expect((await stat(keysFile)).mode & 0o777).toBe(0o600);

    const others = (await records()).filter((r) => r.name !== "hooks");
    const rotated = await keysCli(keysFile, ["rotate-secret", "hooks"]);
    expect(rotated.code, rotated.stderr).toBe(0);
    const fresh = rotated.stdout.trimEnd();
    expect(fresh).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(fresh).not.toBe(secret);
    expect(rotated.stderr).toBe('webhook secret of "hooks" rotated; store it now, it is not shown again\n');
    expect((await records()).find((r) => r.name === "hooks")?.webhookSecret).toBe(fresh);
    expect(
      (await records()).filter((r) => r.name !== "hooks"),
      "the other keys are untouched",
    ).toEqual(others);

    const unknown = await keysCli(keysFile, ["rotate-secret", "nobody"]);
    expect(unknown).toMatchObject({ code: 1, stdout: "", stderr: 'inkpress: no key named "nobody"\n' });
    const list = await keysCli(keysFile, ["list"]);
    expect(list.code).toBe(0);
    expect(list.stdout).not.toContain("whsec_");
    await waitFor(async () => ((await accepted(keys.hooks!)) ? true : undefined), "the new key accepted", 3_000, 50);
  });

  it("still loads a key file written before webhook secrets, and `keys rotate-secret` gives such a key one", async () => {
    // The server's own file, rewritten as an older inkpress wrote it: no webhookSecret anywhere.
    const data = JSON.parse(await readFile(keysFile, "utf8"));
    for (const record of data.keys) delete record.webhookSecret;
    const old = path.join(dir, "old-format.json");
    await writeFile(old, JSON.stringify(data, null, 2), { mode: 0o600 });
    await rename(old, keysFile);
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // the server's reload
    expect(reloadErrors()).toEqual([]);
    const stored: string[] = data.keys.filter((r: { revoked?: string }) => !r.revoked).map((r: { name: string }) => r.name);
    for (const name of stored.filter((n) => keys[n])) expect(await accepted(keys[name]!), name).toBe(true);
    expect((await keysCli(keysFile, ["list"])).code).toBe(0);

    const rotated = await keysCli(keysFile, ["rotate-secret", "first"]);
    expect(rotated.code, rotated.stderr).toBe(0);
    const first = JSON.parse(await readFile(keysFile, "utf8")).keys.find((r: { name: string }) => r.name === "first");
    expect(first.webhookSecret).toBe(rotated.stdout.trimEnd());
    expect(first.digest).toBe(createHash("sha256").update(keys.first!).digest("hex"));
  });
});
