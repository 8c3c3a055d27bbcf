import { mkdir, open, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";
import { KeyStoreError } from "./errors.js";

const LOCK_WAIT_MS = 10_000;

/**
 * An exclusive lock file holding the owner's pid. A lock whose owner is gone (killed
 * mid-write) is taken over; a live one is waited for, up to ten seconds.
 */
export async function lock(file: string): Promise<() => Promise<void>> {
  await mkdir(path.dirname(file), { recursive: true });
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(file, "wx", 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = Number(await readFile(file, "utf8").catch(() => ""));
    // A lock just created may not hold its pid yet: only an old one without a pid is stale.
    const young = Date.now() - ((await stat(file).catch(() => undefined))?.mtimeMs ?? 0) < 2000;
    if (owner ? !isAlive(owner) : !young) {
      await rm(file, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new KeyStoreError(`the key file is locked by process ${owner} (${file})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
