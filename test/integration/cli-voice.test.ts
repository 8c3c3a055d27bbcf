import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT, runCli } from "../helpers/server.js";

// `inkpress voice FILE… -o`: a house voice learnt from files, and the one-line errors of a voice file.

const SET = path.join(ROOT, "test/fixtures/voices/short-you");
const FILES = ["bread.md", "compost.md", "cycling.md"].map((file) => path.join(SET, file));

describe("inkpress voice", () => {
  it("writes the voice the API answers, says what it learnt, and refuses too little prose or a broken voice file in one line", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-voice-"));
    const out = path.join(dir, "house.voice.json");
    const learnt = await runCli(["voice", ...FILES, "--name", "house", "-o", out]);
    expect(learnt.code, learnt.stderr).toBe(0);
    expect(learnt.stderr).toMatch(
      /voice “house” from 3 articles \(\d+ words\): sentences [\d.]+ words, second person, spelling en-GB, headings sentence\n$/u,
    );
    const voice = JSON.parse(await readFile(out, "utf8"));
    expect(voice).toMatchObject({ object: "voice", name: "house", profile: { person: { value: "second" }, spelling: { value: "en-GB" } } });

    const short = path.join(dir, "short.md");
    await writeFile(
      short,
      "# Short\n\nYou can write twenty words here. It's not much. You'll need more than this to learn a voice, won't you?\n",
    );
    const refused = await runCli(["voice", short]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toMatch(/short\.md: the examples hold \d+ words of prose; a voice needs at least 150/u);

    const broken = path.join(dir, "broken.voice.json");
    await writeFile(broken, JSON.stringify({ ...voice, profile: { ...voice.profile, lists: { ...voice.profile.lists, max: "ten" } } }));
    const generate = await runCli(["generate", "--topic", "Compost", "--voice", broken]);
    expect(generate.code).not.toBe(0);
    expect(generate.stderr.trim().split("\n")).toHaveLength(1);
    expect(generate.stderr).toContain("broken.voice.json: voice.lists.max must be a number");
  });
});
