import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";

/**
 * Write a file so that a crash at any moment leaves either the old content or the new,
 * never half of one: a temporary file in the same folder, synced, renamed over the
 * target, and the folder synced. Mode 0600: key files, jobs and results are private.
 */
export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const handle = await open(temp, "wx", 0o600);
  try {
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
