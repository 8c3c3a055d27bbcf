import { existsSync } from "node:fs";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Manifest } from "../../src/batch/manifest.js";

describe("a batch's manifest", () => {
  it("keeps the JSON answers and itself in the folder's .inkpress folder", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-manifest-"));
    const manifest = await Manifest.open(dir);
    const name = await manifest.claim("row-1", 2, "compost");
    expect(manifest.files(name)).toEqual([path.join(dir, "compost.md"), path.join(dir, ".inkpress", "compost.json")]);
    await manifest.finish("row-1");
    expect(JSON.parse(await readFile(path.join(dir, ".inkpress", "batch.json"), "utf8")).rows["row-1"]).toEqual({
      line: 2,
      name: "compost",
      done: true,
    });
  });

  it("takes up a folder an earlier version wrote: its rows stay done with their answers beside them, new rows go to .inkpress", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-manifest-"));
    await writeFile(
      path.join(dir, ".inkpress-batch.json"),
      JSON.stringify({ version: 1, rows: { "row-1": { line: 2, name: "compost", done: true } } }),
    );
    await writeFile(path.join(dir, "compost.md"), "# Compost\n");
    await writeFile(path.join(dir, "compost.json"), "{}");
    const manifest = await Manifest.open(dir);
    expect(manifest.isDone("row-1")).toBe(true);
    // The old answer's name is still taken, by its row.
    expect(await manifest.claim("row-2", 3, "compost")).toBe("compost-2");
    expect(manifest.files("compost-2")[1]).toBe(path.join(dir, ".inkpress", "compost-2.json"));
    expect(existsSync(path.join(dir, ".inkpress-batch.json")), "the old manifest, saved anew in .inkpress").toBe(false);
    const reopened = await Manifest.open(dir);
    expect(reopened.isDone("row-1")).toBe(true);
    expect(reopened.files("compost")).toEqual([path.join(dir, "compost.md"), path.join(dir, "compost.json")]);
  });
});
