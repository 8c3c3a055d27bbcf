import type { ArticleResponse } from "../../src/contract/response.js";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKey, keysCli, tempKeysFile } from "../helpers/cli.js";
import { waitFor } from "../helpers/http.js";
import { jobsApi } from "../helpers/jobs.js";
import { startServer, testModel, type TestServer } from "../helpers/server.js";

/**
 * A key's default style, set with the real CLI (`keys create --style`, `keys set-style`),
 * laid under a request's own style field by field by a real server, for direct requests and jobs.
 */
describe("a key's default style", () => {
  let server: TestServer;
  let keysFile: string;
  let dir: string;
  let key: string;
  const keyStyle = { avoid: ["game-changer", "delve"], voice: "plain British English, second person", cliches: false };
  const styleFile = async (name: string, content: unknown) => {
    const file = path.join(dir, name);
    await writeFile(file, typeof content === "string" ? content : JSON.stringify(content));
    return file;
  };
  const stored = async (name: string) => JSON.parse(await readFile(keysFile, "utf8")).keys.find((k: { name: string }) => k.name === name);

  beforeAll(async () => {
    keysFile = await tempKeysFile();
    dir = await mkdtemp(path.join(tmpdir(), "inkpress-style-"));
    key = await createKey(keysFile, "styled", ["--rate", "1000/min", "--style", await styleFile("style.json", keyStyle)]);
    server = await startServer(await testModel("plain"), { INKPRESS_API_KEYS: undefined, INKPRESS_KEYS_FILE: keysFile });
  }, 60_000);
  afterAll(() => server?.stop());

  it("refuses a bad style file with one line naming the field, and changes nothing", async () => {
    const before = await readFile(keysFile, "utf8");
    const cases: [string, unknown, RegExp][] = [
      ["voice.json", { voice: 5 }, /^inkpress: the style file \S+voice\.json is invalid: voice must be a note \(text\) or a voice profile/],
      ["avoid.json", { avoid: "delve" }, /^inkpress: the style file \S+avoid\.json is invalid: avoid must be an array of strings/],
      ["cliches.json", { cliches: "no" }, /^inkpress: the style file \S+cliches\.json is invalid: cliches must be true or false/],
      ["broken.json", "{ not json", /^inkpress: cannot read the style file \S+broken\.json: it is not valid JSON/],
    ];
    for (const [name, content, message] of cases) {
      const file = await styleFile(name, content);
      // `keys create --style` reads the file the same way: tried once.
      const commands =
        name === "voice.json"
          ? [
              ["set-style", "styled", file],
              ["create", "--name", "other", "--style", file],
            ]
          : [["set-style", "styled", file]];
      for (const args of commands) {
        const result = await keysCli(keysFile, args);
        expect(result.code, `${args[0]} ${name}`).toBe(1);
        expect(result.stdout).toBe("");
        expect(result.stderr.split("\n"), `${args[0]} ${name}: one line`).toEqual([expect.stringMatching(message), ""]);
      }
    }
    expect(await readFile(keysFile, "utf8")).toBe(before);
    const missing = await keysCli(keysFile, ["set-style", "nobody", await styleFile("ok.json", { voice: "dry" })]);
    expect(missing.stderr).toBe('inkpress: no key named "nobody"\n');
  });

  it("writes in the key's style, with the request's style fields over it, and echoes the style used", async () => {
    expect((await stored("styled")).style).toEqual(keyStyle);
    const plain = await server.generate({ topic: "Composting coffee grounds", length: 100 }, { "x-api-key": key });
    expect(plain.status).toBe(200);
    expect((await plain.json()).request.style).toEqual(keyStyle);

    const own = await server.generate(
      { topic: "Composting coffee grounds", length: 100, style: { voice: "cheerful" } },
      { "x-api-key": key },
    );
    expect((await own.json()).request.style).toEqual({ ...keyStyle, voice: "cheerful" });

    const jobs = jobsApi(server.url, key);
    const job = await jobs.create({ topic: "Composting coffee grounds", length: 100, style: { avoid: ["soil"] } });
    const done = await jobs.waitFor(job.id);
    // The response schema does not name `style` yet; the echoed request carries it.
    expect(((done.result as ArticleResponse | undefined)?.request as { style?: unknown } | undefined)?.style).toEqual({
      ...keyStyle,
      avoid: ["soil"],
    });

    // `keys set-style` replaces it; the running server writes with the new one within a second.
    const changed = await keysCli(keysFile, ["set-style", "styled", await styleFile("new.json", { voice: "terse" })]);
    expect(changed).toMatchObject({ code: 0, stderr: 'default style of "styled" set; a running server uses it within a second\n' });
    await waitFor(
      async () => {
        const answer = await server.generate({ topic: "Composting coffee grounds", length: 100 }, { "x-api-key": key });
        return JSON.stringify((await answer.json()).request.style) === JSON.stringify({ voice: "terse" }) ? true : undefined;
      },
      "the new default style used",
      20_000,
      200,
    );
    // A key without a style writes as the request says.
    const bare = await createKey(keysFile, "bare", ["--rate", "1000/min"]);
    await waitFor(async () => ((await server.generate({}, { "x-api-key": bare })).status === 422 ? true : undefined), "the key accepted");
    const unstyled = await server.generate({ topic: "Composting coffee grounds", length: 100 }, { "x-api-key": bare });
    expect((await unstyled.json()).request.style).toBeUndefined();
  }, 120_000);
});
