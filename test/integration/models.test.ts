/**
 * `inkpress models pull|list` and pullModel against a local HTTP server: no hub, no internet.
 * Hugging Face URIs are pointed at the same local server (HF_ENDPOINT), or at a closed port or a
 * silent one to stand for a machine that cannot reach the hub.
 */
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdtemp, mkdir, readFile, readdir, writeFile } from "node:fs/promises";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fills, gguf, writeGguf } from "../../scripts/gguf.js";
import { writeTestModel } from "../../scripts/make-test-model.js";
import {
  ModelPullError,
  ensureModel,
  listModels,
  pullModel,
  removeProgressTrailers,
  type PullProgress,
  type PullStart,
} from "../../src/model/download.js";
import { API_KEY, runCli, startServer, type CliResult } from "../helpers/server.js";

// ---- a small file server: Content-Length, ETag, Accept-Ranges, 206 ranges, and ways to misbehave ----

interface Route {
  body: Buffer;
  type?: string;
  /** "cut": destroy every connection once half the file has been sent; "stall": stop sending at half until released. */
  mode?: "normal" | "cut" | "stall";
}

interface Logged {
  method: string;
  path: string;
  /** The query string, which tells runs against the same path apart. */
  query: string;
  range?: string;
}

class FileServer {
  readonly log: Logged[] = [];
  /** Body bytes sent in answer to Range requests, per path (what the cut and the stall count). */
  private readonly rangedBytes = new Map<string, number>();
  /** Range requests that arrived after the cut. */
  readonly afterCut: Logged[] = [];
  private readonly routes = new Map<string, Route>();
  private readonly sockets = new Map<string, Set<net.Socket>>();
  private readonly cutDone = new Set<string>();
  private readonly server = http.createServer((req, res) => void this.handle(req, res));
  url = "";

  route(urlPath: string, route: Route): void {
    this.routes.set(urlPath, route);
  }

  /** Let a stalled route serve again and drop the connections it held. */
  release(urlPath: string): void {
    const route = this.routes.get(urlPath);
    if (route) route.mode = "normal";
    for (const socket of this.sockets.get(urlPath) ?? []) socket.destroy();
  }

  reset(): void {
    this.log.length = 0;
    this.afterCut.length = 0;
    this.rangedBytes.clear();
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://x");
    const urlPath = url.pathname;
    const range = req.headers.range;
    const entry: Logged = { method: req.method ?? "GET", path: urlPath, query: url.search, ...(range ? { range } : {}) };
    this.log.push(entry);
    if (this.cutDone.has(urlPath) && range) this.afterCut.push(entry);
    // Any file under /<user>/<repo>/resolve/main/ is served like a Hugging Face mirror would.
    const route =
      this.routes.get(urlPath) ?? (/^\/[^/]+\/[^/]+\/resolve\/main\/[^/]+\.gguf$/.test(urlPath) ? this.routes.get("/hub-file") : undefined);
    if (!route) {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    const { body } = route;
    const etag = `"${createHash("sha1").update(body).digest("hex").slice(0, 16)}"`;
    let start = 0;
    let end = body.length - 1;
    const match = range ? /^bytes=(\d*)-(\d*)$/.exec(range) : null;
    if (match) {
      start = match[1] ? Number(match[1]) : Math.max(0, body.length - Number(match[2]));
      end = match[1] && match[2] ? Math.min(Number(match[2]), body.length - 1) : body.length - 1;
      if (start > end || start >= body.length) {
        res.writeHead(416, { "content-range": `bytes */${body.length}` }).end();
        return;
      }
    }
    const headers: http.OutgoingHttpHeaders = {
      "content-type": route.type ?? "application/octet-stream",
      "content-length": end - start + 1,
      "accept-ranges": "bytes",
      etag,
    };
    if (match) headers["content-range"] = `bytes ${start}-${end}/${body.length}`;
    res.writeHead(match ? 206 : 200, headers);
    if (req.method === "HEAD") {
      res.end();
      return;
    }
    const socket = res.socket!;
    const open = this.sockets.get(urlPath) ?? new Set();
    this.sockets.set(urlPath, open);
    if (!open.has(socket)) {
      open.add(socket);
      socket.once("close", () => open.delete(socket));
    }

    for (let offset = start; offset <= end; ) {
      if (socket.destroyed) return;
      const half = body.length / 2;
      const sent = this.rangedBytes.get(urlPath) ?? 0;
      if (match && sent >= half && route.mode === "cut" && !this.cutDone.has(urlPath)) {
        this.cutDone.add(urlPath);
        for (const s of open) s.destroy();
        return;
      }
      if (match && sent >= half && route.mode === "stall") {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      const piece = body.subarray(offset, Math.min(end + 1, offset + 64 * 1024));
      offset += piece.length;
      if (match) this.rangedBytes.set(urlPath, sent + piece.length);
      if (!res.write(piece)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            res.off("drain", done);
            socket.off("close", done);
            resolve();
          };
          res.once("drain", done);
          socket.once("close", done);
        });
      }
    }
    res.end();
  }
}

