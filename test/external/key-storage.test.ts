import { mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LocalKeyStorage } from "../../src/keys/local-storage.js";
import { RedisKeyStorage } from "../../src/keys/redis-storage.js";
import type { KeyStorage } from "../../src/keys/storage.js";
import { StateUnavailableError } from "../../src/redis.js";
import { waitFor } from "../helpers/http.js";
import { startRedis, type TestRedis } from "../helpers/redis.js";

// One contract, two implementations: whatever the limiter and the idempotency layer rely on
// must hold alike for one process (memory and files) and for replicas sharing Redis.

/** A fresh storage of one kind, and how to open a second one on the same state (a restart, or another replica). */
interface Kind {
  name: string;
  open(): Promise<KeyStorage>;
  reopen(): Promise<KeyStorage>;
}

let redis: TestRedis;
let dataDir = "";
const opened: KeyStorage[] = [];
const track = async (storage: Promise<KeyStorage>) => {
  opened.push(await storage);
  return opened.at(-1)!;
};

const localOn = (dir: string) => LocalKeyStorage.open({ dataDir: dir, usageFile: path.join(dir, "keys.usage.json") });
const kinds: Kind[] = [
  {
    name: "local",
    open: async () => track(localOn((dataDir = await mkdtemp(path.join(tmpdir(), "inkpress-storage-"))))),
    reopen: () => track(localOn(dataDir)),
  },
  { name: "redis", open: () => track(RedisKeyStorage.connectOnce(redis.url)), reopen: () => track(RedisKeyStorage.connectOnce(redis.url)) },
];

beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((s) => s.close()));
});
afterAll(() => redis?.stop());

/** Names unique per test, so the Redis kind needs no flushing between tests. */
let serial = 0;
const unique = (what: string) => `${what}-${process.pid}-${++serial}`;

