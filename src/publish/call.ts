import type { InkpressError } from "../errors.js";
import http from "node:http";
import https from "node:https";
import { type HostResolver, pinnedLookup, WebhookAddressGuard, type WebhookTarget } from "../net/address-guard.js";
import { PublishError } from "./errors.js";
import type { PublishTarget } from "./targets.js";

/** One call to a CMS's API. */
export interface CallRequest {
  method: "GET" | "POST" | "PUT" | "OPTIONS";
  /** Path and query under the target's base URL, such as `/wp-json/wp/v2/posts?slug=a`. */
  path: string;
  body?: unknown;
  /** The Authorization header, made by the client from the target's secret. */
  authorization: string;
}

/** A CMS's answer: its status and its JSON body (undefined when it sent none). */
export interface CallAnswer {
  status: number;
  json: unknown;
}

/** Tries of a call the site answers 429 or 503. */
const TRIES = 3;
/** The longest Retry-After waited for within a publication; a longer one is a 503 with it. */
const MOST_WAIT_S = 10;

/**
 * Calls one target's API: its address checked against the SSRF rules on every call (a name
 * may resolve elsewhere later) and the connection made to the very addresses checked, a deadline per try, 429 and 503 retried after `Retry-After`
 * (bounded), and every failure turned into a {@link PublishError} that names the target and
 * never its credentials.
 */
export class TargetCaller {
  readonly #guard: WebhookAddressGuard;

  constructor(
    readonly target: PublishTarget,
    /** How host names resolve; tests give a resolver of their own (by default DNS). */
    options: { resolve?: HostResolver } = {},
  ) {
    const allow = target.allowPrivate ? [new URL(target.url).hostname] : [];
    const subject = {
      field: `publish target "${target.name}"'s url`,
      who: "publishing targets",
      allowedBy: 'the target has "allowPrivate": true in the targets file',
    };
    this.#guard = new WebhookAddressGuard({ allow, subject, ...options });
  }

  /** Make the call; any status the site answers is returned except 429/503 after its last try. */
  async call(request: CallRequest): Promise<CallAnswer> {
    const url = `${this.target.url}${request.path}`;
    let checked: WebhookTarget;
    try {
      checked = await this.#guard.check(url);
    } catch (error) {
      throw new PublishError(this.target.name, (error as InkpressError).message, { status: 502 });
    }
    for (let attempt = 1; ; attempt++) {
      const answer = await this.#once(checked, request);
      if (answer.status !== 429 && answer.status !== 503) return answer;
      const wait = retryAfterSeconds(answer.retryAfter);
      if (attempt >= TRIES || wait > MOST_WAIT_S) {
        const seconds = Math.max(1, Math.ceil(wait));
        throw new PublishError(
          this.target.name,
          `target "${this.target.name}" is busy (it answered ${answer.status} ${attempt} times); try again in ${seconds} s`,
          { status: 503, headers: { "retry-after": String(seconds) } },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, wait * 1000));
    }
  }

  /** One try, connected only to the addresses the guard checked (as webhooks are), a redirect never followed. */
  async #once(checked: WebhookTarget, request: CallRequest): Promise<CallAnswer & { retryAfter: string | null }> {
    const headers: Record<string, string> = { authorization: request.authorization, accept: "application/json" };
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    if (body !== undefined)
      Object.assign(headers, { "content-type": "application/json", "content-length": String(Buffer.byteLength(body)) });
    const signal = AbortSignal.timeout(this.target.timeoutMs);
    let response: { status: number; text: string; retryAfter: string | null };
    try {
      response = await send(checked, { method: request.method, headers, body, signal });
    } catch (error) {
      throw this.#unreachable(signal.aborted ? Object.assign(new Error("timed out"), { name: "TimeoutError" }) : error);
    }
    let json: unknown;
    try {
      json = response.text ? JSON.parse(response.text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, json, retryAfter: response.retryAfter };
  }

  /** A call that got no answer: a timeout, a TLS failure, a refused connection. */
  #unreachable(error: unknown): PublishError {
    const name = this.target.name;
    const err = error as Error & { cause?: { code?: string; message?: string } };
    if (err.name === "TimeoutError")
      return new PublishError(name, `target "${name}" did not answer within ${this.target.timeoutMs / 1000} s`, {
        status: 504,
        cause: error,
      });
    const code = err.cause?.code ?? (err as NodeJS.ErrnoException).code ?? "";
    if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code) || /certificate|tls|ssl/i.test(err.cause?.message ?? err.message)) {
      return new PublishError(
        name,
        `target "${name}" failed the TLS check (${code || "TLS error"}): its certificate is not one this server trusts; fix the site's certificate or give ` +
          `Node its CA (NODE_EXTRA_CA_CERTS)`,
        { status: 502, cause: error },
      );
    }
    const why = code || err.cause?.message || err.message;
    return new PublishError(name, `target "${name}" cannot be reached (${why})`, { status: 502, cause: error });
  }

  /** A PublishError for an answer the client does not accept: credentials refused, a missing capability, anything else. */
  refused(answer: CallAnswer, doing: string): PublishError {
    const name = this.target.name;
    const said = siteMessage(answer.json);
    if (answer.status === 401) {
      return new PublishError(
        name,
        `target "${name}" refused the credentials (401${said}) while ${doing}: check the target's user and password or key; a proxy in front of the site ` +
          `may strip the Authorization header (Apache needs CGIPassAuth On)`,
      );
    }
    if (answer.status === 403)
      return new PublishError(name, `target "${name}" refused ${doing} (403${said}): the target's user lacks the capability`);
    return new PublishError(name, `target "${name}" answered ${answer.status}${said} while ${doing}`);
  }
}

/** Send one request over a fresh connection to the checked addresses and read the whole answer. */
function send(
  checked: WebhookTarget,
  options: { method: string; headers: Record<string, string>; body: string | undefined; signal: AbortSignal },
): Promise<{ status: number; text: string; retryAfter: string | null }> {
  const client = checked.url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      checked.url,
      { method: options.method, headers: options.headers, agent: false, lookup: pinnedLookup(checked.addresses), signal: options.signal },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const retryAfter = response.headers["retry-after"];
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8"), retryAfter: retryAfter ?? null });
        });
      },
    );
    request.on("error", reject);
    request.end(options.body);
  });
}

/** The site's own words about an error (WordPress's `message`, Ghost's `errors[0].message`), briefly. */
function siteMessage(json: unknown): string {
  const body = json as { message?: unknown; errors?: { message?: unknown }[] } | undefined;
  const message = body?.message ?? body?.errors?.[0]?.message;
  return typeof message === "string" && message ? `: ${message.replace(/<[^>]*>/g, "").slice(0, 200)}` : "";
}

/** Seconds a Retry-After asks for (seconds or an HTTP date); 1 when absent or unreadable. */
function retryAfterSeconds(header: string | null): number {
  if (!header) return 1;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? 1 : Math.max(0, (at - Date.now()) / 1000);
}
