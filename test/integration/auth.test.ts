import { createHash } from "node:crypto";
import { readFile, stat, writeFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, createKeyWithSecret, keysCli, revokeKey, runInkpress, tempKeysFile } from "../helpers/cli.js";
import { header, problemViolations, rawHttp, rawRequest, requestLogLines, waitFor } from "../helpers/http.js";
import { API_KEY, startServer, testModel, type TestServer } from "../helpers/server.js";

// API keys over real HTTP against the real CLI: every way of presenting a bad key gets the
// same 401, keys created and revoked with `inkpress keys` take effect while the server runs,
// and the key never shows up anywhere it is stored or logged.

/** A body that is a 422 once the key is accepted: proves authentication without generating. */
const CHEAP = JSON.stringify({ topic: "x", length: 50 });
const WWW_AUTHENTICATE = 'ApiKey header="x-api-key"';

/** What a test compares between answers. */
interface Answer {
  status: number;
  contentType: string | null | undefined;
  wwwAuthenticate: string | null | undefined;
  rateLimit: string | null | undefined;
  body: string;
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("API keys", () => {
  let server: TestServer;
  let model: string;
  let keysFile: string;
  let usageFile: string;
  let alphaKey: string;
  let betaKey = "";
  let betaSecret = "";
  /** The 401 body every refused key must get, byte for byte. */
  let reference: string;
  let betaUsedAt = 0;
  /** The id `keys create` gave beta: its usage is recorded under it. */
  const betaId = async (): Promise<string> =>
    JSON.parse(await readFile(keysFile, "utf8")).keys.find((k: { name: string; revoked?: string }) => k.name === "beta" && !k.revoked).id;

  /** POST the cheap body with these headers (fetch). */
  async function probe(headers: Record<string, string>, pathAndQuery = "/api/v1/generate"): Promise<Answer> {
    const response = await fetch(`${server.url}${pathAndQuery}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: CHEAP,
    });
    return {
      status: response.status,
      contentType: response.headers.get("content-type"),
      wwwAuthenticate: response.headers.get("www-authenticate"),
      rateLimit: response.headers.get("ratelimit"),
      body: await response.text(),
    };
  }

  /** POST the cheap body with these header lines written as they are on a raw socket. */
  async function rawProbe(lines: [string, string | Buffer][], url = server.url): Promise<Answer> {
    const response = await rawRequest(
      url,
      rawHttp("POST /api/v1/generate HTTP/1.1", [["host", "localhost"], ["content-type", "application/json"], ...lines], CHEAP),
    );
    expect(response.ending, `connection ended by ${response.error}`).toBe("end");
    return {
      status: response.status,
      contentType: header(response, "content-type") ?? null,
      wwwAuthenticate: header(response, "www-authenticate") ?? null,
      rateLimit: header(response, "ratelimit") ?? null,
      body: response.body,
    };
  }

  function expectSame401(answer: Answer, label: string): void {
    expect(answer.status, `${label}: ${answer.body}`).toBe(401);
    expect(answer.contentType, label).toBe("application/problem+json");
    expect(answer.wwwAuthenticate, label).toBe(WWW_AUTHENTICATE);
    expect(answer.rateLimit, `${label}: a refused key has no limits to announce`).toBeNull();
    expect(answer.body, label).toBe(reference);
  }

  function expectAccepted(answer: Answer, label: string): void {
    expect(answer.status, `${label}: ${answer.body}`).toBe(422);
  }

  beforeAll(async () => {
    keysFile = await tempKeysFile();
    usageFile = keysFile.replace(/\.json$/, ".usage.json");
    [alphaKey, model] = await Promise.all([createKey(keysFile, "alpha"), testModel("plain")]);
    // Hundreds of refused keys from one address: the guessing throttle (auth-throttle.test.ts) is raised out of the way.
    server = await startServer(model, { INKPRESS_KEYS_FILE: keysFile }, { args: ["--auth-failures", "100000"] });
    const missing = await probe({});
    reference = missing.body;
    expect(missing.status).toBe(401);
    expect(problemViolations(401, missing.contentType, reference)).toEqual([]);
    expect(JSON.parse(reference)).toEqual({
      type: "/docs#unauthorized",
      title: "Unauthorized",
      status: 401,
      detail: expect.any(String),
      instance: "/api/v1/generate",
    });
  });
  afterAll(() => server?.stop());

  it("answers a missing, empty, wrong, malformed, non-ASCII, whitespace-containing or doubled key with one and the same 401", async () => {
    const swapLast = (key: string) => `${key.slice(0, -1)}${key.endsWith("A") ? "B" : "A"}`;
    const viaFetch: [string, Record<string, string>][] = [
      ["missing", {}],
      ["empty", { "x-api-key": "" }],
      ["wrong", { "x-api-key": "wrong-key" }],
      ["one character changed", { "x-api-key": swapLast(alphaKey) }],
      ["truncated", { "x-api-key": alphaKey.slice(0, -1) }],
      ["one character longer", { "x-api-key": `${alphaKey}x` }],
      ["upper-cased", { "x-api-key": alphaKey.toUpperCase() }],
      ["the env key, truncated", { "x-api-key": API_KEY.slice(1) }],
      ["the stored digest instead of the key", { "x-api-key": sha256(alphaKey) }],
      ["the bare prefix", { "x-api-key": "ink_" }],
      ["ink_ and punctuation", { "x-api-key": "ink_!!$$%%^^&&**(())" }],
      ["ink_ and 4000 characters", { "x-api-key": `ink_${"A".repeat(4000)}` }],
      ["a space inside", { "x-api-key": `${alphaKey.slice(0, 12)} ${alphaKey.slice(12)}` }],
      ["a tab inside", { "x-api-key": `${alphaKey.slice(0, 12)}\t${alphaKey.slice(12)}` }],
      ["a latin-1 character appended", { "x-api-key": `${alphaKey}é` }],
      ["two keys joined by a comma", { "x-api-key": `${alphaKey},${API_KEY}` }],
    ];
    for (const [label, headers] of viaFetch) expectSame401(await probe(headers), label);

    const utf8 = (text: string) => Buffer.from(text, "utf8");
    const viaSocket: [string, [string, string | Buffer][]][] = [
      ["non-ASCII (Cyrillic)", [["x-api-key", utf8("ink_ключ")]]],
      ["non-ASCII (emoji)", [["x-api-key", utf8("ink_🔑🔑🔑")]]],
      ["a homoglyph inside", [["x-api-key", utf8(`${alphaKey.slice(0, 6)}а${alphaKey.slice(7)}`)]]],
      ["the key plus UTF-8 é", [["x-api-key", utf8(`${alphaKey}é`)]]],
      [
        "doubled, the same key twice",
        [
          ["x-api-key", alphaKey],
          ["x-api-key", alphaKey],
        ],
      ],
      [
        "doubled, two valid keys",
        [
          ["x-api-key", alphaKey],
          ["x-api-key", API_KEY],
        ],
      ],
      [
        "doubled, valid then empty",
        [
          ["x-api-key", alphaKey],
          ["x-api-key", ""],
        ],
      ],
      [
        "doubled, empty then valid",
        [
          ["x-api-key", ""],
          ["x-api-key", alphaKey],
        ],
      ],
      [
        "doubled, differently cased names",
        [
          ["X-API-KEY", API_KEY],
          ["x-api-key", API_KEY],
        ],
      ],
    ];
    for (const [label, lines] of viaSocket) expectSame401(await rawProbe(lines), label);

    // The same keys are accepted when presented properly.
    expectAccepted(await probe({ "x-api-key": alphaKey }), "alpha");
    expectAccepted(await rawProbe([["X-Api-Key", API_KEY]]), "the env key, name in another case");
  });

  it("strips spaces and tabs around the key before the server sees it (RFC 9110 OWS), and refuses any other padding", async () => {
    // What a Node HTTP server is handed for a padded header line: the parser drops the OWS.
    const seen: string[] = [];
    const echo = http.createServer((req, res) => {
      seen.push(String(req.headers["x-api-key"]));
      res.end();
    });
    await new Promise<void>((resolve) => echo.listen(0, "127.0.0.1", resolve));
    const echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
    try {
      for (const pad of ["   ", "\t", " \t ", "\t\t  "]) {
        const line: [string, string] = ["x-api-key", `${pad}${alphaKey}${pad}`];
        await rawProbe([line], echoUrl);
        expect(seen.pop(), `padding ${JSON.stringify(pad)} as a Node server receives it`).toBe(alphaKey);
        // So the padded key is the key: inkpress cannot tell them apart, and accepts it.
        expectAccepted(await rawProbe([line]), `padded with ${JSON.stringify(pad)}`);
        expectAccepted(await rawProbe([["x-api-key", `${pad}${API_KEY}`]]), `env key led by ${JSON.stringify(pad)}`);
      }
    } finally {
      echo.close();
    }
    // Other white space is part of the value, so the key does not match.
    for (const pad of ["\u00a0", "\u3000", "\u2003"]) {
      expectSame401(
        await rawProbe([["x-api-key", Buffer.from(`${pad}${alphaKey}${pad}`, "utf8")]]),
        `padded with U+${pad.codePointAt(0)!.toString(16)}`,
      );
    }
    // Control characters are not allowed in a header value at all: the HTTP parser refuses the request (400), never authenticated.
    for (const pad of ["\v", "\f"]) {
      const answer = await rawProbe([["x-api-key", `${pad}${alphaKey}${pad}`]]);
      expect(answer.status, `padded with ${JSON.stringify(pad)}`).toBe(400);
      expect(problemViolations(400, answer.contentType, answer.body)).toEqual([]);
    }
  });

  it("does not read a key from the query string", async () => {
    for (const query of [
      `?x-api-key=${alphaKey}`,
      `?api_key=${alphaKey}`,
      `?x-api-key=${API_KEY}`,
      `?api_key=${API_KEY}`,
      `?apikey=${alphaKey}&key=${alphaKey}&token=${alphaKey}`,
    ]) {
      expectSame401(await probe({}, `/api/v1/generate${query}`), query);
    }
  });

  it("serves a stored key, and stops accepting it within seconds of `keys revoke` while the server runs", async () => {
    const response = await server.generate(
      { topic: "Tea gardens", length: 100 },
      { "x-api-key": alphaKey, "x-request-id": "auth-alpha-1" },
    );
    expect(response.status).toBe(200);
    await response.json();
    const line = await waitFor(
      () => requestLogLines(server.output()).find((l) => l.requestId === "auth-alpha-1"),
      "the request's log line",
    );
    expect(line).toMatchObject({ key: "alpha", status: 200 });

    await revokeKey(keysFile, "alpha");
    const revokedAt = performance.now();
    await waitFor(
      async () => ((await probe({ "x-api-key": alphaKey })).status === 401 ? true : undefined),
      "the revoked key refused",
      5_000,
      100,
    );
    console.log(`revoked key refused ${Math.round(performance.now() - revokedAt)} ms after \`keys revoke\` returned`);
    expectSame401(await probe({ "x-api-key": alphaKey }), "revoked");
    expectAccepted(await probe({ "x-api-key": API_KEY }), "the env key after the reload");
  });

  it("accepts a key created with the CLI while the server runs, without a restart", async () => {
    ({ key: betaKey, secret: betaSecret } = await createKeyWithSecret(keysFile, "beta", [
      "--rate",
      "30/min",
      "--concurrency",
      "3",
      "--daily-words",
      "5000",
    ]));
    const createdAt = performance.now();
    const answer = await waitFor(
      async () => {
        const a = await probe({ "x-api-key": betaKey });
        return a.status === 401 ? undefined : a;
      },
      "the new key accepted",
      3_000,
      50,
    );
    console.log(`new key accepted ${Math.round(performance.now() - createdAt)} ms after \`keys create\` returned`);
    betaUsedAt = Date.now();
    expectAccepted(answer, "beta");
    const response = await fetch(`${server.url}/api/v1/nothing`, { headers: { "x-api-key": betaKey } });
    expect(response.headers.get("ratelimit-policy")).toBe(
      '"requests";q=30;w=60, "concurrency";q=3;qu="concurrent-requests", "daily-words";q=5000;w=86400;qu="words"',
    );
  });

  it("lists name, created, last used and limits with `keys list`, and never the key", async () => {
    // The server saves usage at most once a second: within ~2 s of the request it is on disk.
    const usage = await waitFor(
      async () => {
        const text = await readFile(usageFile, "utf8").catch(() => "");
        const lastUsed: string | undefined = text ? JSON.parse(text)[await betaId()]?.lastUsed : undefined;
        return lastUsed ? { text, lastUsed } : undefined;
      },
      "beta's last use saved to the usage file",
      2_500,
      100,
    );
    expect(Math.abs(Date.parse(usage.lastUsed) - betaUsedAt)).toBeLessThan(5_000);

    const list = await keysCli(keysFile, ["list"]);
    expect(list.code, list.stderr).toBe(0);
    const rows = list.stdout
      .trimEnd()
      .split("\n")
      .map((line) => line.split(/ {2,}/));
    expect(rows[0]).toEqual(["NAME", "ID", "KEY", "CREATED (UTC)", "LAST USED (UTC)", "RATE", "CONCURRENCY", "DAILY WORDS", "STYLE"]);
    expect(
      rows.slice(1).map((r) => r[0]),
      "the revoked key is gone",
    ).toEqual(["beta"]);
    const stored = JSON.parse(await readFile(keysFile, "utf8")).keys.find(
      (k: { name: string; revoked?: string }) => k.name === "beta" && !k.revoked,
    );
    const utc = (iso: string) => iso.slice(0, 19).replace("T", " ");
    // Read again: a save may have landed since the first read.
    const lastUsed: string = JSON.parse(await readFile(usageFile, "utf8"))[stored.id].lastUsed;
    expect(rows[1]).toEqual(["beta", stored.id, `${betaKey.slice(0, 8)}…`, utc(stored.created), utc(lastUsed), "30/60s", "3", "5000", "-"]);

    const places = {
      "keys list output": list.stdout + list.stderr,
      "the key file": await readFile(keysFile, "utf8"),
      "the usage file": usage.text,
      "the server output": server.output(),
    };
    for (const [where, text] of Object.entries(places)) {
      for (const [name, key] of [
        ["alpha", alphaKey],
        ["beta", betaKey],
        ["env", API_KEY],
      ] as const) {
        expect(text.includes(key), `${name}'s key appears in ${where}`).toBe(false);
        // Beyond the 4 characters the list shows, no part of a stored key's secret either.
        if (name !== "env") expect(text.includes(key.slice(8)), `${name}'s secret part appears in ${where}`).toBe(false);
      }
      if (where !== "the key file") expect(text.includes(betaSecret), `beta's webhook secret appears in ${where}`).toBe(false);
    }
  });

  it("keeps the key file private (0600) with only digests of keys in it, and the webhook secret the server signs with", async () => {
    expect((await stat(keysFile)).mode & 0o777).toBe(0o600);
    expect((await stat(usageFile)).mode & 0o777).toBe(0o600);
    const file = JSON.parse(await readFile(keysFile, "utf8"));
    expect(file.version).toBe(2);
    // The revoked alpha stays, marked, so its secret can still sign its jobs' cancellations.
    expect(file.keys.map((k: { name: string; revoked?: string }) => [k.name, Boolean(k.revoked)])).toEqual([
      ["alpha", true],
      ["beta", false],
    ]);
    const record = file.keys[1];
    expect(Object.keys(record).sort()).toEqual(["created", "digest", "id", "limits", "name", "prefix", "webhookSecret"]);
    expect(record).toEqual({
      name: "beta",
      id: expect.stringMatching(/^key_[0-9a-f]{24}$/),
      digest: sha256(betaKey),
      prefix: betaKey.slice(0, 8),
      created: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
      limits: { rate: { requests: 30, windowS: 60 }, concurrency: 3, dailyWords: 5000 },
      webhookSecret: betaSecret,
    });
  });

  it("keeps the previous keys in force, and logs an error, when the key file is corrupted while the server runs", async () => {
    const errors = () =>
      server
        .output()
        .split("\n")
        .filter((l) => /key file not reloaded/.test(l));
    const before = errors().length;
    for (const [i, garbage] of ["{ this is not JSON", JSON.stringify({ version: 1, keys: [{ name: "x" }] })].entries()) {
      await writeFile(keysFile, garbage);
      await waitFor(() => (errors().length > before + i ? true : undefined), `an error logged for corrupt content #${i + 1}`, 3_000, 50);
      expectAccepted(await probe({ "x-api-key": betaKey }), `beta after corruption #${i + 1}`);
      expectAccepted(await probe({ "x-api-key": API_KEY }), `env key after corruption #${i + 1}`);
      expectSame401(await probe({ "x-api-key": alphaKey }), `revoked alpha after corruption #${i + 1}`);
      await sleep(600); // let the watcher see the next write as a change of its own
    }
    for (const line of errors()) {
      expect(line).toContain(keysFile);
      expect(line).not.toContain(betaKey);
    }
    expect(server.process.exitCode).toBeNull();
  });

  it("refuses to start on a corrupt key file, with one line on stderr and exit code 1", async () => {
    const garbage = await tempKeysFile();
    const wrongShape = await tempKeysFile();
    await writeFile(garbage, "\u0000\u00ffnot json at all");
    await writeFile(wrongShape, JSON.stringify({ version: 1, keys: [{ name: "k", digest: "not-hex" }] }));
    const runs = await Promise.all(
      [garbage, wrongShape].map((file) =>
        runInkpress(["serve", "--model", model, "--port", "0"], { INKPRESS_KEYS_FILE: file, INKPRESS_API_KEYS: API_KEY }, 60_000),
      ),
    );
    for (const [i, run] of runs.entries()) {
      const file = [garbage, wrongShape][i]!;
      expect(run.killed, `the server started on ${path.basename(path.dirname(file))}: ${run.stdout}`).toBe(false);
      expect(run.code).toBe(1);
      expect(run.stdout).not.toMatch(/listening/);
      const lines = run.stderr.trimEnd().split("\n");
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^inkpress: .*key file/);
      expect(lines[0]).toContain(file);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
