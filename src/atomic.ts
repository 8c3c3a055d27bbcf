import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";

/**
 * Write a file so that a crash at any moment leaves either the old content or the new,
 * never half of one: a temporary file in the same folder, synced, renamed over the
 * target, and the folder synced. Mode 0600 unless told (key files, jobs and results are private).
 */
export async function writeFileAtomic(file: string, text: string | Uint8Array, options: { mode?: number } = {}): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  // TEMPORARY_FILE must keep matching this name, or a crash's leftovers are never removed.
  const handle = await open(temp, "wx", 0o600);
  try {
    // Set on the handle: the umask does not narrow it, as it narrows a mode given to open.
    if (options.mode !== undefined) await handle.chmod(options.mode);
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await pauseForCrashTest();
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  const folder = await open(dir, "r");
  await folder.sync().finally(() => folder.close());
}

/** The name {@link writeFileAtomic} gives its temporary copy; the number is the writer's pid. */
const TEMPORARY_FILE = /^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$/;

/** A temporary copy this old is a leftover whoever wrote it: a write lasts milliseconds. */
const ABANDONED_AFTER_MS = 3600_000;

/** Where to look for leftovers. */
export interface RemoveTemporariesOptions {
  /**
   * Look in the folder's subfolders too (a data folder), not only beside a file (a key file).
   * @default false
   */
  recursive?: boolean;
}

/**
 * Remove the temporary copies that writers killed between sync and rename left in `dir`:
 * each may hold a whole key file, webhook secrets included. A copy is left alone while its
 * writer (another process, such as `inkpress keys`) still runs and it is under an hour old;
 * this process's own pid counts as gone, since a restarted container reuses it and nothing
 * is written before start-up ends. A folder that does not exist has none. Returns what it removed.
 */
export async function removeStaleTemporaries(dir: string, { recursive = false }: RemoveTemporariesOptions = {}): Promise<string[]> {
  const names = await readdir(dir, { recursive }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  const removed: string[] = [];
  for (const name of names) {
    const pid = TEMPORARY_FILE.exec(path.basename(name))?.[1];
    if (!pid) continue;
    const file = path.join(dir, name);
    const modified = await stat(file).then(
      (info) => info.mtimeMs,
      () => undefined,
    );
    // Gone meanwhile (its writer renamed it), or still being written.
    if (modified === undefined || (isRunning(Number(pid)) && Date.now() - modified < ABANDONED_AFTER_MS)) continue;
    await rm(file, { force: true });
    removed.push(file);
  }
  return removed;
}

/** Whether another process of this pid runs now. */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * INKPRESS_TEST_KEYS_WRITE_PAUSE_MS holds a write between sync and rename, so a test
 * can kill the writer exactly there and prove the file survives. Unset in normal use.
 */
async function pauseForCrashTest(): Promise<void> {
  const ms = Number(process.env.INKPRESS_TEST_KEYS_WRITE_PAUSE_MS ?? 0);
  if (ms > 0) {
    process.stderr.write("keys: written, not yet renamed\n");
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
}
