import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { learnVoiceFiles, writeVoiceFile } from "../../src/voice/files.js";
import { NamedVoices } from "../../src/voice/named.js";
import { plantedArticle } from "../../scripts/fixtures/refresh.js";
import { createKey } from "../helpers/keys.js";
import { API_KEY, HAS_STORIES_MODEL, ROOT, runCli, STORIES_MODEL, startServer, type TestServer } from "../helpers/server.js";

// `serve --voices DIR` over real HTTP on stories260K: voices by name on analyse, generate and
// refresh, a key's default style naming one, an unknown name, and a bad voice file at start.

const FIXTURES = path.join(ROOT, "test/fixtures/voices");

/** Learn the fixture set `set` as `inkpress voice` does and write it into `dir` as NAME.voice.json. */
async function voiceFile(dir: string, set: string): Promise<string> {
  const files = (await readdir(path.join(FIXTURES, set))).sort().map((f) => path.join(FIXTURES, set, f));
  const file = path.join(dir, `${set}.voice.json`);
  await writeVoiceFile(file, await learnVoiceFiles(files, set));
  return file;
}

type Check = { id: string; passed: boolean | null; message: string };
const voiceChecks = (checks: Check[]) => checks.filter((c) => c.id.startsWith("voice-"));

describe.skipIf(!HAS_STORIES_MODEL)("serve --voices DIR", () => {
  let server: TestServer;
  let dir: string;
  let houseKey: string;
  const post = (route: string, body: unknown, key = API_KEY) =>
    fetch(`${server.url}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(body),
    });
  const shortYou = async () =>
    await readFile(path.join(FIXTURES, "short-you", (await readdir(path.join(FIXTURES, "short-you"))).sort()[0]!), "utf8");

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "inkpress-voices-"));
    await voiceFile(dir, "short-you");
    await voiceFile(dir, "long-we");
    const keysFile = path.join(dir, "keys.json");
    const style = path.join(dir, "house-style.json");
    await writeFile(style, JSON.stringify({ voice: "short-you" }));
    houseKey = await createKey(keysFile, "house", ["--style", style]);
    server = await startServer(STORIES_MODEL, { INKPRESS_KEYS_FILE: keysFile }, { args: ["--voices", dir] });
  });
  afterAll(() => server?.stop());

  it("reads a voice's name as its profile on analyse, from the request or from the key's default style; a note of several words stays a note", async () => {
    const markdown = await shortYou();
    for (const [style, key] of [
      [{ voice: "short-you" }, API_KEY],
      [{}, houseKey],
    ] as const) {
      const response = await post("/api/v1/analyse", { markdown, style }, key);
      expect(response.status, await response.clone().text()).toBe(200);
      const checks = voiceChecks((await response.json()).seo.checks);
      // The article is one of the voice's own: every check applies and passes.
      expect(checks.filter((c) => c.passed === false)).toEqual([]);
      expect(checks.filter((c) => c.passed === true).length).toBeGreaterThanOrEqual(6);
    }
    const note = await post("/api/v1/analyse", { markdown, style: { voice: "plain short sentences" } });
    expect(note.status).toBe(200);
    expect(voiceChecks((await note.json()).seo.checks).every((c) => c.passed === null)).toBe(true);
  });

  it("answers an unknown name with a 422 naming style.voice and listing the names it knows", async () => {
    const response = await post("/api/v1/generate", { topic: "A walk in the park", length: 150, style: { voice: "house" } });
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toMatch(/application\/problem\+json/u);
    const problem = await response.json();
    expect(problem.errors).toEqual([{ path: "style.voice", message: expect.stringContaining("it knows long-we, short-you") }]);
  });

  it("writes with a named voice, and refreshes with one: the report's voice checks are those of the article as analysed with the profile", async () => {
    const profile = JSON.parse(await readFile(path.join(dir, "long-we.voice.json"), "utf8")).profile;
    const generated = await post("/api/v1/generate", { topic: "A walk in the park", length: 150, seed: 1, style: { voice: "long-we" } });
    expect(generated.status, await generated.clone().text()).toBe(200);
    const { article, seo } = await generated.json();
    const { request } = plantedArticle();
    const refreshed = await post("/api/v1/refresh", { ...request, style: { ...request.style, voice: "long-we" } });
    expect(refreshed.status, await refreshed.clone().text()).toBe(200);
    const refresh = await refreshed.json();
    for (const [markdown, checks] of [
      [article.markdown, seo.checks],
      [refresh.article.markdown, refresh.after.checks],
    ]) {
      const own = voiceChecks(checks);
      expect(own.map((c) => c.id)).toContain("voice-sentence-length");
      expect(own.some((c) => c.passed !== null)).toBe(true);
      const analysed = await post("/api/v1/analyse", { markdown, style: { voice: profile } });
      expect(voiceChecks((await analysed.json()).seo.checks)).toEqual(own);
    }
    // Before the refresh, the planted article was measured against the same voice.
    expect(voiceChecks(refresh.before.checks).some((c) => c.passed !== null)).toBe(true);
  });
});

describe.skipIf(!HAS_STORIES_MODEL)("serve --voices DIR with a bad voice file", () => {
  it("stops at start in one line naming the file and the field", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-voices-"));
    const file = await voiceFile(dir, "short-you");
    const voice = JSON.parse(await readFile(file, "utf8"));
    const bad = (profile: object) => writeFile(file, JSON.stringify({ ...voice, profile }));
    // The folder is read as serve reads it: an unknown field, named.
    await bad({ ...voice.profile, colour: "red" });
    await expect(NamedVoices.load(dir)).rejects.toThrow(`${file}: voice.colour: unknown field`);
    await bad({ ...voice.profile, sentenceWords: { ...voice.profile.sentenceWords, mean: "short" } });
    const result = await runCli(["serve", "--model", STORIES_MODEL, "--port", "0", "--voices", dir], { INKPRESS_API_KEYS: API_KEY });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`inkpress: ${file}: voice.sentenceWords.mean must be a number\n`);
  });
});
