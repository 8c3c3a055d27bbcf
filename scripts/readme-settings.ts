/**
 * Rewrites the README's configuration table from the settings table (src/settings.ts), so a
 * new setting reaches the README in one command: `npx tsx scripts/readme-settings.ts`.
 * test/unit/settings.test.ts fails while the two disagree.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readmeSettingsTable, settingsTable } from "../src/settings.js";

const readme = fileURLToPath(new URL("../README.md", import.meta.url));
const text = readFileSync(readme, "utf8");
const current = readmeSettingsTable(text);
if (current === undefined) throw new Error("README.md has no configuration table under ## Configuration");
const next = text.replace(current, settingsTable());
if (next === text) process.stdout.write("README.md: the configuration table is up to date\n");
else {
  writeFileSync(readme, next);
  process.stdout.write("README.md: configuration table rewritten\n");
}
