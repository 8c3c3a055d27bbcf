/**
 * One page file analysed as it is: Markdown (`.md`, `.markdown`, `.mdx`) with its front
 * matter, or HTML (`.html`, `.htm`), measured through the same request validation and
 * analyser as `POST /api/v1/analyse`. Targets given as fields override the page's own.
 */
import { analyseExisting } from "../article/index.js";
import { AnalyseRequestSchema } from "../contract/analyse.js";
import { fieldErrors, requestFromFields, type RequestField } from "../contract/fields.js";
import { InkpressError, InvalidFieldError } from "../errors.js";
import { fileSlug, isHtmlPage } from "../site/pages.js";
import { NotTextError, readTextFile } from "../text-file.js";
import { AuditError } from "./errors.js";

/** What analysing one page gives: its analysis and the page as read. */
type ExistingAnalysis = ReturnType<typeof analyseExisting>;

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
  const format = isHtmlPage(file) ? "html" : "markdown";
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
