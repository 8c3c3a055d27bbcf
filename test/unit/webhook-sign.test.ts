import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { signWebhook, webhookMessageId } from "../../src/jobs/webhook/sign.js";
import { newWebhookSecret } from "../../src/keys/store.js";

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
    const headers = signWebhook({ secret, id: webhookMessageId(`job_${randomUUID().replaceAll("-", "")}`), body });
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

  it("gives every attempt of a job's end the same msg_ id, derived from the job", () => {
    const id = webhookMessageId("job_0123456789abcdef0123456789abcdef");
    expect(id).toBe("msg_0123456789abcdef0123456789abcdef");
    expect(webhookMessageId("job_0123456789abcdef0123456789abcdef")).toBe(id);
  });
});
