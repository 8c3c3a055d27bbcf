import { mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_KEY, HAS_STORIES_MODEL, STORIES_MODEL, runCli, startServer, type TestServer } from "../helpers/server.js";

// Style and grounding inputs of the CLI, run as a user runs them on stories260K: `generate`
// with --avoid, --voice and --source, and `batch` with avoid, voice, sources and url columns
// and a --links sitemap, on the local model and through a server's jobs API.

/** Phrases stories260K writes all the time, matched as the engine bans them: whole words, any case. */
const BANNED = /\b(lily|once upon a time|so happy)\b/i;

const DIARY =
  "---\ntitle: Lily's garden diary\nurl: https://example.org/diary\n---\nLily went to the garden with her mom. They found a big red flower in the compost.\n";
const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://example.org/compost-bins/</loc></url>
  <url><loc>https://example.org/garden-flowers/</loc></url>
  <url><loc>https://example.org/home-composting/</loc></url>
</urlset>`;

async function folder(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "inkpress-grounding-"));
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}

/** Every written row: its front matter, body and JSON answer. */
async function written(out: string): Promise<Array<{ data: Record<string, unknown>; body: string; answer: Record<string, any> }>> {
  const names = (await readdir(out)).filter((name) => name.endsWith(".md")).sort();
  return Promise.all(
    names.map(async (name) => {
      const [, yaml = "", body = ""] = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(await readFile(path.join(out, name), "utf8")) ?? [];
      return {
        data: parse(yaml, { version: "1.1" }),
        body,
        answer: JSON.parse(await readFile(path.join(out, ".inkpress", name.replace(/\.md$/, ".json")), "utf8")),
      };
    }),
  );
}

describe.skipIf(!HAS_STORIES_MODEL)("style and grounding inputs of the CLI on stories260K", () => {
  const generate = (seed: number, ...extra: string[]) =>
    runCli([
      "generate",
      "--model",
      STORIES_MODEL,
      "--threads",
      "1",
      "--topic",
      "Home composting",
      "--length",
      "150",
      "--seed",
      String(seed),
      ...extra,
    ]);

  it("inkpress generate --avoid (repeated, or ;-separated) keeps the phrases out of an article that has them otherwise", async () => {
    const dir = await folder({ "diary.md": DIARY });
    // The first of a few seeds whose article, unbanned, holds one of the phrases.
    let seed: number | undefined;
    for (const candidate of [4, 1, 2, 3, 5, 6]) {
      const plain = await generate(candidate);
      expect(plain.code, plain.stderr).toBe(0);
      if (BANNED.test(plain.stdout)) {
        seed = candidate;
        break;
      }
    }
    expect(seed, "an unbanned article holding a phrase").toBeDefined();
    const banned = await generate(
      seed!,
      "--avoid",
      "Lily",
      "--avoid",
      "once upon a time; so happy",
      "--voice",
      "plain words, short sentences",
      "--source",
      path.join(dir, "diary.md"),
    );
    expect(banned.code, banned.stderr).toBe(0);
    expect(banned.stdout).not.toMatch(BANNED);
  });

  it("inkpress generate --source names a file it cannot read in one line", async () => {
    const result = await generate(4, "--source", "missing-notes.md");
    expect(result.code).toBe(1);
    expect(result.stderr).toBe("inkpress: cannot read source missing-notes.md: no such file\n");
  });

  it("inkpress batch takes avoid, voice, url and sources columns and a --links sitemap; front matter lists the sources", async () => {
    const dir = await folder({
      "diary.md": DIARY,
      "notes.md": "# Compost notes\n\nBrown leaves add carbon to the heap.\n",
      "sitemap.xml": SITEMAP,
      "rows.csv": [
        "topic,length,seed,avoid,voice,url,sources",
        'Home composting,120,5,"Lily; once upon a time; so happy",plain words,https://example.org/home-composting/,diary.md; notes.md',
        "Garden flowers,120,6,Lily,,/garden-flowers,",
      ].join("\n"),
    });
    const out = path.join(dir, "out");
    const result = await runCli([
      "batch",
      path.join(dir, "rows.csv"),
      "--out",
      out,
      "--links",
      path.join(dir, "sitemap.xml"),
      "--model",
      STORIES_MODEL,
      "--threads",
      "1",
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^done: 2 written, 0 skipped \(already written\), 0 failed in .+$/m);
    const rows = await written(out);
    expect(rows).toHaveLength(2);
    const composting = rows.find((r) => r.answer.request.topic === "Home composting")!;
    expect(composting.data.sources).toEqual([
      { title: "Lily's garden diary", url: "https://example.org/diary" },
      { title: "Compost notes" },
    ]);
    for (const row of rows) {
      expect(row.body).not.toMatch(/\bLily\b/i);
      // Only the pages of the link set, never the row's own page.
      for (const url of (row.data.links as string[] | undefined) ?? []) expect(SITEMAP).toContain(url);
      expect(row.data.links ?? []).not.toContain(
        row.answer.request.topic === "Home composting" ? "https://example.org/home-composting/" : "https://example.org/garden-flowers/",
      );
    }
    expect(rows.find((r) => r.answer.request.topic === "Garden flowers")!.data).not.toHaveProperty("sources");
  });

  it("inkpress batch --links stops in one line on a links file it cannot use", async () => {
    const dir = await folder({ "rows.csv": "topic\nHome composting\n", "links.csv": "url,title\njavascript:alert(1),Evil\n" });
    const result = await runCli([
      "batch",
      path.join(dir, "rows.csv"),
      "--out",
      path.join(dir, "out"),
      "--links",
      path.join(dir, "links.csv"),
      "--model",
      STORIES_MODEL,
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `inkpress: ${path.join(dir, "links.csv")}: line 2: url: url must be an absolute http(s) URL or a site path starting with /\n`,
    );
  });
});

describe.skipIf(!HAS_STORIES_MODEL)("inkpress batch --server sends style, sources and links in each job", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(STORIES_MODEL);
  });
  afterAll(() => server?.stop());

  it("the server takes the rows' requests as the local model does, and the banned phrases stay out", async () => {
    const dir = await folder({
      "sitemap.xml": SITEMAP,
      "rows.jsonl": `${JSON.stringify({ topic: "Home composting", length: 120, seed: 5, url: "/home-composting", style: { avoid: ["Lily", "once upon a time", "so happy"] }, sources: [{ title: "Notes", url: "https://example.org/notes", text: "Lily found brown leaves for the compost heap." }] })}\n`,
    });
    const out = path.join(dir, "out");
    const result = await runCli(
      ["batch", path.join(dir, "rows.jsonl"), "--out", out, "--links", path.join(dir, "sitemap.xml"), "--server", server.url],
      { INKPRESS_API_KEY: API_KEY },
    );
    expect(result.code, result.stderr).toBe(0);
    const [row] = await written(out);
    expect(row!.body).not.toMatch(BANNED);
    expect(row!.data.sources).toEqual([{ title: "Notes", url: "https://example.org/notes" }]);
  });
});
