import { HTTPError } from "h3";
import { describe, expect, it } from "vitest";
import { InkpressError } from "../../src/errors.js";
import { asHttpError, isFault, problem } from "../../src/http/problem.js";

// Which errors leave a stack trace in the log: faults only, never routine refusals or shed load.
describe("isFault", () => {
  it.each([401, 404, 409, 413, 415, 422, 429])("a %i is routine", (status) => {
    expect(isFault(problem(status, "no"))).toBe(false);
    expect(isFault(asHttpError(new InkpressError("no", { status })))).toBe(false);
  });

  it("a 503 with Retry-After (a full queue, a busy model, a shutdown) is load shedding, not a fault", () => {
    expect(isFault(asHttpError(new InkpressError("The job queue is full.", { status: 503, headers: { "retry-after": "5" } })))).toBe(false);
  });

  it("an unexpected error, a 500, a 502 and a 503 without Retry-After are faults", () => {
    expect(isFault(asHttpError(new TypeError("x is undefined")))).toBe(true);
    expect(isFault(new HTTPError({ status: 500, unhandled: true }))).toBe(true);
    expect(isFault(asHttpError(new InkpressError("the model failed", { status: 502 })))).toBe(true);
    expect(isFault(problem(503, "Redis does not answer."))).toBe(true);
  });
});
