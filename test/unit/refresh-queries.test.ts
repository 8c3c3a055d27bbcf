import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { offerQueries } from "../../src/batch/queries.js";
import { planRefresh } from "../../src/batch/refresh.js";

// `batch --refresh --queries`: an export of queries by page, of our own, read into the refresh
// requests of the pages it names.

describe("batch --refresh --queries", () => {
  it("offers a page the queries it ranks 8-20 for, most impressions first, after its own keywords", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-queries-"));
    await writeFile(path.join(dir, "compost.md"), "---\ntitle: Compost\nkeywords: [compost heap]\n---\n\n# Compost\n\nA heap.\n");
    await writeFile(path.join(dir, "tools.md"), "---\ntitle: Tools\n---\n\n# Tools\n\nA fork.\n");
    const queries = path.join(dir, "queries.csv");
    await writeFile(
      queries,
      [
        "Query,Landing Page,Clicks,Impressions,CTR,Position",
        "compost tea,/compost/,1,200,0.5%,15",
        "hot compost,https://garden.example/compost/,40,900,4.4%,3.1",
        "compost bin,https://garden.example/compost/,3,400,0.75%,11.2",
        "Compost Heap,/compost/,3,800,0.4%,9",
        "far away,/compost/,0,50,0%,31.5",
        "garden fork,/tools/,2,300,0.7%,12",
      ].join("\n"),
    );
    const plan = await planRefresh(dir, { inPlace: false });
    expect(await offerQueries(plan, queries)).toBe(1);
    const byName = new Map(plan.pending.map((item) => [item.name, item.request.seo.keywords]));
    expect(byName.get("compost.md")).toEqual(["compost heap", "compost bin", "compost tea"]);
    // A page without keywords of its own gets none: a query would become its primary keyword.
    expect(byName.get("tools.md") ?? []).toEqual([]);
  });

  it("refuses a Queries export without a page column, naming the file", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "inkpress-queries-"));
    await writeFile(path.join(dir, "a.md"), "---\ntitle: A\nkeywords: [a b]\n---\n\nText.\n");
    const queries = path.join(dir, "queries.csv");
    await writeFile(queries, "Top queries,Clicks,Impressions,CTR,Position\ncompost,1,10,10%,9\n");
    await expect(offerQueries(await planRefresh(dir, { inPlace: false }), queries)).rejects.toThrow(`${queries}: no page column`);
  });
});
