/**
 * One page file analysed as it is: Markdown (`.md`, `.markdown`, `.mdx`) with its front
 * matter, or HTML (`.html`, `.htm`), measured through the same request validation and
 * analyser as `POST /api/v1/analyse`. Targets given as fields override the page's own.
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { analyseExisting, type ExistingAnalysis } from "../article/index.js";
import { AnalyseRequestSchema } from "../article/wire/analyse.js";
import { fieldErrors, requestFromFields, type RequestField } from "../article/wire/fields.js";
import { InkpressError, InvalidFieldError } from "../errors.js";
import { NotTextError, readTextFile } from "../text-file.js";
import { AuditError } from "./errors.js";

/** The extensions read as HTML; any other page is Markdown. */
const HTML = new Set([".html", ".htm"]);
/** The extensions of pages a folder audit reads. */
const PAGE_EXTENSIONS = new Set([".md", ".markdown", ".mdx", ...HTML]);

/** Every page file under a folder (of `extensions`), sorted; folders whose names start with a dot, and node_modules, are skipped. */
export async function pageFiles(dir: string, extensions: ReadonlySet<string> = PAGE_EXTENSIONS): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (error) {
    throw new AuditError(`${dir}: cannot read the folder (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, {
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

/** How one file is analysed. */
export interface AnalyseFileOptions {
  /**
   * Targets as flat request fields (`keywords`, `language`, `length`, `avoid`, …), over the page's own.
   * @default {}
   */
  fields?: Partial<Record<RequestField, unknown>>;
  /**
   * The front matter field that holds the keywords.
   * @default "keywords"
   */
  keywordsField?: string;
}

/** Read and analyse one page file; a problem is an {@link AuditError} naming the file. */
export async function analyseFile(file: string, options: AnalyseFileOptions = {}): Promise<ExistingAnalysis> {
  let text: string;
  try {
    ({ text } = await readTextFile(file));
  } catch (error) {
    if (error instanceof NotTextError) throw new AuditError(`${file}: ${error.message}`, { cause: error });
    throw new AuditError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, {
      cause: error,
    });
  }
  return analyseText(file, text, options);
}

/** Analyse a page's text, named by its file. */
async function analyseText(file: string, text: string, options: AnalyseFileOptions = {}): Promise<ExistingAnalysis> {
  const format = HTML.has(path.extname(file).toLowerCase()) ? "html" : "markdown";
  const validated = await AnalyseRequestSchema["~standard"].validate({ ...requestFromFields(options.fields ?? {}), [format]: text });
  if (validated.issues) {
    const errors = fieldErrors(validated).map((e) =>
      e.path === format ? `${e.message.replace(/^(markdown|html)\b/, "the page")}` : `${e.path}: ${e.message}`,
    );
    throw new AuditError(`${file}: ${errors.join("; ")}`);
  }
  try {
    return analyseExisting(validated.value, {
      fileSlug: fileSlug(file),
      ...(options.keywordsField ? { keywordsField: options.keywordsField } : {}),
    });
  } catch (error) {
    if (error instanceof InvalidFieldError) throw new AuditError(`${file}: ${error.problem}`, { cause: error });
    if (error instanceof InkpressError) throw new AuditError(`${file}: ${error.message}`, { cause: error });
    throw error;
  }
}

/** The slug a site generator gives a file: its name, or its folder's for an index page (`compost/index.md` is `compost`). */
export function fileSlug(file: string): string | undefined {
  const name = path.basename(file, path.extname(file));
  if (!/^_?index$/i.test(name)) return name;
  const folder = path.basename(path.dirname(path.resolve(file)));
  return folder || undefined;
}
