import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { newWebhookSecret } from "../../src/keys/store.js";

/**
 * How the receiver answers the next request:
 * - a number: that status, empty body
 * - `"hang"`: read the request, never answer
 * - `{ redirect, status }`: a redirect (302 unless told) to `redirect`
 * - `{ stream, status }`: that status (200 unless told), then a body of `stream` bytes, written
 *   as fast as the client takes them; see {@link WebhookReceiver.streams}
 */
export type ReceiverAnswer = number | "hang" | { redirect: string; status?: number } | { stream: number; status?: number };

/** One request as the receiver got it. */
export interface ReceivedWebhook {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The signature verified with the receiver's secret (and the timestamp was within tolerance). */
  verified: boolean;
  /** Why verification failed. */
  verifyError?: string;
  /** The parsed body, when verified. */
  event?: unknown;
}

/** A streamed answer body: how much of it the client made us write. */
export interface StreamedBody {
  /** Bytes written before the client went away or the body ended. */
  bytes: number;
  /** The whole body was written (the client read it all). */
  completed: boolean;
  /** Settles when the response is over, either way. */
  closed: Promise<void>;
}

/** A real webhook receiver on 127.0.0.1 that checks every signature as a customer's would. */
export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>/hook` */
  url: string;
  /** `http://127.0.0.1:<port>`, for other paths. */
  origin: string;
  /** The `whsec_…` secret signatures are verified with. */
  secret: string;
  /** Every request, in order. */
  received: ReceivedWebhook[];
  /** The bodies of the verified requests, parsed, in order. */
  readonly events: unknown[];
  /** Bodies streamed by `{ stream }` answers. */
  streams: StreamedBody[];
  /** Answer the next requests so, one each; the last one given keeps answering. Default 204. */
  answer(...answers: ReceiverAnswer[]): void;
  /** Resolve once `count` requests have arrived; reject after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** What {@link startWebhookReceiver} is built with. */
export interface WebhookReceiverOptions {
  /**
   * The secret to verify with.
   * @default a new random `whsec_…` secret
   */
  secret?: string;
}

/** Start a receiver on a free loopback port. */
export async function startWebhookReceiver(options: WebhookReceiverOptions = {}): Promise<WebhookReceiver> {
  const secret = options.secret ?? newWebhookSecret();
  const verifier = new Webhook(secret);
  let answers: ReceiverAnswer[] = [204];
  const waiters = new Set<() => void>();

  const server = http.createServer(async (req, res) => {
    const body = Buffer.concat(await req.toArray()).toString("utf8");
    const record: ReceivedWebhook = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body, verified: false };
    try {
      const headers: Record<string, string> = {};
      for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) {
        const value = req.headers[name];
        if (typeof value === "string") headers[name] = value;
      }
      record.event = verifier.verify(body, headers);
      record.verified = true;
    } catch (error) {
      record.verifyError = error instanceof Error ? error.message : String(error);
    }
    receiver.received.push(record);
    for (const wake of waiters) wake();

    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    if (answer === "hang") return;
    if (typeof answer === "number") return void res.writeHead(answer).end();
    if ("redirect" in answer) return void res.writeHead(answer.status ?? 302, { location: answer.redirect }).end();
    stream(res, answer.status ?? 200, answer.stream);
  });

  function stream(res: http.ServerResponse, status: number, total: number): void {
    let resolveClosed!: () => void;
    const streamed: StreamedBody = { bytes: 0, completed: false, closed: new Promise((resolve) => (resolveClosed = resolve)) };
    receiver.streams.push(streamed);
    res.on("close", () => resolveClosed());
    res.on("error", () => {});
    res.writeHead(status, { "content-type": "application/octet-stream", "content-length": String(total) });
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    const pump = () => {
      while (streamed.bytes < total && !res.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - streamed.bytes));
        streamed.bytes += piece.length;
        if (!res.write(piece)) return void res.once("drain", pump);
      }
      if (streamed.bytes >= total && !res.destroyed) {
        streamed.completed = true;
        res.end();
      }
    };
    pump();
  }

  const receiver: WebhookReceiver = {
    url: "",
    origin: "",
    secret,
    received: [],
    get events() {
      return this.received.filter((r) => r.verified).map((r) => r.event);
    },
    streams: [],
    answer: (...next) => {
      if (next.length === 0) throw new Error("answer() needs at least one answer");
      answers = next;
    },
    waitFor: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (receiver.received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(receiver.received);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`webhook receiver got ${receiver.received.length} of ${count} requests in ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver.url = `${receiver.origin}/hook`;
  return receiver;
}