describe.each(kinds)("$name key storage", (kind) => {
  it("counts requests per fixed window, separately per key and per window", async () => {
    const storage = await kind.open();
    const [a, b] = [unique("a"), unique("b")];
    const minute = 60_000;
    const start = Math.floor(Date.now() / minute) * minute;
    const counts = [];
    for (let i = 0; i < 3; i++) counts.push(await storage.countRequest(a, start, minute));
    expect(counts).toEqual([1, 2, 3]);
    expect(await storage.countRequest(b, start, minute), "another key").toBe(1);
    expect(await storage.countRequest(a, start + minute, minute), "the next window starts at 0").toBe(1);
    // Counted concurrently, every request gets its own number.
    const together = await Promise.all(Array.from({ length: 10 }, () => storage.countRequest(b, start + minute, minute)));
    expect(together.sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it("grants at most `limit` leases at once; a released lease frees its slot", async () => {
    const storage = await kind.open();
    const name = unique("conc");
    const leases = await Promise.all(Array.from({ length: 5 }, () => storage.acquireLease(name, 2, 60_000)));
    const granted = leases.filter((l): l is string => l !== undefined);
    expect(granted).toHaveLength(2);
    expect(new Set(granted).size).toBe(2);
    await storage.releaseLease(name, granted[0]!);
    await storage.releaseLease(name, granted[0]!); // twice is harmless
    const again = await storage.acquireLease(name, 2, 60_000);
    expect(again).toBeTypeOf("string");
    expect(await storage.acquireLease(name, 2, 60_000)).toBeUndefined();
    expect(await storage.acquireLease(unique("other"), 2, 60_000), "another key has its own slots").toBeTypeOf("string");
  });

  it("lets a lease that was never released expire, so a dead holder cannot keep its slot", async () => {
    const storage = await kind.open();
    const name = unique("expiry");
    expect(await storage.acquireLease(name, 1, 300)).toBeTypeOf("string");
    expect(await storage.acquireLease(name, 1, 300)).toBeUndefined();
    await sleep(400);
    expect(await storage.acquireLease(name, 1, 300), "the forgotten lease has expired").toBeTypeOf("string");
  });

  it("records last use and today's words", async () => {
    const storage = await kind.open();
    const name = unique("usage");
    expect(await storage.activity(name)).toEqual({ wordsToday: 0 });
    const before = Date.now();
    await storage.recordUse(name, 0);
    const used = await storage.activity(name);
    expect(used.wordsToday).toBe(0);
    expect(Date.parse(used.lastUsed!)).toBeGreaterThanOrEqual(before - 1);
    await storage.recordUse(name, 120);
    await storage.recordUse(name, 30);
    expect((await storage.activity(name)).wordsToday).toBe(150);
    expect((await storage.activity(unique("unused"))).wordsToday).toBe(0);
  });

  it("reserves daily words only while they fit, one of many at once taking the last ones; a negative use gives part back", async () => {
    const storage = await kind.open();
    const name = unique("reserve");
    await storage.recordUse(name, 906);
    expect(await storage.reserveWords(name, 880, 1000)).toEqual({ left: 94 });
    expect((await storage.activity(name)).wordsToday, "a refused reservation takes nothing").toBe(906);
    const pool = unique("pool");
    const together = await Promise.all(Array.from({ length: 4 }, () => storage.reserveWords(pool, 880, 1000)));
    const granted = together.filter((r): r is { day: string } => "day" in r);
    expect(granted).toHaveLength(1);
    expect(granted[0]!.day).toBe(new Date().toISOString().slice(0, 10));
    expect(together.filter((r) => "left" in r)).toEqual(Array(3).fill({ left: 120 }));
    await storage.recordUse(pool, 812 - 880, granted[0]!.day);
    expect((await storage.activity(pool)).wordsToday).toBe(812);
    expect(await storage.reserveWords(pool, 188, 1000)).toEqual({ day: granted[0]!.day });
    expect(await storage.reserveWords(pool, 1, 1000)).toEqual({ left: 0 });
  });

  it("keeps last use and today's words for the next instance (a restart, or another replica)", async () => {
    const first = await kind.open();
    const name = unique("kept");
    await first.recordUse(name, 42);
    await first.close();
    const second = await kind.reopen();
    const kept = await second.activity(name);
    expect(kept.wordsToday).toBe(42);
    expect(kept.lastUsed).toBeTypeOf("string");
  });

  it("claims an idempotency id once: free, then pending, then done with its value; a release frees it", async () => {
    const storage = await kind.open();
    const id = unique("idem");
    expect(await storage.claimIdempotency(id, "fp-1", 60_000)).toBeUndefined();
    expect(await storage.claimIdempotency(id, "fp-2", 60_000)).toEqual({ fingerprint: "fp-1", state: "pending" });
    await storage.completeIdempotency(id, "fp-1", '{"answer":42}', 60_000);
    expect(await storage.claimIdempotency(id, "fp-1", 60_000)).toEqual({ fingerprint: "fp-1", state: "done", value: '{"answer":42}' });
    await storage.releaseIdempotency(id);
    expect(await storage.claimIdempotency(id, "fp-3", 60_000), "released: free again").toBeUndefined();
    expect(await storage.claimIdempotency(id, "fp-1", 60_000)).toEqual({ fingerprint: "fp-3", state: "pending" });
  });

  it("lets exactly one of many simultaneous claims of an id win", async () => {
    const storage = await kind.open();
    const id = unique("race");
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => storage.claimIdempotency(id, `fp-${i}`, 60_000)));
    expect(claims.filter((c) => c === undefined)).toHaveLength(1);
    const winner = claims.indexOf(undefined);
    for (const claim of claims.filter((c) => c !== undefined)) expect(claim).toEqual({ fingerprint: `fp-${winner}`, state: "pending" });
  });

  it("forgets idempotency records once their time is up, pending or done", async () => {
    const storage = await kind.open();
    const [pending, done] = [unique("pending"), unique("done")];
    await storage.claimIdempotency(pending, "fp", 300);
    await storage.claimIdempotency(done, "fp", 60_000);
    await storage.completeIdempotency(done, "fp", "value", 300);
    await sleep(400);
    expect(await storage.claimIdempotency(pending, "fp-new", 60_000), "a pending claim whose holder died").toBeUndefined();
    expect(await storage.claimIdempotency(done, "fp-new", 60_000)).toBeUndefined();
  });

  it("keeps idempotency records for the next instance (a restart, or another replica)", async () => {
    const first = await kind.open();
    const [pending, done] = [unique("kept-pending"), unique("kept-done")];
    await first.claimIdempotency(pending, "fp-p", 60_000);
    await first.claimIdempotency(done, "fp-d", 60_000);
    await first.completeIdempotency(done, "fp-d", "the answer", 60_000);
    await first.close();
    const second = await kind.reopen();
    expect(await second.claimIdempotency(pending, "other", 60_000)).toEqual({ fingerprint: "fp-p", state: "pending" });
    expect(await second.claimIdempotency(done, "other", 60_000)).toEqual({ fingerprint: "fp-d", state: "done", value: "the answer" });
  });

  it("records each post's first owner, whoever records it after (at once or later), for the next instance too", async () => {
    const first = await kind.open();
    const site = `https://${unique("site")}.example`;
    expect(await first.postOwner(site, "7")).toBeUndefined();
    expect(await first.recordPost(site, "7", "key_a")).toBe("key_a");
    expect(await first.recordPost(site, "7", "key_b")).toBe("key_a");
    const race = await Promise.all(["key_c", "key_d", "key_e", "key_f"].map((owner) => first.recordPost(site, "8", owner)));
    expect(new Set(race).size).toBe(1);
    await first.close();
    const second = await kind.reopen();
    expect([await second.postOwner(site, "7"), await second.postOwner(site, "8"), await second.postOwner(`${site}/other`, "7")]).toEqual([
      "key_a",
      race[0],
      undefined,
    ]);
  });

  it("lets one publication hold an article's lock at a time; released, or past its time, it is free again", async () => {
    const storage = await kind.open();
    const name = unique("lock");
    const tokens = await Promise.all(Array.from({ length: 4 }, () => storage.lockPublication(name, 60_000)));
    const held = tokens.filter((token): token is string => token !== undefined);
    expect(held).toHaveLength(1);
    await storage.unlockPublication(name, "not-the-token");
    expect(await storage.lockPublication(name, 60_000), "another's token releases nothing").toBeUndefined();
    if (kind.name === "redis")
      expect(await (await kind.reopen()).lockPublication(name, 60_000), "another replica waits too").toBeUndefined();
    await storage.unlockPublication(name, held[0]!);
    expect(await storage.lockPublication(name, 300)).toBeTypeOf("string");
    await sleep(400);
    expect(await storage.lockPublication(name, 60_000), "a holder that died lets go when its time is up").toBeTypeOf("string");
  });
});

describe("local key storage files", () => {
  it("keeps idempotency records as private files named by hash, and deletes expired ones when it opens", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-storage-"));
    const first = await track(localOn(dir));
    await first.claimIdempotency("owner:../../etc/passwd", "fp", 200);
    await first.claimIdempotency("owner:long-lived", "fp", 60_000);
    await first.close();
    const folder = path.join(dir, "idempotency");
    const files = await readdir(folder);
    expect(files).toHaveLength(2);
    for (const file of files) {
      expect(file).toMatch(/^[0-9a-f]{64}\.json$/);
      expect((await stat(path.join(folder, file))).mode & 0o777).toBe(0o600);
    }
    // A file that is no record at all must not block its id forever.
    await writeFile(path.join(folder, `${"0".repeat(64)}.json`), "not json");
    await sleep(300);
    await track(localOn(dir));
    const left = await readdir(folder);
    expect(left).toHaveLength(1);
    expect(JSON.parse(await readFile(path.join(folder, left[0]!), "utf8"))).toMatchObject({ fingerprint: "fp", state: "pending" });
  });
});

