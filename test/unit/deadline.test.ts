import net, { type AddressInfo } from "node:net";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deadline } from "../../src/deadline.js";

// A try's deadline must fire whatever the garbage collector does meanwhile. fetch holds its
// signal weakly, and `AbortSignal.any` holds an `AbortSignal.timeout` weakly: after a collection
// such a try against a silent server never ended (`batch --server` at the default 30 s).

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/** A server that takes connections and never answers. */
const silent = net.createServer(() => {});
let url = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
});
afterAll(() => silent.close());

/** How a fetch to the silent server ends under `signal`, garbage collected while it waits; "waiting" if it has not after 5 s. */
async function fetchCollected(signal: AbortSignal): Promise<string> {
  const ended = fetch(url, { signal }).then(
    () => "answered",
    (error: Error) => error.name,
  );
  setTimeout(collectGarbage, 50);
  let guard: NodeJS.Timeout | undefined;
  const waiting = new Promise<string>((resolve) => (guard = setTimeout(() => resolve("waiting"), 5000)));
  return Promise.race([ended, waiting]).finally(() => clearTimeout(guard));
}

describe("a deadline", () => {
  it("ends a fetch to a silent server with a TimeoutError, under the caller's signal, though garbage is collected meanwhile", async () => {
    const caller = new AbortController();
    const try1 = deadline(300, caller.signal);
    expect(await fetchCollected(try1.signal)).toBe("TimeoutError");
    try1.clear();
    expect(caller.signal.aborted).toBe(false);
  });

  it("aborts at once with the caller's reason, and never fires once cleared", async () => {
    const caller = new AbortController();
    const first = deadline(60_000, caller.signal);
    caller.abort(new Error("stopped"));
    expect((first.signal.reason as Error).message).toBe("stopped");
    first.clear();
    const cleared = deadline(50);
    cleared.clear();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cleared.signal.aborted).toBe(false);
  });
});
