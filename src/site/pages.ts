/**
 * The page files of a site's folder, as audit, batch --refresh and refresh read them: which
 * files are pages, which are HTML, and the slug a site generator gives each.
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { InkpressError } from "../errors.js";

/** The extensions of Markdown pages (the pages a refresh reads). */
export const MARKDOWN_PAGES: ReadonlySet<string> = new Set([".md", ".markdown", ".mdx"]);
/** The extensions read as HTML; any other page is Markdown. */
const HTML_PAGES: ReadonlySet<string> = new Set([".html", ".htm"]);
/** The extensions of pages a folder audit reads. */
const PAGE_EXTENSIONS = new Set([...MARKDOWN_PAGES, ...HTML_PAGES]);

/** A folder of pages that cannot be read: its message names the folder. */
class PageFolderError extends InkpressError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, status: 400 });
  }
}

/** Whether a page file is HTML (by its extension); any other is Markdown. */
export const isHtmlPage = (file: string) => HTML_PAGES.has(path.extname(file).toLowerCase());

/** Every page file under a folder (of `extensions`), sorted; folders whose names start with a dot, and node_modules, are skipped. */
export async function pageFiles(dir: string, extensions: ReadonlySet<string> = PAGE_EXTENSIONS): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (error) {
    throw new PageFolderError(`${dir}: cannot read the folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, {
      cause: error,
    });
  }
  return entries
    .filter((entry) => entry.isFile() && extensions.has(path.extname(entry.name).toLowerCase()))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter(
      (file) =>
        !path
          .relative(dir, file)
          .split(path.sep)
          .some((part) => part.startsWith(".") || part === "node_modules"),
    )
    .sort();
}

/** The slug a site generator gives a file: its name, or its folder's for an index page (`compost/index.md` is `compost`). */
export function fileSlug(file: string): string | undefined {
  const name = path.basename(file, path.extname(file));
  if (!/^_?index$/i.test(name)) return name;
  const folder = path.basename(path.dirname(path.resolve(file)));
  return folder || undefined;
}
