/**
 * `inkpress batch --refresh DIR`: every Markdown file under a folder refreshed, the result
 * beside it as `<slug>.refreshed.md`, or in its place with the original kept as `<file>.bak`.
 * Resumable like a batch of rows: the folder's manifest records each file as it is done, so a
 * run stopped at any moment is taken up by the next one without refreshing a file twice.
 */
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import { FileChangedError, fileVersion, isUnchanged, writeFileAtomic, type FileVersion } from "../atomic.js";
import { fileSlug, MARKDOWN_PAGES, pageFiles } from "../site/pages.js";
import { InkpressError } from "../errors.js";
import { GenerationService } from "../generation/service.js";
import type { Backend } from "../model/backend.js";
import { refreshRequestOf, type RefreshFields } from "../refresh/file.js";
import type { RefreshedArticle } from "../article/index.js";
import type { RefreshRequest } from "../contract/refresh.js";
import { Manifest } from "./manifest.js";
import { onlyPages } from "./only.js";
import { runPool } from "./pool.js";
import type { BadRow } from "./row.js";
import type { BatchSummary } from "./run.js";

/** The refresh batch's manifest in the folder (a row batch's own may share it). */
const MANIFEST_FILE = ".inkpress-refresh.json";
/** What a refreshed file is called beside its original. */
const REFRESHED = ".refreshed.md";

/** One file to refresh. */
export interface RefreshItem {
  /** Its place in the folder's sorted list (1-based). */
  line: number;
  /** Its path under the folder, with `/`. */
  name: string;
  file: string;
  request: RefreshRequest;
  /** The original's exact bytes (from its backup when an earlier run made one): an in-place refresh keeps them as `<file>.bak`. */
  original: Buffer;
  /** What the file held when the plan read it: in place, it is replaced only while it still does. */
  version: FileVersion;
}

/** A refresh batch before it runs. */
export interface RefreshPlan {
  total: number;
  pending: RefreshItem[];
  skipped: number;
  /** Files that cannot be read or refreshed, each named. */
  failed: BadRow[];
  duplicates: BadRow[];
  manifest: Manifest;
  inPlace: boolean;
}

/** Refresh one file's request (a local model, or anything else that refreshes). */
export type RefreshFile = (item: RefreshItem, signal: AbortSignal) => Promise<RefreshedArticle>;

/** The folder's files, read and validated; those an earlier run refreshed are left out. */
export async function planRefresh(
  dir: string,
  options: {
    inPlace: boolean;
    fields?: RefreshFields;
    /** A file listing the only pages to refresh (an audit report's decay, or paths): {@link onlyPages}. @default every page */
    only?: string;
  },
): Promise<RefreshPlan> {
  const { inPlace } = options;
  const all = (await pageFiles(dir, MARKDOWN_PAGES)).filter((file) => !file.endsWith(REFRESHED));
  const nameOf = (file: string) => path.relative(dir, file).split(path.sep).join("/");
  const only = options.only ? await onlyPages(options.only, dir, new Set(all.map(nameOf))) : undefined;
  const files = only ? all.filter((file) => only.has(nameOf(file))) : all;
  const manifest = await Manifest.open(dir, {
    file: MANIFEST_FILE,
    files: (name) => [path.join(dir, inPlace ? `${name}.bak` : refreshedName(name))],
  });
  const plan: RefreshPlan = { total: files.length, pending: [], skipped: 0, failed: [], duplicates: [], manifest, inPlace };
  for (const [i, file] of files.entries()) {
    const name = nameOf(file);
    if (manifest.isDone(name)) {
      plan.skipped++;
      continue;
    }
    // In place, a run stopped between the backup and the new file left the original in the backup.
    const source = inPlace && manifest.isUnfinished(name) ? await backupOf(file) : file;
    try {
      const { request, bytes } = await refreshRequestOf(source, options.fields);
      // What an in-place refresh replaces must be what its backup keeps.
      const own = source === file ? bytes : await readFile(file);
      if (!own.equals(bytes)) throw new InkpressError(backupDiffers(name));
      const version = await fileVersion(file, own);
      plan.pending.push({ line: i + 1, name, file, request, original: bytes, version });
    } catch (error) {
      plan.failed.push({ line: i + 1, name, error: (error as Error).message.replace(`${source}: `, "") });
    }
  }
  return plan;
}