// ---- fixtures ----

let server: FileServer;
let tiny: Buffer;
let big: Buffer;
let corrupt: Buffer;
let split1: Buffer;
let split2: Buffer;
/** A port nothing listens on, and a server that accepts connections and never answers. */
let closedPort: number;
let silent: net.Server;
let silentPort: number;

/** In CLI runs, Hugging Face URIs go to this local endpoint only; never to the real hub. */
const NO_HUB = "http://hub.invalid/";
const sha256 = (data: Buffer) => createHash("sha256").update(data).digest("hex");
const mb = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

/** How many distinct bytes a set of `bytes=a-b` Range headers asks for. */
function rangeUnion(ranges: string[]): number {
  const spans = ranges
    .map((range) => /^bytes=(\d+)-(\d+)$/.exec(range))
    .map((match) => [Number(match![1]), Number(match![2]) + 1] as const)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = 0;
  for (const [from, to] of spans) {
    if (to > end) total += to - Math.max(from, end);
    end = Math.max(end, to);
  }
  return total;
}

beforeAll(async () => {
  const fixtures = await mkdtemp(path.join(tmpdir(), "inkpress-pull-fixtures-"));
  tiny = await readFile(await writeTestModel({ path: path.join(fixtures, "tiny.gguf"), variant: "plain" }));
  split1 = await readFile(await writeTestModel({ path: path.join(fixtures, "s1.gguf"), variant: "plain", seed: 1 }));
  split2 = await readFile(await writeTestModel({ path: path.join(fixtures, "s2.gguf"), variant: "plain", seed: 2 }));
  // 67 MB of random weights: 13 of the downloader's 5 MB chunks, so that some are complete
  // whenever a transfer is cut half-way and resuming is visible.
  await writeGguf(path.join(fixtures, "big.gguf"), {
    metadata: [
      ["general.architecture", gguf.string("llama")],
      ["general.name", gguf.string("inkpress-pull-test")],
      ["general.alignment", gguf.uint32(32)],
    ],
    tensors: [{ name: "weights", shape: [4096, 4096], type: "F32", fill: fills.uniform(1) }],
    seed: 7,
  });
  big = await readFile(path.join(fixtures, "big.gguf"));
  corrupt = Buffer.from(tiny);
  for (let i = tiny.length / 2; i < tiny.length / 2 + 64; i++) corrupt[i] = corrupt[i]! ^ 0xff;

  server = new FileServer();
  server.route("/files/tiny.gguf", { body: tiny });
  server.route("/files/big.gguf", { body: big });
  server.route("/cut/big.gguf", { body: big, mode: "cut" });
  server.route("/stall/big.gguf", { body: big, mode: "stall" });
  server.route("/files/portal.gguf", {
    body: Buffer.from("<!DOCTYPE html><html><body>Sign in to the Wi-Fi</body></html>"),
    type: "text/html",
  });
  server.route("/files/corrupt.gguf", { body: corrupt });
  server.route("/split/model-00001-of-00002.gguf", { body: split1 });
  server.route("/split/model-00002-of-00002.gguf", { body: split2 });
  server.route("/hub-file", { body: tiny });
  server.route("/v2/someone/Some-Model-GGUF/manifests/Q8_0", {
    body: Buffer.from(JSON.stringify({ ggufFile: { rfilename: "some-model-q8_0.gguf" } })),
    type: "application/json",
  });
  await server.listen();

  const closed = net.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  closedPort = (closed.address() as net.AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  silent = net.createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  silentPort = (silent.address() as net.AddressInfo).port;
});

afterAll(async () => {
  await server?.close();
  silent?.close();
});

beforeEach(() => server.reset());

/** A fresh working directory with an empty models/ folder. */
async function workdir(): Promise<{ cwd: string; models: string }> {
  const cwd = await mkdtemp(path.join(tmpdir(), "inkpress-pull-"));
  const models = path.join(cwd, "models");
  await mkdir(models);
  return { cwd, models };
}

/** Run `inkpress models …` in `cwd`, with Hugging Face pointed at `hub` (never the real one). */
function models(args: string[], cwd: string, hub = NO_HUB): Promise<CliResult> {
  return runCli(["models", ...args], { HF_ENDPOINT: hub, MODEL_ENDPOINT: undefined, HF_TOKEN: undefined, CI: undefined }, cwd);
}

function lines(text: string): string[] {
  return text.split("\n").filter((line) => line.trim());
}

/** A failure is exactly one line on stderr (after any progress lines), and exit code 1. */
function expectFailure(result: CliResult, pattern: RegExp): string {
  expect(result.code, result.stderr).toBe(1);
  const errors = lines(result.stderr).filter((line) => !line.startsWith("downloading "));
  expect(errors).toHaveLength(1);
  expect(errors[0]).toMatch(/^inkpress: /);
  expect(errors[0]).toMatch(pattern);
  expect(errors[0]).not.toMatch(/\s+at\s+\S+\s+\(|node_modules/);
  return errors[0]!;
}

// ---- tests ----

describe("models pull from a URL", () => {
  it("downloads through the CLI with progress on stderr, prints path and size, and models list shows it", async () => {
    const { cwd, models: dir } = await workdir();
    const result = await models(["pull", `${server.url}/files/tiny.gguf`], cwd);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/downloading tiny\.gguf \(\d+\.\d MB\)/);
    expect(result.stderr).toMatch(/downloading tiny\.gguf: 100% /);
    expect(lines(result.stdout).at(-1)).toBe(`pulled ${path.join("models", "tiny.gguf")} (${mb(tiny.length)})`);
    expect(sha256(await readFile(path.join(dir, "tiny.gguf")))).toBe(sha256(tiny));
    expect(await readdir(dir)).toEqual(["tiny.gguf"]);

    const list = await models(["list"], cwd);
    expect(list.code).toBe(0);
    expect(lines(list.stdout)).toHaveLength(1);
    expect(lines(list.stdout)[0]).toMatch(new RegExp(`^tiny\\.gguf\\s+${mb(tiny.length).replace(".", "\\.")}$`));

    // A second pull finds the file and touches no network.
    server.reset();
    const again = await models(["pull", `${server.url}/files/tiny.gguf`], cwd);
    expect(again.code).toBe(0);
    expect(lines(again.stdout).at(-1)).toMatch(/^already present: models\/tiny\.gguf/);
    expect(server.log).toHaveLength(0);
  });

  it("reports progress to onProgress with growing byte counts up to the total", async () => {
    const { models: dir } = await workdir();
    const seen: PullProgress[] = [];
    let started: PullStart | undefined;
    const pulled = await pullModel({
      source: `${server.url}/files/big.gguf`,
      dir,
      hfEndpoint: NO_HUB,
      onStart: (start) => (started = start),
      onProgress: (progress) => seen.push(progress),
    });
    expect(started).toMatchObject({ totalBytes: big.length, resumedBytes: 0, files: [path.join(dir, "big.gguf")] });
    expect(seen.length).toBeGreaterThan(5);
    const counts = seen.map((p) => p.downloadedBytes);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThanOrEqual(counts[i - 1]!);
    expect(new Set(counts).size).toBeGreaterThan(5);
    expect(counts.at(-1)).toBe(big.length);
    expect(seen.every((p) => p.totalBytes === big.length)).toBe(true);
    expect(pulled).toMatchObject({ path: path.join(dir, "big.gguf"), bytes: big.length, alreadyPresent: false });
    expect(sha256(await readFile(pulled.path))).toBe(sha256(big));
  });

  it("lists an empty folder with a hint how to pull", async () => {
    const { cwd } = await workdir();
    const result = await models(["list"], cwd);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toMatch(/no models in models\/: run "inkpress models pull" to download qwen2\.5-1\.5b-instruct-q4_k_m\.gguf/);
  });

  it("downloads every part of a split model", async () => {
    const { models: dir } = await workdir();
    const pulled = await pullModel({ source: `${server.url}/split/model-00001-of-00002.gguf`, dir, hfEndpoint: NO_HUB });
    expect(pulled.files).toEqual([path.join(dir, "model-00001-of-00002.gguf"), path.join(dir, "model-00002-of-00002.gguf")]);
    expect(pulled.bytes).toBe(split1.length + split2.length);
    expect(sha256(await readFile(pulled.files[1]!))).toBe(sha256(split2));
    expect(await listModels(dir)).toEqual([
      { file: "model-00001-of-00002.gguf", bytes: split1.length },
      { file: "model-00002-of-00002.gguf", bytes: split2.length },
    ]);
  });
});

describe("resuming", () => {
  it("a connection cut half-way is resumed with Range requests, not restarted, and the file is byte-identical", async () => {
    const { cwd, models: dir } = await workdir();
    const result = await models(["pull", `${server.url}/cut/big.gguf`], cwd);
    expect(result.code, result.stderr).toBe(0);
    expect(sha256(await readFile(path.join(dir, "big.gguf")))).toBe(sha256(big));
    // The server cut every open connection once; the downloader came back with Range requests
    // for what it did not have yet, not for the whole file.
    expect(server.afterCut.length).toBeGreaterThan(0);
    expect(server.afterCut.every((r) => /^bytes=\d+-\d+$/.test(r.range!))).toBe(true);
    expect(rangeUnion(server.afterCut.map((r) => r.range!))).toBeLessThan(big.length);
  });

  it("a stalled download keeps its partial file, and the next pull resumes where it stopped", async () => {
    const { cwd, models: dir } = await workdir();
    // The query string only tells the two runs apart in the server log; the file name is the same.
    const url = `${server.url}/stall/big.gguf`;
    const error = await pullModel({ source: `${url}?run=1`, dir, hfEndpoint: NO_HUB, stallTimeoutMs: 1_000 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelPullError);
    expect((error as ModelPullError).code).toBe("stalled");
    expect((error as ModelPullError).message).toMatch(
      /stalled: no data for 1 s; the partial file big\.gguf\.ipull is kept, run the same pull again to resume/,
    );
    expect(await readdir(dir)).toEqual(["big.gguf.ipull"]);

    server.release("/stall/big.gguf");
    server.reset();
    const result = await models(["pull", `${url}?run=2`], cwd);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(
      new RegExp(`downloading big\\.gguf \\(${mb(big.length)}; resuming at [1-9]\\d?%, \\d+\\.\\d MB already here\\)`),
    );
    expect(sha256(await readFile(path.join(dir, "big.gguf")))).toBe(sha256(big));
    expect(await readdir(dir)).toEqual(["big.gguf"]);
    // The second run asked only for the chunks the first had not saved.
    const second = server.log.filter((r) => r.query === "?run=2" && r.range).map((r) => r.range!);
    expect(second.length).toBeGreaterThan(0);
    expect(rangeUnion(second)).toBeLessThan(big.length);
  });

  it("cancelling keeps the partial file and the next pull resumes", async () => {
    const { models: dir } = await workdir();
    const source = `${server.url}/files/big.gguf`;
    const controller = new AbortController();
    const error = await pullModel({
      source,
      dir,
      hfEndpoint: NO_HUB,
      signal: controller.signal,
      onProgress: ({ downloadedBytes, totalBytes }) => downloadedBytes > totalBytes * 0.7 && controller.abort(),
    }).catch((e: unknown) => e);
    expect((error as ModelPullError).code).toBe("cancelled");
    expect(await readdir(dir)).toEqual(["big.gguf.ipull"]);

    let started: PullStart | undefined;
    const pulled = await pullModel({ source, dir, hfEndpoint: NO_HUB, onStart: (s) => (started = s) });
    expect(started!.resumedBytes).toBeGreaterThan(0);
    expect(sha256(await readFile(pulled.path))).toBe(sha256(big));
  });
});

describe("verification", () => {
  it("rejects a file that is not GGUF (a captive portal page) and leaves nothing behind", async () => {
    const { cwd, models: dir } = await workdir();
    const result = await models(["pull", `${server.url}/files/portal.gguf`], cwd);
    expectFailure(result, /not a GGUF model file \(it starts with "<!DOCTYPE html><"\): portal\.gguf .*deleted/);
    expect(await readdir(dir)).toEqual([]);
  });

  it("rejects a SHA-256 mismatch through the CLI and deletes the file", async () => {
    const { cwd, models: dir } = await workdir();
    const result = await models(["pull", `${server.url}/files/corrupt.gguf`, "--sha256", sha256(tiny)], cwd);
    expectFailure(result, new RegExp(`SHA-256 mismatch for corrupt\\.gguf: expected ${sha256(tiny)}, got ${sha256(corrupt)}`));
    expect(await readdir(dir)).toEqual([]);
  });

  it("pullModel checks an explicit sha256: mismatch fails with code checksum, a match passes", async () => {
    const { models: dir } = await workdir();
    const error = await pullModel({ source: `${server.url}/files/corrupt.gguf`, dir, sha256: sha256(tiny), hfEndpoint: NO_HUB }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelPullError);
    expect((error as ModelPullError).code).toBe("checksum");
    expect(existsSync(path.join(dir, "corrupt.gguf"))).toBe(false);
    const pulled = await pullModel({
      source: `${server.url}/files/tiny.gguf`,
      dir,
      sha256: sha256(tiny).toUpperCase(),
      hfEndpoint: NO_HUB,
    });
    expect(sha256(await readFile(pulled.path))).toBe(sha256(tiny));
  });

  it("cuts off a progress record the downloader left at the end of a finished file, and nothing else", async () => {
    const { models: dir } = await workdir();
    const record = JSON.stringify({ part: 0, chunks: [2], chunkSize: 5242880, parallelStreams: 3 });
    const withRecord = path.join(dir, "a.gguf");
    const withJunk = path.join(dir, "b.gguf");
    await writeFile(withRecord, Buffer.concat([tiny, Buffer.from(record)]));
    await writeFile(withJunk, Buffer.concat([tiny, Buffer.from("not a record")]));
    await removeProgressTrailers([withRecord, withJunk], [tiny.length, tiny.length], 0);
    expect(sha256(await readFile(withRecord))).toBe(sha256(tiny));
    expect((await readFile(withJunk)).length).toBe(tiny.length + 12);
  });

  it("an existing file that is not a model is reported, not overwritten", async () => {
    const { cwd, models: dir } = await workdir();
    await writeFile(path.join(dir, "tiny.gguf"), "half a file");
    const result = await models(["pull", `${server.url}/files/tiny.gguf`], cwd);
    expectFailure(result, /not a GGUF model file .*already has this file but it is not a valid model: delete it and pull again/);
    expect(await readFile(path.join(dir, "tiny.gguf"), "utf8")).toBe("half a file");
  });
});

describe("bad sources and unreachable servers fail fast with one line", () => {
  it("a 404", async () => {
    const { cwd } = await workdir();
    expectFailure(await models(["pull", `${server.url}/files/missing.gguf`], cwd), /missing\.gguf: the server answered 404 Not Found/);
  });

  it("an unknown preset", async () => {
    const { cwd } = await workdir();
    expectFailure(await models(["pull", "medium"], cwd), /unknown model "medium": use a preset \(default, small, large\), an hf: URI/);
  });

  it("the default preset with the hub refusing connections (offline)", async () => {
    const { cwd, models: dir } = await workdir();
    const started = Date.now();
    const result = await models(["pull"], cwd, `http://127.0.0.1:${closedPort}/`);
    expect(Date.now() - started).toBeLessThan(15_000);
    expectFailure(
      result,
      new RegExp(
        `cannot reach 127\\.0\\.0\\.1:${closedPort}: .*ECONNREFUSED.*qwen2\\.5-1\\.5b-instruct-q4_k_m\\.gguf.*copy a \\.gguf file into the models folder`,
      ),
    );
    expect(await readdir(dir)).toEqual([]);
  }, 30_000);

  it("an hf: URI with a hub that accepts connections and never answers (firewalled): bounded by --timeout", async () => {
    const { cwd } = await workdir();
    const started = Date.now();
    const result = await models(
      ["pull", "hf:Qwen/Qwen2.5-1.5B-Instruct-GGUF:Q4_K_M", "--timeout", "2"],
      cwd,
      `http://127.0.0.1:${silentPort}/`,
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    expectFailure(
      result,
      new RegExp(
        `cannot reach 127\\.0\\.0\\.1:${silentPort}: no answer within 2 s \\(downloading hf:Qwen/Qwen2\\.5-1\\.5B-Instruct-GGUF:Q4_K_M\\)`,
      ),
    );
  }, 30_000);

  it("a URL on a closed port does not sit in the downloader's retry loop", async () => {
    const { models: dir } = await workdir();
    const started = Date.now();
    const error = await pullModel({ source: `http://127.0.0.1:${closedPort}/x.gguf`, dir, hfEndpoint: NO_HUB }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((error as ModelPullError).code).toBe("unreachable");
  });
});

describe("presets and hf: URIs through a Hugging Face mirror", () => {
  it("models pull small resolves the preset's hf: URI and saves it under the repository's file name", async () => {
    const { cwd, models: dir } = await workdir();
    const result = await models(["pull", "small"], cwd, `${server.url}/`);
    expect(result.code, result.stderr).toBe(0);
    expect(lines(result.stdout).at(-1)).toBe(`pulled ${path.join("models", "qwen2.5-0.5b-instruct-q8_0.gguf")} (${mb(tiny.length)})`);
    expect(server.log.some((r) => r.path === "/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q8_0.gguf")).toBe(true);
    expect(sha256(await readFile(path.join(dir, "qwen2.5-0.5b-instruct-q8_0.gguf")))).toBe(sha256(tiny));
  });

  it("an hf:user/repo:quant URI is looked up through the hub's manifest API", async () => {
    const { models: dir } = await workdir();
    const pulled = await pullModel({ source: "hf:someone/Some-Model-GGUF:Q8_0", dir, hfEndpoint: `${server.url}/` });
    expect(server.log.some((r) => r.path === "/v2/someone/Some-Model-GGUF/manifests/Q8_0")).toBe(true);
    expect(server.log.some((r) => r.path === "/someone/Some-Model-GGUF/resolve/main/some-model-q8_0.gguf")).toBe(true);
    expect(path.basename(pulled.path)).toMatch(/\.gguf$/);
    expect(sha256(await readFile(pulled.path))).toBe(sha256(tiny));
  });
});

describe("inkpress serve with no model configured and an empty models/", () => {
  it("pulls the default preset first, showing progress, then serves", async () => {
    const { cwd, models: dir } = await workdir();
    const started = await startServer(
      undefined,
      { HF_ENDPOINT: `${server.url}/`, MODEL_ENDPOINT: undefined, HF_TOKEN: undefined },
      { cwd },
    );
    try {
      expect(started.output()).toMatch(/qwen2\.5-1\.5b-instruct-q4_k_m\.gguf/);
      expect(sha256(await readFile(path.join(dir, "qwen2.5-1.5b-instruct-q4_k_m.gguf")))).toBe(sha256(tiny));
      expect((await fetch(`${started.url}/healthz`)).status).toBe(200);
    } finally {
      await started.stop();
    }
  });

  it("offline: fails with one line naming the pull command and the air-gapped way", async () => {
    const { cwd } = await workdir();
    const result = await runCli(
      ["serve"],
      { INKPRESS_API_KEYS: API_KEY, HF_ENDPOINT: `http://127.0.0.1:${closedPort}/`, MODEL_ENDPOINT: undefined },
      cwd,
    );
    const message = expectFailure(result, /no model in .*models\/ and the model hub is unreachable/);
    expect(message).toMatch(/inkpress models pull.*copy it into .*models\/.*INKPRESS_MODEL/);
  });
});

describe("inkpress generate with no model configured and an empty models/", () => {
  it("pulls the default preset first, as serve does, then writes the article", async () => {
    const { cwd, models: dir } = await workdir();
    const generate = ["generate", "--topic", "Urban beekeeping", "--length", "100", "--threads", "1"];
    const result = await runCli(generate, { HF_ENDPOINT: `${server.url}/`, MODEL_ENDPOINT: undefined, HF_TOKEN: undefined }, cwd);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^loading model qwen2\.5-1\.5b-instruct-q4_k_m\.gguf … /m);
    expect(sha256(await readFile(path.join(dir, "qwen2.5-1.5b-instruct-q4_k_m.gguf")))).toBe(sha256(tiny));
    expect(result.stdout).toMatch(/^# \S/);
  });

  it("offline through npx: one line naming `npx inkpress models pull`", async () => {
    const { cwd } = await workdir();
    const npx = { npm_lifecycle_event: "npx", npm_lifecycle_script: "inkpress" };
    const result = await runCli(
      ["generate", "--topic", "Urban beekeeping"],
      { ...npx, HF_ENDPOINT: `http://127.0.0.1:${closedPort}/`, MODEL_ENDPOINT: undefined },
      cwd,
    );
    const message = expectFailure(result, /no model in .*models\/ and the model hub is unreachable/);
    expect(message).toMatch(/run "npx inkpress models pull" on a connected machine/);
  });
});

describe("ensureModel (first start with an empty models/)", () => {
  it("returns the model already in the folder without touching the network", async () => {
    const { models: dir } = await workdir();
    await writeFile(path.join(dir, "mine.gguf"), tiny);
    expect(await ensureModel(dir, { hfEndpoint: `http://127.0.0.1:${closedPort}/` })).toBe(path.join(dir, "mine.gguf"));
  });

  it("pulls the default preset when the hub is reachable", async () => {
    const { models: dir } = await workdir();
    const seen: number[] = [];
    const model = await ensureModel(dir, { hfEndpoint: `${server.url}/`, onProgress: (p) => seen.push(p.downloadedBytes) });
    expect(model).toBe(path.join(dir, "qwen2.5-1.5b-instruct-q4_k_m.gguf"));
    expect(seen.at(-1)).toBe(tiny.length);
  });

  it("offline: one line naming the pull command and the air-gapped way", async () => {
    const { models: dir } = await workdir();
    const error = await ensureModel(dir, { hfEndpoint: `http://127.0.0.1:${closedPort}/` }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelPullError);
    const message = (error as ModelPullError).message;
    expect(message).not.toContain("\n");
    expect(message).toMatch(
      /^no model in .*models\/ and the model hub is unreachable \(cannot reach 127\.0\.0\.1:\d+: connect ECONNREFUSED/,
    );
    expect(message).toMatch(
      /run "inkpress models pull" on a connected machine, or, air-gapped, download qwen2\.5-1\.5b-instruct-q4_k_m\.gguf from https:\/\/huggingface\.co\/Qwen\/Qwen2\.5-1\.5B-Instruct-GGUF elsewhere and copy it into .*models\//,
    );
    const custom = await ensureModel(dir, { hfEndpoint: `http://127.0.0.1:${closedPort}/`, offlineMessage: "offline!" }).catch(
      (e: unknown) => e,
    );
    expect((custom as Error).message).toBe("offline!");
  });
});