describe("redis key storage while Redis goes away", () => {
  it("fails every call at once with a 503 StateUnavailableError, and works again once Redis is back", async () => {
    const storage = await track(Promise.resolve(RedisKeyStorage.connect(redis.url)));
    const name = unique("outage");
    await waitFor(
      async () => ((await storage.countRequest(name, Date.now(), 1000).catch(() => 0)) > 0 ? true : undefined),
      "connected",
      5_000,
    );
    await redis.kill();
    try {
      const calls: [string, () => Promise<unknown>][] = [
        ["countRequest", () => storage.countRequest(name, Date.now(), 1000)],
        ["acquireLease", () => storage.acquireLease(name, 1, 1000)],
        ["releaseLease", () => storage.releaseLease(name, "lease")],
        ["recordUse", () => storage.recordUse(name, 5)],
        ["activity", () => storage.activity(name)],
        ["claimIdempotency", () => storage.claimIdempotency(name, "fp", 1000)],
        ["completeIdempotency", () => storage.completeIdempotency(name, "fp", "v", 1000)],
        ["releaseIdempotency", () => storage.releaseIdempotency(name)],
      ];
      for (const [method, call] of calls) {
        const started = Date.now();
        const error = await call().then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, method).toBeInstanceOf(StateUnavailableError);
        expect((error as StateUnavailableError).status).toBe(503);
        expect(Date.now() - started, `${method} answers without waiting for Redis`).toBeLessThan(3_000);
      }
    } finally {
      await redis.start();
    }
    await waitFor(
      async () => ((await storage.countRequest(name, Date.now(), 1000).catch(() => 0)) > 0 ? true : undefined),
      "working again",
      10_000,
      100,
    );
    expect(await storage.acquireLease(name, 1, 1000)).toBeTypeOf("string");
  });

  it("fails a one-shot connection with one line naming where Redis was looked for", async () => {
    const error = await RedisKeyStorage.connectOnce("redis://127.0.0.1:1").then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.message).toMatch(/^cannot reach Redis at 127\.0\.0\.1:1 \(INKPRESS_REDIS_URL\): .*ECONNREFUSED/);
    expect(error?.message).not.toContain("\n");
  });
});
