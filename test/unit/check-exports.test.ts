import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { checkExports } from "../../scripts/check-exports.js";

describe("scripts/check-exports.ts", () => {
  it("finds nothing in src/ and scripts/: every export documented, every Options default named, every exported value imported elsewhere", () => {
    const findings = checkExports({ targets: ["src", "scripts"] });
    expect(findings.map((f) => `${f.file}:${f.line}: ${f.message}`)).toEqual([]);
  });

  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  it("reports an undocumented export, an optional member without @default and an export nothing imports", async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), "inkpress-check-exports-"));
    dirs.push(root);
    await writeFile(
      path.join(root, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { module: "NodeNext", strict: true, types: [] }, include: ["*.ts"] }),
    );
    await writeFile(
      path.join(root, "lib.ts"),
      [
        "export const bare = 1;",
        "/** Used. */",
        "export const used = 2;",
        "/** Options. */",
        "export interface ReadOptions {",
        "  /** No default named. */",
        "  limit?: number;",
        "}",
        "",
      ].join("\n"),
    );
    await writeFile(path.join(root, "main.ts"), 'import { used } from "./lib.js";\nconsole.log(used);\n');
    expect(checkExports({ root, targets: ["lib.ts"] })).toEqual([
      { file: "lib.ts", line: 1, message: "bare: exported without a doc comment" },
      { file: "lib.ts", line: 1, message: "bare: exported, but no other file imports it" },
      { file: "lib.ts", line: 7, message: "ReadOptions.limit: optional, without @default" },
    ]);
  });
});