/** Where the refreshed file of a name goes beside it: `guides/compost.md` → `guides/compost.refreshed.md`. */
function refreshedName(name: string): string {
  return `${name.slice(0, name.length - path.extname(name).length)}${REFRESHED}`;
}

/** Why a file is not refreshed in place again after a run stopped with its backup written. */
const backupDiffers = (name: string) =>
  `it differs from ${path.basename(name)}.bak, which an interrupted run left: keep the text you want in ${path.basename(name)}, remove the .bak and run again`;

/** The backup of a file when there is one, else the file. */
async function backupOf(file: string): Promise<string> {
  return readFile(`${file}.bak`).then(
    () => `${file}.bak`,
    () => file,
  );
}

/** How a refresh batch runs. */
export interface RefreshBatchOptions {
  concurrency: number;
  refresh: RefreshFile;
  /** Stops the run: files in flight are dropped, finished ones kept. @default none */
  signal?: AbortSignal;
  /** A file was refreshed (`file`: what was written). @default none */
  onWritten?(item: RefreshItem, file: string): void;
  /** A file could not be refreshed, and why. @default none */
  onFailed?(bad: BadRow): void;
}

/** Refresh the plan's pending files, `concurrency` at a time, each recorded as soon as it is written. */
export async function runRefresh(plan: RefreshPlan, options: RefreshBatchOptions): Promise<BatchSummary> {
  const { manifest, inPlace } = plan;
  const failed = [...plan.failed];
  let written = 0;
  await runPool(plan.pending, {
    concurrency: options.concurrency,
    ...(options.signal ? { signal: options.signal } : {}),
    work: async (item, signal) => {
      const [out] = manifest.files(item.name) as [string];
      if (!(await manifest.claimExact(item.name, item.line, item.name))) {
        throw new InkpressError(
          `${path.basename(out)} is there and was not written by this batch: move it away to refresh ${path.basename(item.file)}`,
        );
      }
      const { response } = await options.refresh(item, signal);
      // The new files are site content like the original: readable as it was.
      const mode = { mode: (await stat(item.file)).mode & 0o777 };
      if (inPlace) await replaceInPlace(item, out, response.article.markdown, mode.mode);
      else await writeFileAtomic(out, response.article.markdown, mode);
      await manifest.finish(item.name);
      written++;
      options.onWritten?.(item, inPlace ? item.file : out);
    },
    failed: (item, error) => {
      const bad = { line: item.line, name: item.name, error: error.message };
      failed.push(bad);
      options.onFailed?.(bad);
    },
  });
  failed.sort((a, b) => a.line - b.line);
  return { written, skipped: plan.skipped, failed, duplicates: [], interrupted: Boolean(options.signal?.aborted) };
}

/**
 * Replace a file with its refresh, its original kept in the backup; only while the file still
 * holds what the plan read (checked before the backup and again just before the rename), so an
 * edit made while the refresh ran is never overwritten, nor missing from the backup.
 */
async function replaceInPlace(item: RefreshItem, backup: string, markdown: string, mode: number): Promise<void> {
  try {
    if (!(await isUnchanged(item.file, item.version))) throw new FileChangedError(item.file);
    await writeFileAtomic(backup, item.original, { mode });
    await writeFileAtomic(item.file, markdown, { mode, unchanged: item.version });
  } catch (error) {
    if (!(error instanceof FileChangedError)) throw error;
    throw new InkpressError(
      `${path.basename(item.file)} changed while it was being refreshed: skipped, it keeps your edit; run again to refresh the new text`,
    );
  }
}

/** Files refreshed in this process through the generation service, on the backend's sequences; no key, so no limits. */
export function localRefresher(backend: Backend): RefreshFile {
  const generations = new GenerationService({ modelHost: { backend, get: async () => backend } });
  return async (item, signal) => {
    const admission = await generations.admit(item.request.length ?? 0);
    const slug = fileSlug(item.file);
    return admission.refresh(item.request, { signal, ...(slug ? { fileSlug: slug } : {}) });
  };
}
