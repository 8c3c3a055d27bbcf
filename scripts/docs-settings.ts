/**
 * Rewrites the configuration table of docs/operating.md from the settings table (src/settings.ts),
 * so a new setting reaches the documentation in one command: `npx tsx scripts/docs-settings.ts`.
 * test/unit/settings.test.ts fails while the two disagree.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { documentedSettingsTable, settingsTable } from "../src/settings.js";

const page = fileURLToPath(new URL("../docs/operating.md", import.meta.url));
const text = readFileSync(page, "utf8");
const current = documentedSettingsTable(text);
if (current === undefined) throw new Error("docs/operating.md has no configuration table under ## Configuration");
const next = text.replace(current, settingsTable());
if (next === text) process.stdout.write("docs/operating.md: the configuration table is up to date\n");
else {
  writeFileSync(page, next);
  process.stdout.write("docs/operating.md: configuration table rewritten\n");
}
