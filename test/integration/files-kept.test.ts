import { mkdtemp, readFile, readdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { plantedArticle } from "../../scripts/fixtures/refresh.js";
import { HAS_STORIES_MODEL, STORIES_MODEL, runCli } from "../helpers/server.js";

// No user file is lost: `batch --refresh --in-place`, `refresh` and `audit` as real processes
// on stories260K, over a folder holding a Latin-1 page, a binary `.md` and a UTF-8 page with
// a byte order mark and CRLF line ends.

const model = ["--model", STORIES_MODEL, "--threads", "1"];

/** The folder's files: name → exact bytes. */
async function contents(dir: string): Promise<Map<string, Buffer>> {
  const names = (await readdir(dir)).filter((name) => !name.startsWith(".")).sort();
  return new Map(await Promise.all(names.map(async (name) => [name, await readFile(path.join(dir, name))] as const)));
}

async function plantFolder(): Promise<{ dir: string; latin1: Buffer; binary: Buffer; crlf: Buffer }> {
  const dir = await mkdtemp(path.join(tmpdir(), "inkpress-files-"));
  const latin1 = Buffer.from("# Caf\xe9 cr\xe8me\n\nA caf\xe9 cr\xe8me is coffee with cream.\n", "latin1");
  const binary = Buffer.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x23, 0x20, 0x41,
  ]);
  const crlf = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(plantedArticle().markdown.replaceAll("\n", "\r\n"))]);
  await writeFile(path.join(dir, "latin1.md"), latin1);
  await writeFile(path.join(dir, "binary.md"), binary);
  await writeFile(path.join(dir, "crlf.md"), crlf);
  return { dir, latin1, binary, crlf };
}

const NOT_UTF8 = /^latin1\.md: not UTF-8 text; nothing was written for it \(convert it to UTF-8 first, for example with iconv\)$/m;
const BINARY = /^binary\.md: a binary file \(it holds NUL bytes\), not a page; nothing was written for it$/m;

describe.skipIf(!HAS_STORIES_MODEL)("files that are not UTF-8 text", () => {
  it("batch --refresh --in-place refuses a Latin-1 and a binary page by name, leaves them byte for byte, writes no backup for them, and keeps a BOM-and-CRLF page's exact bytes in its .bak", async () => {
    const { dir, latin1, binary, crlf } = await plantFolder();
    const result = await runCli(["batch", "--refresh", dir, "--in-place", "--seed", "5", ...model]);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/^3 files: 1 to refresh, 0 already refreshed, 2 that cannot be refreshed$/m);
    expect(result.stderr).toMatch(NOT_UTF8);
    expect(result.stderr).toMatch(BINARY);
    const after = await contents(dir);
    expect([...after.keys()]).toEqual(["binary.md", "crlf.md", "crlf.md.bak", "latin1.md"]);
    expect(after.get("latin1.md")!.equals(latin1)).toBe(true);
    expect(after.get("binary.md")!.equals(binary)).toBe(true);
    expect(after.get("crlf.md.bak")!.equals(crlf), "the backup holds the original's exact bytes").toBe(true);
    expect(after.get("crlf.md")!.equals(crlf)).toBe(false);
  }, 180_000);

  it("refresh and audit refuse each such page in one line naming it, and write nothing", async () => {
    const { dir, latin1, binary } = await plantFolder();
    for (const [name, message] of [
      ["latin1.md", /not UTF-8 text/],
      ["binary.md", /a binary file/],
    ] as const) {
      const result = await runCli(["refresh", path.join(dir, name), "--output", path.join(dir, `${name}.out`), ...model]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^inkpress: .*${name.replace(".", "\\.")}: ${message.source}[^\\n]*\\n$`));
    }
    const audit = await runCli(["audit", dir]);
    expect(audit.code, audit.stderr).toBe(1);
    expect(`${audit.stdout}${audit.stderr}`).toMatch(/latin1\.md: not UTF-8 text/);
    expect(`${audit.stdout}${audit.stderr}`).toMatch(/binary\.md: a binary file/);
    expect(`${audit.stdout}${audit.stderr}`).toMatch(/1 page analysed/);
    const after = await contents(dir);
    expect([...after.keys()]).toEqual(["binary.md", "crlf.md", "latin1.md"]);
    expect(after.get("latin1.md")!.equals(latin1)).toBe(true);
    expect(after.get("binary.md")!.equals(binary)).toBe(true);
  }, 60_000);
});
