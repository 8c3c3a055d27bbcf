/**
 * Re-adds prebuilt-binary packages for other platforms to package-lock.json: node-llama-cpp's,
 * and any other optional platform package the lock misses (msgpackr-extract's, under BullMQ).
 *
 * The registry these machines reach lacks some of them (the Windows and macOS builds), so
 * `npm install` leaves them out of the lock, and `npm ci` then refuses the lock as out of
 * sync. Their entries only need the version and the platform: npm skips them on Linux and
 * fetches them on the platforms they are for. Run after changing dependencies:
 * `npx tsx scripts/lock-platform-packages.ts`.
 */
import { readFileSync, writeFileSync } from "node:fs";

const LOCK = "package-lock.json";
const PLATFORMS: Record<string, { os: string; cpu: string[] }> = {
  "linux-riscv64": { os: "linux", cpu: ["riscv64"] },
  "mac-arm64-metal": { os: "darwin", cpu: ["arm64", "x64"] },
  "mac-x64": { os: "darwin", cpu: ["x64"] },
  "win-arm64": { os: "win32", cpu: ["arm64", "x64"] },
  "win-x64": { os: "win32", cpu: ["x64"] },
  "win-x64-cuda": { os: "win32", cpu: ["x64"] },
  "win-x64-cuda-ext": { os: "win32", cpu: ["x64"] },
  "win-x64-vulkan": { os: "win32", cpu: ["x64"] },
};

const lock = JSON.parse(readFileSync(LOCK, "utf8"));
const version: string = lock.packages["node_modules/node-llama-cpp"].version;
for (const [name, { os, cpu }] of Object.entries(PLATFORMS)) {
  const key = `node_modules/@node-llama-cpp/${name}`;
  lock.packages[key] ??= { version, cpu, license: "MIT", optional: true, os: [os], engines: { node: ">=20.0.0" } };
}
// Other packages' optional platform builds, named like `…-darwin-arm64` or `…-win32-x64`.
const OS: Record<string, string> = { darwin: "darwin", linux: "linux", win32: "win32" };
for (const [path, entry] of Object.entries<{ optionalDependencies?: Record<string, string> }>(lock.packages)) {
  for (const [name, wanted] of Object.entries(entry.optionalDependencies ?? {})) {
    const platform = /-(darwin|linux|win32)-(arm64|x64|arm)$/.exec(name);
    const key = `node_modules/${name}`;
    if (!platform || lock.packages[key] || lock.packages[`${path}/${key}`]) continue;
    lock.packages[key] = { version: wanted, cpu: [platform[2]], license: "MIT", optional: true, os: [OS[platform[1]!]] };
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync(LOCK, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`${LOCK}: platform packages of node-llama-cpp ${version} listed`);
