import { describe, expect, it } from "vitest";
import { withStyle } from "../../src/generation/service.js";
import { FairQueue } from "../../src/jobs/fair-queue.js";
import type { GenerateRequest } from "../../src/contract/request.js";

/** Take every job, in the order the queue gives them. */
function drain(queue: FairQueue): string[] {
  const taken: string[] = [];
  for (let id = queue.take(); id !== undefined; id = queue.take()) taken.push(id);
  return taken;
}

describe("the fair job queue", () => {
  it("takes keys in turns, each key's jobs first in first out", () => {
    const queue = new FairQueue();
    for (const id of ["a1", "a2", "a3", "a4"]) queue.push("flood", id);
    queue.push("b", "b1");
    queue.push("c", "c1");
    queue.push("b", "b2");
    expect(queue.size()).toBe(7);
    expect(queue.size("flood")).toBe(4);
    expect(drain(queue)).toEqual(["a1", "b1", "c1", "a2", "b2", "a3", "a4"]);
    expect(queue.size()).toBe(0);
  });

  it("lets a key that arrives during a flood in after at most one more job of the flood", () => {
    const queue = new FairQueue();
    for (const id of ["a1", "a2", "a3"]) queue.push("flood", id);
    expect(queue.take()).toBe("a1");
    queue.push("late", "l1");
    const next = [queue.take(), queue.take()];
    expect(next).toContain("l1");
  });

  it("puts a job that could not run back at the front of its key's line, and drops a cancelled one", () => {
    const queue = new FairQueue();
    queue.push("a", "a1");
    queue.push("a", "a2");
    queue.push("b", "b1");
    expect(queue.take()).toBe("a1");
    queue.putBack("a", "a1");
    expect(queue.remove("b1")).toBe(true);
    expect(queue.remove("b1")).toBe(false);
    expect(queue.size("b")).toBe(0);
    expect(drain(queue)).toEqual(["a1", "a2"]);
  });

  it("gives a 0.1.0 name's queued jobs to the id that inherits it", () => {
    const queue = new FairQueue();
    queue.push("carol", "c1");
    queue.push("key_0123", "c2");
    queue.rename("carol", "key_0123");
    expect(queue.size("carol")).toBe(0);
    expect(queue.size("key_0123")).toBe(2);
  });
});

describe("a key's default style under the request's", () => {
  const request = { topic: "x" } as GenerateRequest;

  it("is laid under the request's style field by field", () => {
    expect(withStyle(request, undefined)).toBe(request);
    expect(withStyle(request, { voice: "dry", avoid: ["delve"] }).style).toEqual({ voice: "dry", avoid: ["delve"] });
    expect(
      withStyle({ ...request, style: { voice: "warm", avoid: undefined } }, { voice: "dry", avoid: ["delve"], cliches: false }).style,
    ).toEqual({
      voice: "warm",
      avoid: ["delve"],
      cliches: false,
    });
  });
});
