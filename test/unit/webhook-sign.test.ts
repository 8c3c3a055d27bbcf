import { describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { newWebhookMessageId, newWebhookSecret, signWebhook } from "../../src/jobs/webhook/sign.js";

describe("webhook signing", () => {
  it("signs id.timestamp.body with HMAC-SHA256 of the decoded secret, as the specification spells it out", () => {
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const body = JSON.stringify({ type: "job.succeeded", data: { id: "job_1", title: "Café" } });
    const headers = signWebhook({ secret, id: "msg_p5jXN8AQM9LWM0D4loKWxJek", body, timestamp: new Date(1_614_265_330_999) });
    expect(headers["webhook-id"]).toBe("msg_p5jXN8AQM9LWM0D4loKWxJek");
    expect(headers["webhook-timestamp"]).toBe("1614265330");
    const expected = createHmac("sha256", Buffer.from("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "base64"))
      .update(`msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.${body}`)
      .digest("base64");
    expect(headers["webhook-signature"]).toBe(`v1,${expected}`);
  });

  it("verifies with the Standard Webhooks library, and not with another secret or body", () => {
    const secret = newWebhookSecret();
    const body = '{"type":"job.failed"}';
    const headers = signWebhook({ secret, id: newWebhookMessageId(), body });
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual({ type: "job.failed" });
    expect(() => new Webhook(newWebhookSecret()).verify(body, { ...headers })).toThrow(/No matching signature/);
    expect(() => new Webhook(secret).verify('{"type":"job.succeeded"}', { ...headers })).toThrow(/No matching signature/);
  });

  it("signs with every secret while a rotated one is honoured, space-separated", () => {
    const [older, newer] = [newWebhookSecret(), newWebhookSecret()];
    const headers = signWebhook({ secret: [newer, older], id: "msg_x", body: "{}" });
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    for (const secret of [older, newer]) expect(new Webhook(secret).verify("{}", { ...headers })).toEqual({});
    expect(() => signWebhook({ secret: [], id: "msg_x", body: "{}" })).toThrow(/at least one secret/);
  });

  it("makes msg_ ids and whsec_ secrets of 128 and 256 random bits", () => {
    const ids = new Set(Array.from({ length: 100 }, newWebhookMessageId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^msg_[A-Za-z0-9_-]{22}$/);
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(32);
  });
});
