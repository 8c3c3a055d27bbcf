import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { InkpressError } from "../../src/errors.js";
import { WebhookAddressGuard, type HostResolver } from "../../src/net/address-guard.js";
import { deliverWebhook, type DeliverWebhookOptions } from "../../src/jobs/webhook/deliver.js";
import { newWebhookSecret } from "../../src/keys/store.js";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.js";

// One delivery attempt against a real receiver on 127.0.0.1, let through by the allow list as
// `--webhook-allow 127.0.0.1` would. The receiver verifies every signature with the Standard
// Webhooks library, as a customer's code would.

const EVENT = { type: "job.succeeded", timestamp: "2025-01-01T00:00:00.000Z", data: { id: "job_1", status: "succeeded", title: "Grüße" } };

let receiver: WebhookReceiver;
const allowLoopback = new WebhookAddressGuard({ allow: ["127.0.0.1"] });

beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());
afterEach(() => {
  receiver.received.length = 0;
  receiver.streams.length = 0;
  receiver.answer(204);
});

function deliver(overrides: Partial<DeliverWebhookOptions> = {}) {
  return deliverWebhook({
    url: receiver.url,
    secret: receiver.secret,
    id: `msg_${randomUUID()}`,
    payload: EVENT,
    guard: allowLoopback,
    ...overrides,
  });
}

