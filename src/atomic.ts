import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readFile, readdir, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { InkpressError } from "./errors.js";

/** What a file held when it was read: an in-place write checks it still does before replacing it. */
export interface FileVersion {
  size: number;
  mtimeMs: number;
  /** SHA-256 of its bytes, hex. */
  sha256: string;
}

/** How {@link writeFileAtomic} writes. */
export interface AtomicWriteOptions {
  /**
   * The file's mode, set whatever the umask.
   * @default 0600 (key files, jobs and results are private), or as `userFile` says
   */
  mode?: number;
  /**
   * A file of the user's (a plan, an outline, a report, an article): it keeps the mode it has,
   * and a new one gets what any program's new file gets (0666 less the umask).
   * @default false
   */
  userFile?: boolean;
  /**
   * Replace the file only while it is still this version, checked after the new text is synced and
   * just before the rename: a file changed meanwhile is left as it is ({@link FileChangedError}).
   * @default none: the file is replaced whatever it holds
   */
  unchanged?: FileVersion;
}

/** A file that changed after it was read, so it was not replaced: the change is kept. */
export class FileChangedError extends InkpressError {
  constructor(readonly file: string) {
    super(`${file} changed after it was read, so it was not replaced (the change is kept)`, { status: 409 });
  }
}

/** The version of a file's bytes as read, with its size and modification time now. */
export async function fileVersion(file: string, bytes: Uint8Array): Promise<FileVersion> {
  const { size, mtimeMs } = await stat(file);
  return { size, mtimeMs, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** Whether a file still holds the version read: size and time first (cheap), then its bytes' hash. */
export async function isUnchanged(file: string, version: FileVersion): Promise<boolean> {
  const now = await stat(file).catch(() => undefined);
  if (!now || now.size !== version.size || now.mtimeMs !== version.mtimeMs) return false;
  const bytes = await readFile(file).catch(() => undefined);
  return bytes !== undefined && createHash("sha256").update(bytes).digest("hex") === version.sha256;
}

/**
 * Write a file so that a crash at any moment leaves either the old content or the new,
 * never half of one: a temporary file in the same folder, synced, renamed over the
 * target, and the folder synced.
 */
export async function writeFileAtomic(file: string, text: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const mode = options.mode ?? (options.userFile ? await modeOf(file) : 0o600);
  // TEMPORARY_FILE must keep matching this name, or a crash's leftovers are never removed.
  // A user's new file is opened 0666, for the umask to narrow as it narrows any program's.
  const handle = await open(temp, "wx", options.userFile ? 0o666 : 0o600);
  try {
    // Set on the handle: the umask does not narrow it, as it narrows a mode given to open.
    if (mode !== undefined) await handle.chmod(mode);
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await pauseForCrashTest(file);
  try {
    if (options.unchanged && !(await isUnchanged(file, options.unchanged))) throw new FileChangedError(file);
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  const folder = await open(dir, "r");
  await folder.sync().finally(() => folder.close());
}

/** A file's permission bits; undefined when there is no such file. */
function modeOf(file: string): Promise<number | undefined> {
  return stat(file).then(
    (info) => info.mode & 0o777,
    () => undefined,
  );
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
 * INKPRESS_TEST_WRITE_PAUSE_MS holds every write between sync and rename, so a test can
 * kill the writer exactly there and prove the file survives. Unset in normal use.
 */
async function pauseForCrashTest(file: string): Promise<void> {
  const ms = Number(process.env.INKPRESS_TEST_WRITE_PAUSE_MS ?? 0);
  if (ms > 0) {
    process.stderr.write(`${path.basename(file)}: written, not yet renamed\n`);
    await new Promise((resolve) => setTimeout(resolve, ms));
  }
}
