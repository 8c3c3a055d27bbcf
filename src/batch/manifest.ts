import { existsSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../atomic.js";
import { BatchError } from "./errors.js";
import { unreadable } from "../site/unreadable.js";

/**
 * The folder, inside the output folder, of what a batch keeps for itself: its manifest and each
 * article's JSON answer (its request, sources and usage), which must not be published with the
 * articles. Static site generators (Hugo, Jekyll, Eleventy) skip a folder whose name starts with a dot.
 */
const PRIVATE_FOLDER = ".inkpress";
/** The manifest's file in the output folder. */
const MANIFEST_FILE = `${PRIVATE_FOLDER}/batch.json`;
/** Where batches before {@link PRIVATE_FOLDER} kept the manifest; their JSON answers lie beside the Markdown. */
const LEGACY_MANIFEST_FILE = ".inkpress-batch.json";

/** Where a manifest lives and what files a name stands for. */
export interface ManifestOptions {
  /**
   * The manifest's file name in the folder.
   * @default ".inkpress/batch.json"
   */
  file?: string;
  /**
   * The files a row's name stands for, all of them written before the row is done.
   * @default `<name>.md` in the folder and `<name>.json` in its `.inkpress` folder
   */
  files?: (name: string) => string[];
}

/** One row's record: the file name it claimed, and whether both its files are complete. */
interface Entry {
  line: number;
  name: string;
  done: boolean;
  /** Written by a batch before {@link PRIVATE_FOLDER}: its JSON answer lies beside its Markdown. */
  beside?: true;
}

/**
 * What a batch has written into its folder, by row key, so that a second run skips those
 * rows. A row claims its file name before writing and is marked done after; each change
 * is saved atomically at once, so a run killed at any moment loses only the rows in flight,
 * and redoes an interrupted row under the name it claimed instead of leaving a stray file.
 */
export class Manifest {
  private saving: Promise<void> = Promise.resolve();

  private constructor(
    private readonly dir: string,
    private readonly entries: Record<string, Entry>,
    private readonly options: ManifestOptions,
    /** The manifest file of an earlier layout this one was read from: removed once saved anew. */
    private legacyFile?: string,
  ) {}

  /**
   * The manifest of `dir` (created, with the folder, on the first change). A folder an earlier
   * batch wrote (its manifest `.inkpress-batch.json`) goes on: its rows keep their files where
   * they are, new rows are written in the new layout.
   */
  static async open(dir: string, options: ManifestOptions = {}): Promise<Manifest> {
    const current = await readEntries(path.join(dir, options.file ?? MANIFEST_FILE));
    if (current || options.file) return new Manifest(dir, current ?? {}, options);
    const legacy = path.join(dir, LEGACY_MANIFEST_FILE);
    const earlier = await readEntries(legacy);
    if (!earlier) return new Manifest(dir, {}, options);
    for (const entry of Object.values(earlier)) entry.beside = true;
    return new Manifest(dir, earlier, options, legacy);
  }

  /** Whether an earlier run wrote this row completely, and its files are still there. */
  isDone(key: string): boolean {
    const entry = this.entries[key];
    return Boolean(entry?.done) && this.files(entry!.name).every((file) => existsSync(file));
  }

  /** Whether an earlier run claimed the row and stopped before it was done. */
  isUnfinished(key: string): boolean {
    return this.entries[key]?.done === false;
  }

  /**
   * A file name (without extension) for the row, unique in the folder: `slug`, else `slug-2`,
   * `slug-3`… Never a name another row holds or a file the batch did not write.
   */
  async claim(key: string, line: number, slug: string): Promise<string> {
    let name = slug;
    for (let n = 2; !this.free(key, name); n++) name = `${slug}-${n}`;
    await this.record(key, line, name);
    return name;
  }

  /** Claim exactly `name` for the row; false when another row holds it or its files are there and not the batch's. */
  async claimExact(key: string, line: number, name: string): Promise<boolean> {
    if (!this.free(key, name)) return false;
    await this.record(key, line, name);
    return true;
  }

  /** Whether a name may be the row's: no other row holds it, and its files are the row's own or not there. */
  private free(key: string, name: string): boolean {
    const taken = Object.entries(this.entries).some(([other, entry]) => other !== key && entry.name === name);
    return !taken && (name === this.entries[key]?.name || this.files(name).every((file) => !existsSync(file)));
  }

  private async record(key: string, line: number, name: string): Promise<void> {
    const previous = this.entries[key]?.name;
    const stray = previous !== undefined && previous !== name ? this.files(previous) : [];
    this.entries[key] = { line, name, done: false };
    // An interrupted write of this row under another slug (its seed was drawn anew) leaves nothing behind.
    await Promise.all(stray.map((file) => rm(file, { force: true })));
    await this.save();
  }

  /** Both files of the row are written. */
  async finish(key: string): Promise<void> {
    this.entries[key]!.done = true;
    await this.save();
  }

  /** The files of a name: its Markdown and JSON files unless the manifest was opened with others. */
  files(name: string): string[] {
    if (this.options.files) return this.options.files(name);
    const beside = Object.values(this.entries).some((entry) => entry.name === name && entry.beside);
    return [path.join(this.dir, `${name}.md`), path.join(this.dir, beside ? "" : PRIVATE_FOLDER, `${name}.json`)];
  }

  /** Saves run one after another, each writing the state as it is by then. */
  private save(): Promise<void> {
    const file = path.join(this.dir, this.options.file ?? MANIFEST_FILE);
    this.saving = this.saving
      .catch(() => {})
      .then(() => writeFileAtomic(file, `${JSON.stringify({ version: 1, rows: this.entries }, null, 1)}\n`))
      .then(async () => {
        if (this.legacyFile) await rm(this.legacyFile, { force: true });
        this.legacyFile = undefined;
      });
    return this.saving;
  }
}

/** A manifest file's rows; undefined when there is no such file. */
async function readEntries(file: string): Promise<Record<string, Entry> | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new BatchError(`cannot read ${file}: ${unreadable(error)}`, { cause: error });
  }
  let rows: unknown;
  try {
    rows = (JSON.parse(text) as { rows?: unknown } | null)?.rows;
  } catch {
    // Not JSON: said below.
  }
  if (typeof rows !== "object" || rows === null)
    throw new BatchError(`${file} is not an inkpress batch manifest: move it away to start over`);
  return rows as Record<string, Entry>;
}
