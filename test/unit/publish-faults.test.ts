// How a publishing target's faults reach the user: a site answering 429/503, one that stays
// silent, a TLS failure, an unknown target, a targets file with a missing secret. The site here
// is a scripted HTTP server: WordPress cannot be made to answer these on demand.
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { createServer as createHttps } from "node:https";
import { createServer, type RequestListener, type Server } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { TargetCaller } from "../../src/publish/call.js";
import { PublishError } from "../../src/publish/errors.js";
import { LocalPublicationRecords } from "../../src/keys/post-records.js";
import { Publishing } from "../../src/publish/publisher.js";
import { readTargets, type PublishTarget } from "../../src/publish/targets.js";

const run = promisify(execFile);
const SECRET = "sEcReT-app-password";
const ARTICLE = { title: "T", metaDescription: "D", slug: "t", keywords: ["t"], language: "en", markdown: "# T\n\nText.\n" };
/** Where these publications would record their posts (none is ever made). */
const RECORDS = new LocalPublicationRecords(mkdtempSync(path.join(tmpdir(), "inkpress-records-")));
let server: Server | undefined;

afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** A site answering each request with the next of `answers` (the last one repeated), counting them. */
async function site(
  answers: { status: number; headers?: Record<string, string>; silent?: boolean }[],
  make: (handler: RequestListener) => Server = (handler) => createServer(handler),
): Promise<{ url: string; calls: () => number }> {
  let calls = 0;
  server = make((_req, res) => {
    const answer = answers[Math.min(calls++, answers.length - 1)]!;
    if (answer.silent) return;
    res
      .writeHead(answer.status, { "content-type": "application/json", ...answer.headers })
      .end(JSON.stringify({ code: "x", message: "busy" }));
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server!.address() as { port: number }).port}`, calls: () => calls };
}

const target = (url: string, extra: Partial<PublishTarget> = {}): PublishTarget => ({
  name: "blog",
  kind: "wordpress",
  url,
  user: "editor",
  secret: SECRET,
  status: "draft",
  createTerms: false,
  allowPrivate: true,
  adopt: false,
  timeoutMs: 10_000,
  ...extra,
});

async function failure(publishing: Publishing): Promise<PublishError> {
  const error = await publishing.publish(ARTICLE, { target: "blog" }, "local").catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PublishError);
  expect((error as Error).message).not.toContain(SECRET);
  return error as PublishError;
}

describe("publishing faults", () => {
  it("a 429 with Retry-After is retried after it, three tries at most, then a 503 with Retry-After", async () => {
    const { url, calls } = await site([{ status: 429, headers: { "retry-after": "0" } }]);
    const error = await failure(new Publishing(new Map([["blog", target(url)]]), RECORDS));
    expect(calls()).toBe(3);
    expect(error.status).toBe(503);
    expect(error.headers["retry-after"]).toBe("1");
    expect(error.message).toMatch(/target "blog" is busy/);
  });

  it("a Retry-After longer than the bound is not waited for", async () => {
    const { url, calls } = await site([{ status: 503, headers: { "retry-after": "3600" } }]);
    const error = await failure(new Publishing(new Map([["blog", target(url)]]), RECORDS));
    expect(calls()).toBe(1);
    expect(error.headers["retry-after"]).toBe("3600");
  });

  it("a site that stays silent is a 504 naming the target", async () => {
    const { url } = await site([{ status: 200, silent: true }]);
    const error = await failure(new Publishing(new Map([["blog", target(url, { timeoutMs: 500 })]]), RECORDS));
    expect(error.status).toBe(504);
    expect(error.message).toMatch(/target "blog" did not answer within 0.5 s/);
  });

  it("a certificate Node does not trust is a TLS failure naming the target", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-tls-"));
    const [key, cert] = [path.join(dir, "key.pem"), path.join(dir, "cert.pem")];
    await run("openssl", [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      key,
      "-out",
      cert,
      "-days",
      "1",
      "-subj",
      "/CN=127.0.0.1",
    ]);
    const options = { key: await readFile(key), cert: await readFile(cert) };
    const { url } = await site([{ status: 200 }], (handler) => createHttps(options, handler));
    const error = await failure(new Publishing(new Map([["blog", target(url.replace("http:", "https:"))]]), RECORDS));
    expect(error.message).toMatch(/target "blog" failed the TLS check \(DEPTH_ZERO_SELF_SIGNED_CERT\)/);
  });

  it("a loopback target the operator did not allow is refused before any call", async () => {
    const { url, calls } = await site([{ status: 200 }]);
    const error = await failure(new Publishing(new Map([["blog", target(url, { allowPrivate: false })]]), RECORDS));
    expect(calls()).toBe(0);
    expect(error.message).toMatch(/loopback/);
  });

  it("each call connects to the addresses the guard checked, never resolving the name again (no DNS rebinding)", async () => {
    const { url, calls } = await site([{ status: 200 }]);
    const port = new URL(url).port;
    // The name resolves only through the guard's resolver: once to loopback (allowed for this host), then to a public address.
    const answers = [[{ address: "127.0.0.1", family: 4 }], [{ address: "93.184.216.34", family: 4 }]];
    let resolved = 0;
    const resolve = async () => answers[Math.min(resolved++, 1)]!;
    const caller = new TargetCaller(target(`http://site.invalid:${port}`), { resolve });
    const first = await caller.call({ method: "GET", path: "/wp-json/", authorization: "Basic x" });
    expect(first.status).toBe(200);
    expect(calls()).toBe(1);
    // The next call checks again: the new answer is a public address, which the connection then uses (and cannot reach here).
    const second = await caller.call({ method: "GET", path: "/wp-json/", authorization: "Basic x" }).catch((error: Error) => error);
    expect(resolved).toBe(2);
    expect(calls()).toBe(1);
    expect(second).toBeInstanceOf(PublishError);
  });

  it("an unknown target is a 422 on publish.target; a key without the target a 403 naming it", () => {
    const publishing = new Publishing(new Map([["blog", target("http://127.0.0.1:1")]]), RECORDS);
    expect(() => publishing.authorise(undefined, "news")).toThrow(/publish.target: no target "news"; the configured targets are "blog"/);
    const key = { id: "key_1", name: "k", limits: { rate: { requests: 1, windowS: 1 }, concurrency: 1 } };
    expect(() => publishing.authorise(key, "blog")).toThrow(
      expect.objectContaining({ status: 403, message: expect.stringMatching(/target "blog"/) }),
    );
    expect(() => publishing.authorise({ ...key, publishTo: ["blog"] }, "blog")).not.toThrow();
  });

  it("a targets file whose secret variable is unset names the target and the variable, never a value", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-targets-"));
    const file = path.join(dir, "targets.json");
    await writeFile(
      file,
      JSON.stringify({
        targets: { blog: { kind: "wordpress", url: "https://example.com", user: "e", credentials: { env: "NO_SUCH_VAR" } } },
      }),
    );
    await expect(readTargets(file, {})).rejects.toThrow(/publish target "blog": its credentials variable NO_SUCH_VAR is not set/);
    const read = await readTargets(file, { NO_SUCH_VAR: SECRET });
    expect(read.get("blog")).toMatchObject({ kind: "wordpress", status: "draft", secret: SECRET });
  });
});
