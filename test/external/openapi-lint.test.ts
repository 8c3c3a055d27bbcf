/**
 * Redocly's linter (`@redocly/cli`, its `recommended` ruleset) on the OpenAPI document the
 * server serves: no error, and no more than three warnings, each one a warning docs/api.md
 * names and explains. Offline: telemetry and the update check are off, and the document is
 * a local file.
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApp, type TestApp } from "../helpers/app.js";
import { ROOT } from "../helpers/server.js";

const run = promisify(execFile);
const REDOCLY = path.join(ROOT, "node_modules/.bin/redocly");

/** One finding of `redocly lint --format=json`. */
interface Finding {
  ruleId: string;
  severity: "error" | "warn";
  message: string;
  location: { pointer: string }[];
}

describe("Redocly's recommended rules on the served OpenAPI document", () => {
  let app: TestApp;
  let dir: string;
  beforeAll(async () => {
    app = await startApp();
    dir = await mkdtemp(path.join(tmpdir(), "inkpress-redocly-"));
  });
  afterAll(async () => {
    await app?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("report no error and at most 3 warnings, each explained in docs/api.md", async () => {
    const file = path.join(dir, "openapi.json");
    await writeFile(file, await (await app.fetch("/api/v1/openapi.json")).text());
    const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" };
    // The linter exits 1 when it finds an error; its JSON report is on stdout either way.
    const { stdout } = await run(REDOCLY, ["lint", "--extends=recommended", "--format=json", file], { env, cwd: dir }).catch(
      (error: { stdout: string }) => error,
    );
    const findings: Finding[] = JSON.parse(stdout).problems;
    const lines = findings.map((f) => `${f.severity} ${f.ruleId} ${f.location[0]?.pointer}: ${f.message}`);
    expect(lines.filter((line) => line.startsWith("error"))).toEqual([]);
    expect(lines.length, lines.join("\n")).toBeLessThanOrEqual(3);
    const docs = await readFile(path.join(ROOT, "docs/api.md"), "utf8");
    for (const finding of findings)
      expect(docs, `docs/api.md explains ${finding.ruleId} at ${finding.location[0]?.pointer}`).toContain(finding.location[0]!.pointer);
  });
});
