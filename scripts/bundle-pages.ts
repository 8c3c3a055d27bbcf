/**
 * Part of `npm run build`: bundles each page script (src/http/pages/client/) with what it
 * imports into dist/http/pages/client/<name>.js, where the built server reads it. tsc leaves
 * that folder out (tsconfig.build.json), so only the bundles are there.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { PAGE_SCRIPTS, bundleScript } from "../src/http/pages/assets.js";

const out = new URL("../dist/http/pages/client/", import.meta.url);
await mkdir(out, { recursive: true });
for (const name of PAGE_SCRIPTS) {
  const code = await bundleScript(name);
  await writeFile(new URL(`${name}.js`, out), code);
  console.log(`dist/http/pages/client/${name}.js: ${(code.length / 1024).toFixed(0)} KiB`);
}