/** Give a wrongly followed redirect or retry time to show up. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));

describe("webhook delivery", () => {
  it("POSTs the event signed as Standard Webhooks says, and the receiver verifies it", async () => {
    const id = `msg_${randomUUID()}`;
    const before = Math.floor(Date.now() / 1000);
    const attempt = await deliver({ id, attempt: 1 });
    expect(attempt).toMatchObject({ attempt: 1, ok: true, status: 204 });
    expect(attempt.error).toBeUndefined();
    expect(new Date(attempt.at).toISOString()).toBe(attempt.at);
    expect(attempt.durationMs).toBeGreaterThanOrEqual(0);
    expect(attempt.durationMs).toBeLessThan(5_000);

    const [request] = receiver.received;
    expect(receiver.received).toHaveLength(1);
    expect(request).toMatchObject({ method: "POST", path: "/hook", verified: true, event: EVENT });
    expect(JSON.parse(request!.body)).toEqual(EVENT);
    expect(request!.headers["webhook-id"]).toBe(id);
    const timestamp = Number(request!.headers["webhook-timestamp"]);
    expect(request!.headers["webhook-timestamp"]).toMatch(/^\d+$/);
    expect(timestamp).toBeGreaterThanOrEqual(before);
    expect(timestamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(request!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(request!.headers["content-type"]).toBe("application/json");
    expect(request!.headers["content-length"]).toBe(String(Buffer.byteLength(request!.body)));
    expect(receiver.events).toEqual([EVENT]);
  });

  it("sends a string payload byte for byte, and signs with every secret given", async () => {
    const body = '{"type":"job.failed","data":{"id":"job_2"}}';
    const attempt = await deliver({ payload: body, secret: [newWebhookSecret(), receiver.secret] });
    expect(attempt.ok).toBe(true);
    expect(receiver.received[0]!.body).toBe(body);
    expect(receiver.received[0]!.verified).toBe(true);
    expect(String(receiver.received[0]!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
  });

  it("a signature made with another secret does not verify at the receiver", async () => {
    await deliver({ secret: newWebhookSecret() });
    expect(receiver.received[0]).toMatchObject({ verified: false, verifyError: "No matching signature found" });
    expect(receiver.events).toEqual([]);
  });

  it("a 500 is a failed attempt with its status; so is any non-2xx", async () => {
    receiver.answer(500, 404, 200);
    expect(await deliver()).toMatchObject({ ok: false, status: 500, error: "answered 500" });
    expect(await deliver()).toMatchObject({ ok: false, status: 404, error: "answered 404" });
    expect(await deliver()).toMatchObject({ ok: true, status: 200 });
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  });

  it("does not follow a redirect: the 3xx is a failed attempt, and nothing else is requested", async () => {
    for (const status of [301, 302, 307, 308]) {
      receiver.received.length = 0;
      receiver.answer({ redirect: `${receiver.origin}/elsewhere`, status });
      const attempt = await deliver();
      expect(attempt).toMatchObject({ ok: false, status });
      expect(attempt.error).toMatch(/redirect, which is not followed/);
      await settle();
      expect(receiver.received.map((r) => r.path)).toEqual(["/hook"]);
    }
  });

  it("gives up on a receiver that never answers after timeoutMs", async () => {
    receiver.answer("hang");
    const attempt = await deliver({ timeoutMs: 300 });
    expect(attempt).toMatchObject({ ok: false, error: "timed out after 300 ms" });
    expect(attempt.status).toBeUndefined();
    expect(attempt.durationMs).toBeGreaterThanOrEqual(290);
    expect(attempt.durationMs).toBeLessThan(2_000);
    expect(receiver.received).toHaveLength(1);
  });

  it("does not read the response body: a receiver streaming a gigabyte is cut off at once", async () => {
    const GIB = 1024 ** 3;
    receiver.answer({ stream: GIB });
    const attempt = await deliver({ timeoutMs: 5_000 });
    expect(attempt).toMatchObject({ ok: true, status: 200 });
    expect(attempt.durationMs).toBeLessThan(2_000);
    const [streamed] = receiver.streams;
    await streamed!.closed;
    expect(streamed!.completed).toBe(false);
    // What socket buffers took before the connection closed, nowhere near the body.
    expect(streamed!.bytes).toBeLessThan(64 * 1024 ** 2);
  });

  it("reports a refused connection instead of throwing", async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const attempt = await deliver({ url: `http://127.0.0.1:${port}/hook` });
    expect(attempt).toMatchObject({ ok: false, error: "connection refused (ECONNREFUSED)" });
    expect(attempt.status).toBeUndefined();
  });

  it("without the allow list, the loopback receiver is refused and never called", async () => {
    const guard = new WebhookAddressGuard();
    const check = await guard.check(receiver.url).catch((e: unknown) => e);
    expect(check).toBeInstanceOf(InkpressError);
    expect(check).toMatchObject({ status: 422, message: expect.stringMatching(/^webhook\.url is a loopback address/) });

    const attempt = await deliver({ guard, attempt: 3 });
    expect(attempt).toMatchObject({ attempt: 3, ok: false, error: (check as InkpressError).message });
    expect(attempt.status).toBeUndefined();
    await settle();
    expect(receiver.received).toHaveLength(0);

    const byName = await deliver({ guard, url: receiver.url.replace("127.0.0.1", "localhost") });
    expect(byName.error).toMatch(/^webhook\.url resolves to a loopback address/);
    expect(receiver.received).toHaveLength(0);
  });

  describe("the address checked is the address connected to", () => {
    /** A resolver for made-up names: `answers` in turn, one per lookup. */
    function resolver(...answers: string[][]): HostResolver & { calls: number } {
      const counted = Object.assign(
        async () => {
          const addresses = answers[Math.min(counted.calls++, answers.length - 1)]!;
          return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
        },
        { calls: 0 },
      );
      return counted;
    }

    it("connects to the guard's answer, never resolving the name again (a name real DNS does not know)", async () => {
      const resolve = resolver(["127.0.0.1"]);
      const guard = new WebhookAddressGuard({ allow: ["hooks.inkpress.test"], resolve });
      const port = new URL(receiver.url).port;
      const attempt = await deliver({ guard, url: `http://hooks.inkpress.test:${port}/hook` });
      expect(attempt).toMatchObject({ ok: true, status: 204 });
      expect(receiver.received[0]!.headers.host).toBe(`hooks.inkpress.test:${port}`);
      expect(receiver.received[0]!.verified).toBe(true);
      expect(resolve.calls).toBe(1);
    });

    it("checks again on every attempt: a name that moves to a refused address is not called", async () => {
      const resolve = resolver(["127.0.0.1"], ["10.0.0.1"], ["127.0.0.1", "169.254.169.254"]);
      const guard = new WebhookAddressGuard({ allow: ["127.0.0.1"], resolve });
      const url = `http://rebind.inkpress.test:${new URL(receiver.url).port}/hook`;
      expect(await deliver({ guard, url, attempt: 1 })).toMatchObject({ ok: true });
      expect(await deliver({ guard, url, attempt: 2 })).toMatchObject({
        ok: false,
        error: expect.stringMatching(/resolves to a private address/),
      });
      expect(await deliver({ guard, url, attempt: 3 })).toMatchObject({
        ok: false,
        error: expect.stringMatching(/resolves to a cloud metadata address/),
      });
      expect(resolve.calls).toBe(3);
      expect(receiver.received).toHaveLength(1);
    });

    it("a resolver that never answers counts against the time-out", async () => {
      const guard = new WebhookAddressGuard({ resolve: () => new Promise(() => {}) });
      const attempt = await deliver({ guard, url: "http://slow-dns.inkpress.test/hook", timeoutMs: 200 });
      expect(attempt).toMatchObject({ ok: false, error: "timed out after 200 ms" });
      expect(attempt.durationMs).toBeLessThan(1_000);
    });
  });
});
