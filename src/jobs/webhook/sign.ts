import { Webhook } from "standardwebhooks";

/** The Standard Webhooks headers of one delivery attempt. */
export interface WebhookHeaders {
  "webhook-id": string;
  /** Unix seconds of the attempt. */
  "webhook-timestamp": string;
  /** `v1,<base64 HMAC-SHA256>` of `id.timestamp.body`, one per secret, space-separated. */
  "webhook-signature": string;
}

/** What {@link signWebhook} signs. */
export interface SignWebhookOptions {
  /**
   * The key's secret, `whsec_<base64>`; several while a rotated secret is still honoured,
   * so receivers holding either one can verify.
   */
  secret: string | readonly string[];
  /** The message id, `msg_…`: the same on every attempt of one event, so receivers can drop repeats. */
  id: string;
  /** The exact body sent; the signature covers its bytes. */
  body: string;
  /**
   * When the attempt is made; receivers refuse timestamps more than five minutes off.
   * @default new Date()
   */
  timestamp?: Date;
}

/**
 * Sign a webhook body as the Standard Webhooks specification says, with its reference
 * library, so that any receiver using a Standard Webhooks library verifies it unchanged.
 */
export function signWebhook(options: SignWebhookOptions): WebhookHeaders {
  const timestamp = options.timestamp ?? new Date();
  const secrets = typeof options.secret === "string" ? [options.secret] : options.secret;
  if (secrets.length === 0) throw new Error("signWebhook needs at least one secret");
  const signatures = secrets.map((secret) => new Webhook(secret).sign(options.id, timestamp, options.body));
  return {
    "webhook-id": options.id,
    "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
    "webhook-signature": signatures.join(" "),
  };
}

/** The message id of a job's end: the same on every attempt, so receivers can deduplicate by it. */
export function webhookMessageId(jobId: string): string {
  return `msg_${jobId.replace(/^job_/, "")}`;
}
