import { afterEach, describe, expect, it } from "vitest";
import { WorkerPool } from "../../src/worker-pool.js";

// The pool takes turns between owners (API keys): the order answers come in, not their times.

type Busy = { name: string; ms: number };
const pools: WorkerPool<Busy, string>[] = [];
const pool = () => {
  const made = new WorkerPool<Busy, string>(new URL("../fixtures/workers/busy.js", import.meta.url), { size: 2, timeoutMs: 60_000 });
  pools.push(made);
  return made;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

/** Six slow tasks of `a`, then one quick one of `b`, all queued at once: the order their answers come in. */
async function answers(workers: WorkerPool<Busy, string>, b: string): Promise<string[]> {
  const order: string[] = [];
  const slow = Array.from({ length: 6 }, (_, i) => workers.run({ name: `a${i}`, ms: 300 }, "key-a").then((name) => order.push(name)));
  const quick = workers.run({ name: "b", ms: 1 }, b).then((name) => order.push(name));
  await Promise.all([...slow, quick]);
  return order;
}

describe("the worker pool", () => {
  it("starts another owner's task at the first free worker, however many one owner queued first", async () => {
    const order = await answers(pool(), "key-b");
    // Two workers: one of a's tasks may finish while b's starts, never more than two.
    expect(order.indexOf("b")).toBeLessThanOrEqual(2);
    expect(order.filter((name) => name.startsWith("a"))).toHaveLength(6);
  });

  it("keeps one owner's tasks first in, first out", async () => {
    const order = await answers(pool(), "key-a");
    expect(order.indexOf("b")).toBeGreaterThanOrEqual(4);
  });
});
