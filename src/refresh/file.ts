/**
 * One Markdown file refreshed: read, validated as a `POST /api/v1/refresh` request (flat fields
 * over its front matter's targets), and named in every error, for `inkpress refresh` and
 * `inkpress batch --refresh`.
 */
import { fileSlug } from "../site/pages.js";
import { fieldErrors, requestFromFields, type RequestField } from "../contract/fields.js";
import { readMarkdown, refreshArticle, type RefreshedArticle, type RefreshOptions } from "../article/index.js";
import { InkpressError, InvalidFieldError } from "../errors.js";
import { NotTextError, readTextFile } from "../text-file.js";
import { RefreshRequestSchema, type RefreshRequest } from "../contract/refresh.js";

/** A file that cannot be refreshed (unreadable, invalid front matter, a bad target): its message names it. */
class RefreshFileError extends InkpressError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { ...options, status: 400 });
  }
}

/** A refresh's flat fields: the request fields (`keywords`, `avoid`, `seed`, `links`, …) and what it may rewrite (`mend`). */
export type RefreshFields = Partial<Record<RequestField, unknown>> & { mend?: unknown };

/**
 * The request of one file: its text, and targets as flat fields; with the file's exact bytes,
 * which an in-place refresh keeps as its backup. A file that is not UTF-8 text is refused, naming it.
 */
export async function refreshRequestOf(file: string, fields: RefreshFields = {}): Promise<{ request: RefreshRequest; bytes: Buffer }> {
  const { mend, ...targets } = fields;
  let markdown: string;
  let bytes: Buffer;
  try {
    ({ text: markdown, bytes } = await readTextFile(file));
  } catch (error) {
    if (error instanceof NotTextError) throw new RefreshFileError(`${file}: ${error.message}`, { cause: error });
    throw new RefreshFileError(`${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, {
      cause: error,
    });
  }
  const validated = await RefreshRequestSchema["~standard"].validate({
    ...requestFromFields(targets),
    ...(mend === undefined ? {} : { mend }),
    markdown,
  });
  if (validated.issues) {
    const errors = fieldErrors(validated).map((e) =>
      e.path === "markdown" ? e.message.replace(/^markdown\b/, "the file") : `${e.path}: ${e.message}`,
    );
    throw new RefreshFileError(`${file}: ${errors.join("; ")}`);
  }
  // A front matter that cannot be read is said now, before any model is loaded.
  try {
    readMarkdown(markdown);
  } catch (error) {
    if (error instanceof InvalidFieldError)
      throw new RefreshFileError(`${file}: ${error.problem.replace(/^markdown: /u, "")}`, { cause: error });
    throw error;
  }
  return { request: validated.value, bytes };
}

/** Refresh one file's request; an error of the article (its front matter) names the file. */
export async function refreshFile(file: string, request: RefreshRequest, options: RefreshOptions): Promise<RefreshedArticle> {
  try {
    const slug = fileSlug(file);
    return await refreshArticle(request, { ...(slug ? { fileSlug: slug } : {}), ...options });
  } catch (error) {
    if (error instanceof InvalidFieldError) throw new RefreshFileError(`${file}: ${error.problem}`, { cause: error });
    if (error instanceof InkpressError && error.status < 500) throw new RefreshFileError(`${file}: ${error.message}`, { cause: error });
    throw error;
  }
}
